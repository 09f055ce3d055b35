#!/usr/bin/env node
// Behaviour localization on the dev sets: runs ../shared/bench/score.mjs for each set whose checkout
// is present ($BENCH_REPOS, default /tmp/repos; see ../shared/bench/README.md), and prints the table.
// Usage: npm run bench:ask [-- --set gemini-cli] [-- --plan]
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
const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-bench-ask-'));

const rows = [];
for (const name of ['gemini-cli', 'deepagentsjs']) {
  if (only && name !== only) continue;
  const repo = path.join(reposDirectory, name);
  if (!existsSync(repo)) {
    console.log(`- ${name}: skipped, no checkout at ${repo}`);
    continue;
  }
  const out = path.join(scratch, `${name}.json`);
  execFileSync(process.execPath, [path.join(bench, 'score.mjs'), '--set', path.join(bench, `${name}.json`), '--repo', repo, '--cmd', `${process.execPath} ${path.join(root, 'dist', 'cli', 'main.js')}`, '--json', out, ...(args.includes('--plan') ? ['--plan'] : [])], { stdio: 'inherit', cwd: root });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  rows.push({ name, report });
  if (args.includes('--per-request')) for (const row of report.per_request) console.log(`  ${row.id}  hit5 ${row.hit5} fileR10 ${row.fileR10.toFixed(2)} symR10 ${row.symR10.toFixed(2)} all10 ${row.all10}`);
}
console.log('\n| set | | hit@5 | fileR@10 | symR@10 | all@10 | build | ask median |');
console.log('|---|---|---|---|---|---|---|---|');
for (const { name, report } of rows) {
  const metric = (values) => ['hit5', 'fileR10', 'symR10', 'all10'].map((key) => values[key].toFixed(2)).join(' | ');
  console.log(`| ${name} | BM25 baseline | ${metric(report.baseline)} | | |`);
  console.log(`| ${name} | harness-handbook (offline) | ${metric(report.project)} | ${report.build_s.toFixed(1)} s | ${report.ask_ms_median} ms |`);
}
