#!/usr/bin/env node
// Measures `handbook build` against its lower bound (parsing the same files) and tsc.
// Usage: npm run bench [-- --runs 3 --json out.json]; node scripts/bench-build.mjs --only aider measures the targets whose name holds that text
// Checkouts of the dev-set repos are read from $BENCH_REPOS (default /tmp/repos); see ../shared/bench/README.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(option('runs', '3'));
const jsonOut = option('json');
const only = option('only');
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';

const targets = [
  { name: '@google/gemini-cli-core@0.61.0 (npm, JavaScript)', dir: path.join(root, '.cache/real-code/gemini-cli-core-0.61.0') },
  { name: 'gemini-cli packages/core @5411f113', dir: path.join(reposDirectory, 'gemini-cli/packages/core'), tsconfig: 'tsconfig.json' },
  { name: 'gemini-cli whole repo @5411f113', dir: path.join(reposDirectory, 'gemini-cli') },
  { name: 'deepagentsjs whole repo @c0bc7692', dir: path.join(reposDirectory, 'deepagentsjs') },
  // Languages read by syntax alone: a Python harness of about 200 files (bench/aider.json's repository and commit),
  // a Go harness (crush) and a Rust one (forge, bench/forge.json's repository and commit).
  { name: 'aider whole repo @5dc9490b (Python)', dir: path.join(reposDirectory, 'aider'), language: 'python' },
  { name: 'crush whole repo @37f36e93 (Go)', dir: path.join(reposDirectory, 'crush'), language: 'go' },
  { name: 'forge whole repo @54cecac1 (Rust)', dir: path.join(reposDirectory, 'forge'), language: 'rust' },
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * One cold build in a fresh process; the child reports its own peak RSS. `ms` counts from before
 * the tool's modules load; `workMs` from after (the analysis and its grammars imported first), as
 * parse-only counts from after its parsers load.
 */
function coldBuild(dir) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-'));
  const database = path.join(scratch, 'handbook.db');
  const script = `
    const started = performance.now();
    const { buildHandbook } = await import(${JSON.stringify(path.join(root, 'dist', 'index.js'))});
    await import(${JSON.stringify(path.join(root, 'dist', 'analyze', 'analysis-session.js'))});
    const loaded = performance.now();
    let graphMs = 0;
    const summary = await buildHandbook(process.argv[1], { database: process.argv[2], onProgress: (p) => {
      if (p.phase === 'organize' && graphMs === 0) graphMs = performance.now() - loaded;
    } });
    const ended = performance.now();
    process.stdout.write(JSON.stringify({ ms: ended - started, workMs: ended - loaded, loadMs: loaded - started, graphMs, rssMb: process.resourceUsage().maxRSS / 1024, files: summary.files, units: summary.units, share: summary.calls.resolvedShare }));`;
  const started = performance.now();
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, dir, database], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const wallMs = performance.now() - started;
  rmSync(scratch, { recursive: true, force: true });
  return { ...JSON.parse(output), wallMs };
}

/**
 * The lower bound: read and parse the same files, nothing else: TypeScript and JavaScript with
 * ts.createSourceFile, Python, Go and Rust with the tree-sitter parsers analysis uses (loaded before the clock starts).
 */
