#!/usr/bin/env node
// Behaviour localization on the dev sets: runs ../shared/bench/score.mjs for each set whose checkout
// is present (see scripts/bench-sets.mjs), and prints the table.
// Usage: npm run bench:ask [-- --set gemini-cli] [-- --plan] [-- --per-request] [-- --save DIR]
// Ends with the mean over the sets, BM25's, and the worst set per metric; --save keeps the reports for bench:compare.
import { ASK_METRICS, crossSetSummary, PLAN_METRICS, summaryTable } from './cross-set.mjs';
import { benchArguments, scoreSets } from './bench-sets.mjs';

const { only, save, has } = benchArguments();
const rows = scoreSets({ only, plan: has('--plan'), save });
if (has('--per-request')) {
  for (const { report } of rows) for (const row of report.per_request) console.log(`  ${row.id}  hit5 ${row.hit5} fileR10 ${row.fileR10.toFixed(2)} symR10 ${row.symR10.toFixed(2)} all10 ${row.all10}`);
}
console.log('\n| set | | hit@5 | fileR@10 | symR@10 | all@10 | build | ask median | ask / build |');
console.log('|---|---|---|---|---|---|---|---|---|');
const METRICS = ['hit5', 'fileR10', 'symR10', 'all10'];
const metric = (values) => METRICS.map((key) => values[key].toFixed(2)).join(' | ');
const share = (report) => report.ask_ms_median / (report.build_s * 1000);
for (const { name, report } of rows) {
  console.log(`| ${name} | BM25 baseline | ${metric(report.baseline)} | | | |`);
  console.log(`| ${name} | harness-handbook (offline) | ${metric(report.project)} | ${report.build_s.toFixed(1)} s | ${report.ask_ms_median} ms | ${(share(report) * 100).toFixed(1)}% |`);
}

if (rows.length > 0) for (const line of summaryTable(crossSetSummary(rows, ASK_METRICS, false), rows.length)) console.log(line);
if (rows.length > 0 && has('--plan')) for (const line of summaryTable(crossSetSummary(rows, PLAN_METRICS, true), rows.length)) console.log(line);

// The targets: each quality metric on each set, no metric under the baseline, and the answer within 5% of a cold build on gemini-cli.
const TARGETS = { hit5: 0.9, fileR10: 0.75, symR10: 0.45, all10: 0.55 };
console.log('\ntargets:');
for (const { name, report } of rows) {
  const checks = METRICS.map((key) => {
    const value = report.project[key];
    const met = value >= TARGETS[key] && value >= report.baseline[key];
    return `${key} ${value.toFixed(2)} ${met ? '>=' : '<'} ${TARGETS[key]}${value < report.baseline[key] ? ' (under the baseline)' : ''} ${met ? 'met' : 'NOT met'}`;
  });
  if (name === 'gemini-cli') checks.push(`ask/build ${(share(report) * 100).toFixed(1)}% ${share(report) <= 0.05 ? '<= 5% met' : '> 5% NOT met'}`);
  console.log(`- ${name}: ${checks.join('; ')}`);
}
