#!/usr/bin/env node
// Edit plans on the dev sets: runs ../shared/bench/score.mjs --plan for each set whose checkout is
// present ($BENCH_REPOS, default /tmp/repos; see ../shared/bench/README.md). score.mjs builds the
// handbook of the checkout once, then runs `plan "REQUEST" --repo DIR --json` for every "change"
// request and scores its `targets` (file and symbol precision/recall/F1) against the primary gold,
// beside its BM25 baseline plan. Prints each set's plan scores next to the baseline, and the command.
// Usage: npm run build && npm run bench:plan [-- --set gemini-cli] [-- --per-request]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bench = path.join(root, '..', 'shared', 'bench');
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';
const args = process.argv.slice(2);
const only = args.includes('--set') ? args[args.indexOf('--set') + 1] : undefined;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-plan-'));
const cli = path.join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error(`no ${path.relative(root, cli)}: run \`npm run build\` first`);
  process.exit(2);
}

const quote = (value) => (/^[\w./:=@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
const rows = [];
for (const name of ['gemini-cli', 'deepagentsjs']) {
  if (only && name !== only) continue;
  const repo = path.join(reposDirectory, name);
  if (!existsSync(repo)) {
    console.log(`- ${name}: skipped, no checkout at ${repo}`);
    continue;
  }
  const out = path.join(scratch, `${name}.json`);
  const command = [path.join(bench, 'score.mjs'), '--set', path.join(bench, `${name}.json`), '--repo', repo, '--cmd', `${process.execPath} ${cli}`, '--plan', '--json', out];
  console.log(`$ ${[process.execPath, ...command].map(quote).join(' ')}`);
  execFileSync(process.execPath, command, { stdio: 'inherit', cwd: root });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  rows.push({ name, report, command: [process.execPath, ...command].map(quote).join(' ') });
  if (args.includes('--per-request')) {
    for (const row of report.plan_per_request) console.log(`  ${row.id}  file P/R/F1 ${row.fileP.toFixed(2)}/${row.fileR.toFixed(2)}/${row.fileF1.toFixed(2)}  symbol P/R/F1 ${row.symP.toFixed(2)}/${row.symR.toFixed(2)}/${row.symF1.toFixed(2)}`);
  }
}

console.log('\n| set | | change requests | fileP | fileR | file F1 | symP | symR | symbol F1 | failed plans |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
const metric = (values) => ['fileP', 'fileR', 'fileF1', 'symP', 'symR', 'symF1'].map((key) => values[key].toFixed(2)).join(' | ');
for (const { name, report } of rows) {
  const requests = report.plan_per_request.length;
  console.log(`| ${name} | BM25 baseline (first 5 functions) | ${requests} | ${metric(report.plan_baseline)} | |`);
  console.log(`| ${name} | harness-handbook plan (offline) | ${requests} | ${metric(report.plan)} | ${report.plan_failures.length} |`);
}
for (const { name, report } of rows) for (const failure of report.plan_failures) console.log(`- ${name} failed plan: ${failure}`);
console.log('\ncommands:');
for (const { name, command } of rows) console.log(`- ${name}: ${command}`);
