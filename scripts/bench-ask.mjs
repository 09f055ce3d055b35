#!/usr/bin/env node
// Behaviour localization on the dev sets: runs ../shared/bench/score.mjs for each set whose checkout
// is present (see scripts/bench-sets.mjs), and prints the table.
// Usage: npm run bench:ask [-- --set gemini-cli] [-- --plan] [-- --per-request]
import { benchArguments, scoreSets } from './bench-sets.mjs';

const { only, has } = benchArguments();
const rows = scoreSets({ only, plan: has('--plan') });
if (has('--per-request')) {
  for (const { report } of rows) for (const row of report.per_request) console.log(`  ${row.id}  hit5 ${row.hit5} fileR10 ${row.fileR10.toFixed(2)} symR10 ${row.symR10.toFixed(2)} all10 ${row.all10}`);
}
console.log('\n| set | | hit@5 | fileR@10 | symR@10 | all@10 | build | ask median |');
console.log('|---|---|---|---|---|---|---|---|');
const metric = (values) => ['hit5', 'fileR10', 'symR10', 'all10'].map((key) => values[key].toFixed(2)).join(' | ');
for (const { name, report } of rows) {
  console.log(`| ${name} | BM25 baseline | ${metric(report.baseline)} | | |`);
  console.log(`| ${name} | harness-handbook (offline) | ${metric(report.project)} | ${report.build_s.toFixed(1)} s | ${report.ask_ms_median} ms |`);
}
