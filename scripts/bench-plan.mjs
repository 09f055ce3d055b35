#!/usr/bin/env node
// Edit plans on the dev sets: runs ../shared/bench/score.mjs --plan for each set whose checkout is
// present (see scripts/bench-sets.mjs). score.mjs builds the handbook of the checkout once, then runs
// `plan "REQUEST" --repo DIR --json` for every "change" request and scores its `targets` (file and
// symbol precision/recall/F1) against the primary gold, beside its BM25 baseline plan. Prints each
// set's plan scores next to the baseline, and the command.
// Usage: npm run build && npm run bench:plan [-- --set gemini-cli] [-- --per-request] [-- --save DIR]
// Ends with the mean over the sets, BM25's, and the worst set per F1; --save keeps the reports for bench:compare --plan.
import { crossSetSummary, PLAN_METRICS, summaryTable } from './cross-set.mjs';
import { benchArguments, scoreSets } from './bench-sets.mjs';

const { only, save, has } = benchArguments();
const rows = scoreSets({ only, plan: true, save });
if (has('--per-request')) {
  for (const { report } of rows) {
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

if (rows.length > 0) for (const line of summaryTable(crossSetSummary(rows, PLAN_METRICS, true), rows.length)) console.log(line);

// The issue's targets for the offline planner on each dev set.
const TARGETS = { fileF1: 0.7, symF1: 0.45 };
console.log('\ntargets:');
for (const { name, report } of rows) {
  const checks = Object.entries(TARGETS).map(([key, target]) => `${key} ${report.plan[key].toFixed(2)} ${report.plan[key] >= target ? `>= ${target} met` : `< ${target} NOT met`}`);
  console.log(`- ${name}: ${checks.join('; ')}`);
}
console.log('\ncommands:');
for (const { name, command } of rows) console.log(`- ${name}: ${command}`);
