#!/usr/bin/env node
// Judges ranking changes across every set, as the ranking issue asks: reports saved by
// `npm run bench:ask -- --plan --save DIR` for a base and for one or more variants, compared set by
// set. Per variant and metric: the mean change and the set that fell most; the keep rule (the mean
// rises and no set falls by more than 0.02 on any metric); and the leave-one-set-out figure: for
// each set, the run (base or a variant) with the best mean on the other sets, scored on that set.
// Usage: npm run bench:compare -- BASE_DIR VARIANT_DIR [VARIANT_DIR ...] [--plan]
//        npm run bench:compare -- DIR [--plan]   (one folder: its mean, BM25 mean and worst set per metric)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ASK_METRICS, compareVariants, crossSetSummary, MAX_FALL, PLAN_METRICS, summaryTable } from './cross-set.mjs';

const args = process.argv.slice(2);
const plan = args.includes('--plan');
const directories = args.filter((arg) => !arg.startsWith('--'));
if (directories.length < 1) {
  console.error('usage: npm run bench:compare -- BASE_DIR [VARIANT_DIR ...] [--plan]  (each saved by bench:ask --save DIR; one folder alone prints its cross-set summary)');
  process.exit(2);
}
const runs = directories.map((directory) => {
  if (!existsSync(directory)) {
    console.error(`no such folder: ${directory} (save one with \`npm run bench:ask -- --plan --save ${directory}\`)`);
    process.exit(2);
  }
  const reports = new Map(readdirSync(directory).filter((name) => name.endsWith('.json')).sort().map((name) => [name.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(directory, name), 'utf8'))]));
  if (plan) for (const [set, report] of reports) if (!report.plan) reports.delete(set);
  return { name: path.basename(path.resolve(directory)), reports };
});
const metrics = plan ? PLAN_METRICS : ASK_METRICS;
const [base, ...variants] = runs;
if (variants.length === 0) {
  // One folder: its sets beside BM25, as bench-ask ends, for runs made in parts.
  const rows = [...base.reports].map(([name, report]) => ({ name, report }));
  for (const line of summaryTable(crossSetSummary(rows, metrics, plan), rows.length)) console.log(line);
  process.exit(0);
}
const { sets, verdicts, leaveOneOut } = compareVariants(base, variants, metrics, plan);
if (sets.length === 0) {
  console.error('no set was scored by every run');
  process.exit(2);
}
const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;
console.log(`${sets.length} sets scored by every run: ${sets.join(', ')}; base ${base.name}\n`);
console.log(`| variant | ${metrics.map((metric) => `${metric}: mean change · set that fell most`).join(' | ')} | kept |`);
console.log(`|---|${metrics.map(() => '---').join('|')}|---|`);
for (const verdict of verdicts) {
  const cells = verdict.perMetric.map((row) => `${signed(row.meanDelta)} · ${row.fall.set} ${signed(row.fall.delta)}`);
  const why = verdict.kept ? 'yes' : `no (${[!verdict.meanRises ? 'mean does not rise' : '', ...verdict.falls.map((row) => `${row.fall.set} falls ${Math.abs(row.fall.delta).toFixed(3)} > ${MAX_FALL} on ${row.metric}`)].filter(Boolean).join('; ')})`;
  console.log(`| ${verdict.name} | ${cells.join(' | ')} | ${why} |`);
}
console.log('\nleave one set out (the run with the best mean on the other sets, scored on the set left out):');
console.log(`| set | chosen | ${metrics.join(' | ')} |`);
console.log(`|---|---|${metrics.map(() => '---').join('|')}|`);
for (const row of leaveOneOut.perSet) console.log(`| ${row.set} | ${row.chosen} | ${metrics.map((metric) => row.figures[metric].toFixed(3)).join(' | ')} |`);
const baseMean = (metric) => sets.reduce((sum, set) => sum + (plan ? base.reports.get(set).plan : base.reports.get(set).project)[metric], 0) / sets.length;
console.log(`| mean | | ${metrics.map((metric) => `${leaveOneOut.mean[metric].toFixed(3)} (base ${baseMean(metric).toFixed(3)})`).join(' | ')} |`);
