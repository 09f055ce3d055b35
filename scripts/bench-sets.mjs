// The dev sets' runner shared by bench-ask and bench-plan: for each set whose checkout is present
// ($BENCH_REPOS, default /tmp/repos; see ../shared/bench/README.md), runs ../shared/bench/score.mjs
// against the built CLI and returns its JSON report with the exact command that produced it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bench = path.join(root, '..', 'shared', 'bench');
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';

const quote = (value) => (/^[\w./:=@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** The built CLI; exits with a hint when there is none. */
export function builtCli() {
  const cli = path.join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) {
    console.error(`no ${path.relative(root, cli)}: run \`npm run build\` first`);
    process.exit(2);
  }
  return cli;
}

/** Every set: the two shared dev sets, then the project's own in bench/ (written before any tuning on them), each with its file. */
export function allSets() {
  const own = existsSync(path.join(root, 'bench')) ? readdirSync(path.join(root, 'bench')).filter((name) => name.endsWith('.json')).sort() : [];
  return [
    ...['gemini-cli', 'deepagentsjs'].map((name) => ({ name, file: path.join(bench, `${name}.json`) })),
    ...own.map((name) => ({ name: name.replace(/\.json$/, ''), file: path.join(root, 'bench', name) })),
  ];
}

/** The sets (or only `only`) whose checkout is present, each with its checkout and its set file; says which are skipped. */
export function presentSets(only) {
  const present = [];
  for (const { name, file } of allSets()) {
    if (only && name !== only) continue;
    const repo = path.join(reposDirectory, name);
    if (existsSync(repo)) present.push({ name, repo, bench, file });
    else console.log(`- ${name}: skipped, no checkout at ${repo}`);
  }
  return present;
}

/** Scores every present set (or only `only`); `plan` adds score.mjs --plan; `save` keeps each report as DIR/SET.json (for bench-compare). */
export function scoreSets({ only, plan, save }) {
  const cli = builtCli();
  if (save) mkdirSync(save, { recursive: true });
  const scratch = save ?? mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-'));
  const rows = [];
  for (const { name, repo, file } of presentSets(only)) {
    const out = path.join(scratch, `${name}.json`);
    const command = [path.join(bench, 'score.mjs'), '--set', file, '--repo', repo, '--cmd', `${process.execPath} ${cli}`, ...(plan ? ['--plan'] : []), '--json', out];
    const shown = [process.execPath, ...command].map(quote).join(' ');
    console.log(`$ ${shown}`);
    execFileSync(process.execPath, command, { stdio: 'inherit', cwd: root });
    rows.push({ name, report: JSON.parse(readFileSync(out, 'utf8')), command: shown });
  }
  return rows;
}

/** The options both scripts take: `--set NAME`, `--save DIR` and flags. */
export function benchArguments() {
  const args = process.argv.slice(2);
  const value = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const save = value('--save');
  return { only: value('--set'), save: save && path.resolve(save), has: (flag) => args.includes(flag) };
}
