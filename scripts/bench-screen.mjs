#!/usr/bin/env node
// Screens a ranking change on every set whose checkout is present, in this process: the figures
// of bench:ask (and with --plan, bench:plan) in seconds, from the handbook each checkout already
// holds (built by bench:ask, or `handbook build`). BM25 comes from a folder bench:ask saved
// (--baseline DIR), since it does not depend on the ranking. --save DIR writes reports that
// bench:compare reads, so a variant is judged by the keep rule and leave-one-set-out in one loop:
//   npm run bench:screen -- --baseline BASE --save A   (with the change built)
//   npm run bench:compare -- BASE A
// A variant worth keeping is then measured with bench:ask, whose figures are the ones published.
// Usage: npm run bench:screen [-- --set NAME] [-- --plan] [-- --save DIR] [-- --baseline DIR]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchArguments, presentSets, root } from './bench-sets.mjs';
import { ASK_METRICS, crossSetSummary, PLAN_METRICS, summaryTable } from './cross-set.mjs';
import { loadRanking, screenReport, screenRequests } from './screen-set.mjs';

const { only, save, has } = benchArguments();
const args = process.argv.slice(2);
const baselineDirectory = args.includes('--baseline') ? path.resolve(args[args.indexOf('--baseline') + 1] ?? '') : undefined;
const plan = has('--plan');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'index.js'))) {
  console.error('no dist/index.js: run `npm run build` first');
  process.exit(2);
}
if (baselineDirectory && !existsSync(baselineDirectory)) {
  console.error(`no such folder: ${baselineDirectory} (save one with \`npm run bench:ask -- --plan --save DIR\`)`);
  process.exit(2);
}
if (save) mkdirSync(save, { recursive: true });

const ranking = await loadRanking(dist);
const rows = [];
const started = performance.now();
for (const { name, repo, file } of presentSets(only)) {
  const set = JSON.parse(readFileSync(file, 'utf8'));
  let screened;
  try {
    screened = screenRequests(ranking, repo, set.requests, { plan });
  } catch (error) {
    // A checkout never built, or built by another analysis version: say what to run, not a stack.
    console.error(`${name}: ${error.message}${error.hint ? ` (${error.hint})` : ''}; build it with \`node dist/cli/main.js build ${repo}\` or \`npm run bench:ask -- --set ${name}\``);
    process.exitCode = 1;
    continue;
  }
  const report = screenReport(set, screened, { plan });
  const savedBase = baselineDirectory && path.join(baselineDirectory, `${name}.json`);
  if (savedBase && existsSync(savedBase)) {
    const base = JSON.parse(readFileSync(savedBase, 'utf8'));
    report.baseline = base.baseline;
    if (plan && base.plan_baseline) report.plan_baseline = base.plan_baseline;
  }
  if (save) writeFileSync(path.join(save, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  rows.push({ name, report });
  const figures = (values, keys) => keys.map((key) => values[key].toFixed(2)).join(' / ');
  console.log(`${name}: ${figures(report.project, ASK_METRICS)}${plan ? `, plans ${figures(report.plan, PLAN_METRICS)}` : ''}${report.baseline ? ` (BM25 ${figures(report.baseline, ASK_METRICS)})` : ''}`);
}
console.log(`screened ${rows.length} set${rows.length === 1 ? '' : 's'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (rows.length > 0 && rows.every(({ report }) => report.baseline)) {
  for (const line of summaryTable(crossSetSummary(rows, ASK_METRICS, false), rows.length)) console.log(line);
  if (plan && rows.every(({ report }) => report.plan_baseline)) for (const line of summaryTable(crossSetSummary(rows, PLAN_METRICS, true), rows.length)) console.log(line);
}
