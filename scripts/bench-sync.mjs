#!/usr/bin/env node
// Sync after a one-function edit, next to a cold build of the same tree, on gemini-cli: in a
// median-size file and in the largest file, and after an import added to the file with the most
// type aliases; kept open (watch) and as `handbook sync` (a new process that reads the store back). Ends by checking the synced handbook equals a cold build.
// Usage: npm run bench:sync [-- --runs 20 --cli-runs 5 --json out.json]   (part of `npm run bench`)
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
const source = path.join(process.env.BENCH_REPOS ?? '/tmp/repos', 'gemini-cli');
if (!existsSync(source)) {
  console.log(`- sync: skipped, no checkout at ${source}`);
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-sync-'));
const repo = path.join(scratch, 'gemini-cli');
cpSync(source, repo, { recursive: true, filter: (file) => !file.split(path.sep).includes('.handbook') });
const database = path.join(scratch, 'handbook.db');

let started = performance.now();
const build = await buildHandbook(repo, { database });
const coldMs = performance.now() - started;

/** A function's body gains a statement before its closing brace (a different one each round): the edit a developer makes most. */
function editor(file, unit) {
  const absolute = path.join(repo, file);
  const original = readFileSync(absolute, 'utf8');
  const lines = original.split('\n');
  const before = lines.slice(0, unit.endLine - 1).join('\n');
  const after = lines.slice(unit.endLine - 1).join('\n');
  return { absolute, original, edited: (round) => `${before}\n    void ${round};\n${after}` };
}

/** An import added at the head of the file (another one each round), which a file's type aliases and intersections do not spell. */
function importEditor(file) {
  const absolute = path.join(repo, file);
  const original = readFileSync(absolute, 'utf8');
  return { absolute, original, edited: (round) => `import { join as join${round} } from 'node:path';\n${original}` };
}

const editorOf = (target) => (target.edit === 'import' ? importEditor(target.file.path) : editor(target.file.path, target.unit));

// The stored handbook is read only to pick the edits, and let go before timing: a watch process holds no second copy of the graph.
const { medianFile, largestFile, aliasFile } = (() => {
  const handbook = openHandbook(repo, { database });
  const sources = handbook.graph.toData().files.filter((file) => !file.test).sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1));
  const pick = (file) => {
    const text = readFileSync(path.join(repo, file.path), 'utf8').split('\n');
    // A block body whose last line is its closing brace, so the inserted statement lands inside it.
    const unit = handbook.graph.codeUnits().find((candidate) => candidate.file === file.path && (candidate.kind === 'function' || candidate.kind === 'method') &&
      candidate.endLine > candidate.startLine + 1 && /^\s*\};?$/.test(text[candidate.endLine - 1] ?? '') && /\)\s*(:[^=]*)?\{\s*$/.test(text[candidate.startLine - 1] ?? ''));
    return unit ? { file, unit } : undefined;
  };
  const medianFile = sources.slice(Math.floor(sources.length / 2)).map(pick).find(Boolean);
  const largestFile = [...sources].reverse().map(pick).find(Boolean);
  // The file with the most type aliases that name another type (`type X = Y<Z>`): each is a place that may join state slots.
  const aliasesIn = (file) => (readFileSync(path.join(repo, file.path), 'utf8').match(/^export type \w+(<[^=]*>)? = [A-Z][\w.]*</gm) ?? []).length;
  const aliasFile = { file: sources.map((file) => ({ file, count: aliasesIn(file) })).sort((a, b) => b.count - a.count || (a.file.path < b.file.path ? -1 : 1))[0].file, edit: 'import' };
  return { medianFile, largestFile, aliasFile };
})();

const results = [];
const live = await LiveHandbook.open(repo, { database });
await live.sync();
const edits = [['one function in the median-size file', medianFile], ['one function in the largest file', largestFile], ['an import in the file with the most type aliases', aliasFile]];
for (const [label, target] of edits) {
  const warm = [];
  const resolved = [];
  const { absolute, original, edited } = editorOf(target);
  for (let round = 0; round < runs; round += 1) {
    writeFileSync(absolute, edited(round));
    started = performance.now();
    const summary = await live.sync();
    warm.push(performance.now() - started);
    resolved.push(summary.resolvedFiles);
  }
  writeFileSync(absolute, original);
  await live.sync();
  results.push({ label, file: target.file.path, bytes: target.file.size, lines: target.file.lines, unit: target.unit?.symbol, warmMs: median(warm), resolvedFiles: median(resolved) });
}
live.close();

for (const [index, result] of results.entries()) {
  const target = edits[index][1];
  const cli = [];
  const { absolute, original, edited } = editorOf(target);
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

// The invariant on the real repository: the handbook synced through all of the above equals a cold build.
const coldDatabase = path.join(scratch, 'cold.db');
await buildHandbook(repo, { database: coldDatabase });
const content = (db) => {
  const opened = openHandbook(repo, { database: db, withSearchTerms: true });
  return JSON.stringify([opened.graph.toData(), opened.organized, opened.register, [...opened.searchTerms]]);
};
const invariant = content(database) === content(coldDatabase);
rmSync(scratch, { recursive: true, force: true });

console.log(`gemini-cli @5411f113: ${build.files} files, cold build ${(coldMs / 1000).toFixed(1)} s in this run`);
console.log('| edit | file | kept open (watch), median of ' + runs + ' | share of cold build | `handbook sync` process, median of ' + cliRuns + ' | files resolved again |');
console.log('|---|---|---|---|---|---|');
for (const result of results) {
  console.log(`| ${result.label} | ${result.file} (${result.lines} lines) | ${Math.round(result.warmMs)} ms | ${((result.warmMs / coldMs) * 100).toFixed(1)}% | ${(result.cliMs / 1000).toFixed(1)} s | ${result.resolvedFiles} |`);
}
console.log(`invariant after ${edits.length * (runs + cliRuns + 1)} syncs: the synced handbook ${invariant ? 'equals' : 'DIFFERS FROM'} a cold build`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ coldMs, files: build.files, results, invariant }, null, 2));
if (!invariant) process.exitCode = 1;
