#!/usr/bin/env node
// Sync after a one-function edit on a Python harness (aider at bench/aider.json's commit), next to a
// cold build of the same tree: in the median-size file and in the largest file, kept open (watch)
// and as `handbook sync` (a new process that reads the store back). Ends by checking the synced
// handbook equals a cold build. The goal: a one-file watch sync within 100 ms.
// Usage: npm run bench:sync-python [-- --runs 20 --cli-runs 5 --json out.json]   (part of `npm run bench`)
// The checkout is read from $BENCH_REPOS (default /tmp/repos; see ../shared/bench/README.md) and copied.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { buildHandbook, LiveHandbook, openHandbook } = await import(path.join(root, 'dist', 'index.js'));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const runs = Number(option('runs', '20'));
const cliRuns = Number(option('cli-runs', '5'));
const jsonOut = option('json');
const source = path.join(process.env.BENCH_REPOS ?? '/tmp/repos', 'aider');
if (!existsSync(source)) {
  console.log(`- sync (Python): skipped, no checkout at ${source}`);
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-sync-python-'));
const repo = path.join(scratch, 'aider');
cpSync(source, repo, { recursive: true, filter: (file) => !file.split(path.sep).includes('.handbook') });
const database = path.join(scratch, 'handbook.db');

let started = performance.now();
const build = await buildHandbook(repo, { database });
const coldMs = performance.now() - started;

/** A statement appended to a function's body, at the indentation of its last line (another value each round): the edit a developer makes most. */
function editor(file, unit) {
  const absolute = path.join(repo, file);
  const original = readFileSync(absolute, 'utf8');
  const lines = original.split('\n');
  const indent = /^\s*/.exec(lines[unit.endLine - 1])[0];
  const before = lines.slice(0, unit.endLine).join('\n');
  const after = lines.slice(unit.endLine).join('\n');
  return { absolute, original, edited: (round) => `${before}\n${indent}_bench = ${round}\n${after}` };
}

const { medianFile, largestFile } = (() => {
  const handbook = openHandbook(repo, { database });
  const sources = handbook.graph.toData().files.filter((file) => !file.test && file.path.endsWith('.py')).sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1));
  const pick = (file) => {
    const text = readFileSync(path.join(repo, file.path), 'utf8').split('\n');
    // A function whose last line is a plain statement of its body (not a closing bracket of a call spread over lines).
    const unit = handbook.graph.codeUnits().find((candidate) => candidate.file === file.path && (candidate.kind === 'function' || candidate.kind === 'method') &&
      candidate.endLine > candidate.startLine + 1 && /^\s+(return\b|[\w.]+\(.*\)\s*$|[\w.]+ = .*\S\s*$)/.test(text[candidate.endLine - 1] ?? ''));
    return unit ? { file, unit } : undefined;
  };
  return { medianFile: sources.slice(Math.floor(sources.length / 2)).map(pick).find(Boolean), largestFile: [...sources].reverse().map(pick).find(Boolean) };
})();

const edits = [['one function in the median-size file', medianFile], ['one function in the largest file', largestFile]];
const results = [];
const live = await LiveHandbook.open(repo, { database });
await live.sync();
for (const [label, target] of edits) {
  const warm = [];
  const resolved = [];
  const { absolute, original, edited } = editor(target.file.path, target.unit);
  for (let round = 0; round < runs; round += 1) {
    writeFileSync(absolute, edited(round));
    started = performance.now();
    const summary = await live.sync();
    warm.push(performance.now() - started);
    resolved.push(summary.resolvedFiles);
  }
  writeFileSync(absolute, original);
  await live.sync();
  results.push({ label, file: target.file.path, lines: target.file.lines, unit: target.unit.symbol, warmMs: median(warm), resolvedFiles: median(resolved) });
}
live.close();

for (const [index, result] of results.entries()) {
  const target = edits[index][1];
  const cli = [];
  const { absolute, original, edited } = editor(target.file.path, target.unit);
  for (let round = 0; round < cliRuns; round += 1) {
    writeFileSync(absolute, edited(round));
    started = performance.now();
    execFileSync(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'sync', repo, '--db', database, '--json'], { stdio: 'ignore' });
    cli.push(performance.now() - started);
  }
  writeFileSync(absolute, original);
  execFileSync(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'sync', repo, '--db', database, '--json'], { stdio: 'ignore' });
  result.cliMs = median(cli);
}

const coldDatabase = path.join(scratch, 'cold.db');
await buildHandbook(repo, { database: coldDatabase });
const content = (db) => {
  const opened = openHandbook(repo, { database: db, withSearchTerms: true });
  return JSON.stringify([opened.graph.toData(), opened.organized, opened.register, [...opened.searchTerms]]);
};
const invariant = content(database) === content(coldDatabase);
rmSync(scratch, { recursive: true, force: true });

console.log(`aider @5dc9490b: ${build.files} files, cold build ${(coldMs / 1000).toFixed(1)} s in this run`);
console.log(`| edit | file | kept open (watch), median of ${runs} | within 100 ms | \`handbook sync\` process, median of ${cliRuns} | files resolved again |`);
console.log('|---|---|---|---|---|---|');
for (const result of results) {
  console.log(`| ${result.label} | ${result.file} (${result.lines} lines) | ${Math.round(result.warmMs)} ms | ${result.warmMs <= 100 ? 'met' : 'NOT met'} | ${(result.cliMs / 1000).toFixed(1)} s | ${result.resolvedFiles} |`);
}
console.log(`invariant after ${edits.length * (runs + cliRuns + 1)} syncs: the synced handbook ${invariant ? 'equals' : 'DIFFERS FROM'} a cold build`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ coldMs, files: build.files, results, invariant }, null, 2));
if (!invariant) process.exitCode = 1;