function parseOnly(dir) {
  const script = `
    const { discoverFiles } = await import(${JSON.stringify(path.join(root, 'dist', 'analyze', 'discover-files.js'))});
    const { parserFor } = await import(${JSON.stringify(path.join(root, 'dist', 'analyze', 'syntax', 'tree-sitter.js'))});
    const grammars = { '.py': 'python', '.go': 'go', '.rs': 'rust' };
    const { ts } = await import('ts-morph');
    const { readFileSync } = await import('node:fs');
    const started = performance.now();
    const files = discoverFiles(process.argv[1]).files;
    for (const file of files) {
      const text = readFileSync(file.absolutePath, 'utf8');
      const grammar = grammars[file.path.slice(file.path.lastIndexOf('.'))];
      if (grammar) parserFor(grammar).parse(text)?.delete();
      else ts.createSourceFile(file.absolutePath, text, ts.ScriptTarget.ES2022, false);
    }
    process.stdout.write(JSON.stringify({ ms: performance.now() - started, files: files.length }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], { encoding: 'utf8', cwd: root }));
}

/** tsc --noEmit on the package's own tsconfig (types and deprecations neutralized: the checkout has no node_modules). */
function tscNoEmit(dir, tsconfig) {
  const benchConfig = path.join(dir, 'tsconfig.handbook-bench.json');
  writeFileSync(benchConfig, JSON.stringify({ extends: `./${tsconfig}`, compilerOptions: { types: [], ignoreDeprecations: '6.0', composite: false, incremental: false } }));
  try {
    const started = performance.now();
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', benchConfig, '--extendedDiagnostics'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const wallMs = performance.now() - started;
    const check = /Check time:\s+([\d.]+)s/.exec(result.stdout);
    return { wallMs, checked: Boolean(check) };
  } finally {
    rmSync(benchConfig, { force: true });
  }
}

const rows = [];
for (const target of targets) {
  if (only && !target.name.includes(only)) continue;
  if (!existsSync(target.dir)) {
    console.log(`- ${target.name}: skipped, no checkout at ${target.dir}`);
    continue;
  }
  const builds = Array.from({ length: runs }, () => coldBuild(target.dir));
  const parses = Array.from({ length: runs }, () => parseOnly(target.dir));
  const row = {
    target: target.name,
    ...(target.language ? { language: target.language } : {}),
    files: builds[0].files,
    buildMs: Math.round(median(builds.map((build) => build.wallMs))),
    buildInProcessMs: Math.round(median(builds.map((build) => build.ms))),
    buildWorkMs: Math.round(median(builds.map((build) => build.workMs))),
    loadMs: Math.round(median(builds.map((build) => build.loadMs))),
    graphMs: Math.round(median(builds.map((build) => build.graphMs))),
    peakRssMb: Math.round(Math.max(...builds.map((build) => build.rssMb))),
    parseOnlyMs: Math.round(median(parses.map((parse) => parse.ms))),
    resolvedShare: builds[0].share,
  };
  row.ratio = Math.round((row.buildInProcessMs / row.parseOnlyMs) * 10) / 10;
  // Like for like: modules loaded before the clock on both sides.
  row.workRatio = Math.round((row.buildWorkMs / row.parseOnlyMs) * 10) / 10;
  row.graphRatio = Math.round((row.graphMs / row.parseOnlyMs) * 10) / 10;
  if (target.tsconfig && existsSync(path.join(target.dir, target.tsconfig))) {
    const tsc = Array.from({ length: runs }, () => tscNoEmit(target.dir, target.tsconfig));
    row.tscNoEmitMs = Math.round(median(tsc.map((run) => run.wallMs)));
  }
  rows.push(row);
  console.log(`- ${row.target}: ${row.files} files; build ${row.buildMs} ms wall (${row.buildInProcessMs} ms in process: loading the modules ${row.loadMs} ms, then ${row.buildWorkMs} ms, of which the program graph ${row.graphMs} ms), peak RSS ${row.peakRssMb} MB; parse-only ${row.parseOnlyMs} ms; build/parse ${row.workRatio}x with modules loaded first (${row.ratio}x counting their loading in the build only), graph/parse ${row.graphRatio}x${row.tscNoEmitMs ? `; tsc --noEmit ${row.tscNoEmitMs} ms` : ''}; resolved share ${row.resolvedShare}`);
}
console.log(`\nmedian of ${runs} runs on ${os.cpus().length} cores, Node ${process.version}`);
// The targets: faster than tsc --noEmit where it runs (the type-checked TypeScript build's bar; its ratio to parse-only is reported,
// not a gate), build within 2x parse-only for a language read by syntax alone, peak RSS within 1 GB.
console.log('targets:');
for (const row of rows) {
  const bound = row.language === undefined ? undefined : 2;
  const checks = [bound === undefined ? `build/parse ${row.workRatio}x (reported)` : `build/parse ${row.workRatio}x ${row.workRatio <= bound ? `<= ${bound}x met` : `> ${bound}x NOT met`}`, `peak RSS ${row.peakRssMb} MB ${row.peakRssMb <= 1024 ? '<= 1 GB met' : '> 1 GB NOT met'}`];
  if (row.tscNoEmitMs) checks.push(`build ${row.buildMs} ms vs tsc ${row.tscNoEmitMs} ms ${row.buildMs < row.tscNoEmitMs ? 'faster, met' : 'NOT faster'}`);
  console.log(`- ${row.target}: ${checks.join('; ')}`);
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ runs, node: process.version, cores: os.cpus().length, rows }, null, 2)}\n`);
