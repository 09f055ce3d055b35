#!/usr/bin/env node
// Sync after a one-function edit on a Python, a Go and a Rust harness (aider at bench/aider.json's
// commit, crush, forge at bench/forge.json's commit), next to a cold build of the same tree: in the
// median-size file and in the largest file, kept open (watch) and as `handbook sync` (a new process
// that reads the store back). Ends each target by checking the synced handbook equals a cold build.
// The goal: a one-file watch sync within 100 ms.
// A watch process starts cold in ways no later edit sees (the file's first parse in the session, its
// first in-place write, code paths the runtime has not compiled yet), so the first edit of each file is
// shown apart, and the median is taken over `--runs` edits after `--warm` unmeasured ones (default 3;
// `--warm 0` counts the first edit in the median, as the script did before commit a8eac7b).
// Usage: npm run bench:sync-languages [-- --runs 20 --warm 3 --cli-runs 5 --only crush --json out.json]   (part of `npm run bench`)
// Checkouts are read from $BENCH_REPOS (default /tmp/repos; see ../shared/bench/README.md) and copied.
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
const warmRuns = Number(option('warm', '3'));
const only = option('only');
const jsonOut = option('json');
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';

/**
 * Each target's language: its source files, and the statement an edit adds to a function, another
 * value each round. Python appends it at the indentation of the function's last line; Go and Rust
 * put it first in the body (after a line that opens it), where any statement may stand.
 */
const targets = [
  { name: 'aider @5dc9490b', checkout: 'aider', extension: '.py', where: 'end', statement: (round) => `_bench = ${round}` },
  { name: 'crush @37f36e93', checkout: 'crush', extension: '.go', where: 'start', statement: (round) => `_ = ${round}` },
  { name: 'forge @54cecac1', checkout: 'forge', extension: '.rs', where: 'start', statement: (round) => `let _bench = ${round};` },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** A function's first and last lines (`unit`), and where the edit goes in it, or undefined when no statement fits there safely. */
function placeOf(target, lines, unit) {
  if (target.where === 'end') {
    const last = lines[unit.endLine - 1] ?? '';
    // A last line that is a plain statement of the body (not a closing bracket of a call spread over lines).
    if (!/^\s+(return\b|[\w.]+\(.*\)\s*$|[\w.]+ = .*\S\s*$)/.test(last)) return undefined;
    return { after: unit.endLine, indent: /^\s*/.exec(last)[0] };
  }
  // The body opens on the signature's line and its next line is a statement of it, indented further.
  const opening = lines[unit.startLine - 1] ?? '';
  const next = lines[unit.startLine] ?? '';
  if (!/\{\s*$/.test(opening) || unit.endLine < unit.startLine + 2) return undefined;
  const indent = /^\s*/.exec(next)[0];
  if (indent.length <= /^\s*/.exec(opening)[0].length || /^\s*[})\]]/.test(next)) return undefined;
  return { after: unit.startLine, indent };
}

async function measure(target) {
  const source = path.join(reposDirectory, target.checkout);
  if (!existsSync(source)) return { name: target.name, skipped: `no checkout at ${source}` };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-sync-languages-'));
  const repo = path.join(scratch, target.checkout);
  cpSync(source, repo, { recursive: true, filter: (file) => !file.split(path.sep).includes('.handbook') });
  const database = path.join(scratch, 'handbook.db');

  let started = performance.now();
  const build = await buildHandbook(repo, { database });
  const coldMs = performance.now() - started;

  /** The statement added to the function (another value each round): the edit a developer makes most. */
  const editor = (file, place) => {
    const absolute = path.join(repo, file);
    const original = readFileSync(absolute, 'utf8');
    const lines = original.split('\n');
    const before = lines.slice(0, place.after).join('\n');
    const after = lines.slice(place.after).join('\n');
    return { absolute, original, edited: (round) => `${before}\n${place.indent}${target.statement(round)}\n${after}` };
  };

  const { medianFile, largestFile } = (() => {
    const handbook = openHandbook(repo, { database });
    const sources = handbook.graph.toData().files.filter((file) => !file.test && file.path.endsWith(target.extension)).sort((a, b) => a.size - b.size || (a.path < b.path ? -1 : 1));
    const pick = (file) => {
      const lines = readFileSync(path.join(repo, file.path), 'utf8').split('\n');
      for (const unit of handbook.graph.codeUnits()) {
        if (unit.file !== file.path || (unit.kind !== 'function' && unit.kind !== 'method')) continue;
        const place = placeOf(target, lines, unit);
        if (place) return { file, unit, place };
      }
      return undefined;
    };
    return { medianFile: sources.slice(Math.floor(sources.length / 2)).map(pick).find(Boolean), largestFile: [...sources].reverse().map(pick).find(Boolean) };
  })();

  const edits = [['one function in the median-size file', medianFile], ['one function in the largest file', largestFile]];
  const results = [];
  const live = await LiveHandbook.open(repo, { database });
  await live.sync();
  for (const [label, edit] of edits) {
    const warm = [];
    const resolved = [];
    let firstMs;
    const { absolute, original, edited } = editor(edit.file.path, edit.place);
    for (let round = 0; round < warmRuns + runs; round += 1) {
      writeFileSync(absolute, edited(round));
      started = performance.now();
      const summary = await live.sync();
      const elapsed = performance.now() - started;
      if (round === 0) firstMs = elapsed;
      if (round < warmRuns) continue;
      warm.push(elapsed);
      resolved.push(summary.resolvedFiles);
    }
    writeFileSync(absolute, original);
    await live.sync();
    results.push({ label, file: edit.file.path, lines: edit.file.lines, unit: edit.unit.symbol, firstMs, warmMs: median(warm), resolvedFiles: median(resolved) });
  }
  live.close();

  for (const [index, result] of results.entries()) {
    const edit = edits[index][1];
    const cli = [];
    const { absolute, original, edited } = editor(edit.file.path, edit.place);
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
  return { name: target.name, files: build.files, coldMs, results, syncs: edits.length * (warmRuns + runs + cliRuns + 2), invariant };
}

const measured = [];
for (const target of targets) {
  if (only && !target.name.includes(only)) continue;
  const outcome = await measure(target);
  measured.push(outcome);
  if (outcome.skipped) {
    console.log(`- ${outcome.name}: skipped, ${outcome.skipped}`);
    continue;
  }
  console.log(`\n${outcome.name}: ${outcome.files} files, cold build ${(outcome.coldMs / 1000).toFixed(1)} s in this run`);
  const after = warmRuns > 0 ? `, after ${warmRuns} unmeasured` : ', the first included';
  console.log(`| edit | file | kept open (watch), first edit | kept open, median of ${runs}${after} | within 100 ms | \`handbook sync\` process, median of ${cliRuns} | files resolved again |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const result of outcome.results) {
    console.log(`| ${result.label} | ${result.file} (${result.lines} lines) | ${Math.round(result.firstMs)} ms | ${Math.round(result.warmMs)} ms | ${result.warmMs <= 100 ? 'met' : 'NOT met'} | ${(result.cliMs / 1000).toFixed(1)} s | ${result.resolvedFiles} |`);
  }
  console.log(`invariant after ${outcome.syncs} syncs: the synced handbook ${outcome.invariant ? 'equals' : 'DIFFERS FROM'} a cold build`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(measured, null, 2));
if (measured.some((outcome) => outcome.invariant === false)) process.exitCode = 1;
