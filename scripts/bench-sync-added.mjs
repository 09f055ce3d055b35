#!/usr/bin/env node
// `handbook sync` after many files were added at once (a branch switch, a generated folder, a
// vendored package), on the mini-harness fixture: the cost of finding which unchanged files the
// new names reach must grow with the number of files added, not with its square.
// Usage: npm run bench:sync-added [-- --counts 1000,3000 --runs 3 --cpu-prof <folder>]
// Needs `npm run build` first: it times the built CLI, as a user runs it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const counts = option('counts', '1000,3000').split(',').map(Number);
const runs = Number(option('runs', '3'));
const cpuProf = option('cpu-prof');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Small modules with names of their own, each importing two earlier ones, as generated or vendored code does. */
function addModules(repo, count) {
  const folder = path.join(repo, 'src', 'generated');
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < count; i += 1) {
    const imports = i === 0 ? [] : [...new Set([i - 1, Math.floor(i / 2)])];
    const lines = imports.map((j) => `import { make${j}, type Shape${j} } from './module${j}.js';`);
    lines.push(`export interface Shape${i} { id: number; label: string }`);
    lines.push(`export function make${i}(id: number): Shape${i} {`);
    lines.push(`  return { id, label: ${imports.length ? imports.map((j) => `make${j}(id).label`).join(' + ') : `'m${i}'`} };`);
    lines.push('}');
    for (const j of imports) lines.push(`export const from${i}_${j}: Shape${j} = make${j}(${i});`);
    writeFileSync(path.join(folder, `module${i}.ts`), `${lines.join('\n')}\n`);
  }
}

// Each run on a fresh copy: a sync after the first finds nothing added.
function syncAfterAdding(count, profile) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-added-'));
  const repo = path.join(scratch, 'mini-harness');
  const database = path.join(scratch, 'handbook.db');
  try {
    cpSync(path.join(root, 'fixtures', 'mini-harness'), repo, { recursive: true });
    execFileSync(process.execPath, [cli, 'build', repo, '--db', database, '--no-progress'], { stdio: 'ignore' });
    addModules(repo, count);
    const started = performance.now();
    const summary = JSON.parse(execFileSync(process.execPath, [...profile, cli, 'sync', repo, '--db', database, '--json', '--no-progress'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    if (summary.added.length !== count) throw new Error(`the sync found ${summary.added.length} files added, not ${count}`);
    return performance.now() - started;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const results = [];
for (const count of counts) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const profile = cpuProf && run === 0 ? ['--cpu-prof', '--cpu-prof-dir', cpuProf, '--cpu-prof-name', `sync-added-${count}.cpuprofile`] : [];
    times.push(syncAfterAdding(count, profile));
  }
  const ms = median(times);
  results.push({ count, ms });
  console.log(`${count} files added: handbook sync ${(ms / 1000).toFixed(1)} s (median of ${runs}: ${times.map((time) => (time / 1000).toFixed(1)).join(', ')})`);
}
if (results.length > 1) {
  const [first, last] = [results[0], results[results.length - 1]];
  const ratio = last.ms / first.ms;
  console.log(`${last.count / first.count}x the files took ${ratio.toFixed(1)}x the time (linear: ${last.count / first.count}x, quadratic: ${(last.count / first.count) ** 2}x)`);
}
