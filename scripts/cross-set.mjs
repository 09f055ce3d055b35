// Cross-set figures for the request sets' reports (score.mjs --json): per metric, the mean over the
// sets beside BM25's and the worst set; and, for ranking changes measured as variants of one base,
// the keep rule (the mean rises and no set falls by more than 0.02 on any metric) and a
// leave-one-set-out figure (for each set, the variant chosen on the other sets, scored on it).
// Pure functions over reports, shared by bench-ask, bench-plan and bench-compare.

export const ASK_METRICS = ['hit5', 'fileR10', 'symR10', 'all10'];
export const PLAN_METRICS = ['fileF1', 'symF1'];
/** A set may fall this much on a metric under a kept change, and no more. */
export const MAX_FALL = 0.02;

/** A report's figures for one kind of run: ask metrics, or plan F1s. */
export function figures(report, plan) {
  return plan ? { project: report.plan, baseline: report.plan_baseline } : { project: report.project, baseline: report.baseline };
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Per metric: the mean over the sets (project and BM25), and the worst set, the one where the
 * project's margin over BM25 is lowest. `rows` are { name, report }.
 */
export function crossSetSummary(rows, metrics, plan) {
  return metrics.map((metric) => {
    const margins = rows.map(({ name, report }) => {
      const { project, baseline } = figures(report, plan);
      return { name, project: project[metric], baseline: baseline[metric], margin: project[metric] - baseline[metric] };
    });
    const worst = margins.reduce((low, row) => (row.margin < low.margin ? row : low));
    return {
      metric,
      mean: mean(margins.map((row) => row.project)),
      baselineMean: mean(margins.map((row) => row.baseline)),
      worst,
      setsUnderBaseline: margins.filter((row) => row.margin < 0).map((row) => row.name),
    };
  });
}

/** The markdown lines of a summary: a table with mean, BM25 mean and worst set per metric. */
export function summaryTable(summary, count) {
  const lines = [`\nover ${count} sets:`, '| metric | mean | BM25 mean | worst set (project − BM25) | sets under BM25 |', '|---|---|---|---|---|'];
  for (const row of summary) {
    lines.push(`| ${row.metric} | ${row.mean.toFixed(3)} | ${row.baselineMean.toFixed(3)} | ${row.worst.name} ${signed(row.worst.margin)} | ${row.setsUnderBaseline.join(', ') || 'none'} |`);
  }
  return lines;
}

const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;

/**
 * Each variant against the base: per metric, the mean change and the largest fall of any set, and
 * whether the keep rule holds. `base` and each variant are { name, reports: Map(set → report) };
 * only sets every run scored are compared.
 */
export function compareVariants(base, variants, metrics, plan) {
  const sets = [...base.reports.keys()].filter((set) => variants.every((variant) => variant.reports.has(set))).sort();
  const value = (run, set, metric) => figures(run.reports.get(set), plan).project[metric];
  const verdicts = variants.map((variant) => {
    const perMetric = metrics.map((metric) => {
      const deltas = sets.map((set) => ({ set, delta: value(variant, set, metric) - value(base, set, metric) }));
      const fall = deltas.reduce((low, row) => (row.delta < low.delta ? row : low));
      return { metric, meanDelta: mean(deltas.map((row) => row.delta)), fall };
    });
    const meanRises = mean(perMetric.map((row) => row.meanDelta)) > 0;
    // Reports carry three decimals: a fall of exactly 0.02 must not count as more through rounding error.
    const falls = perMetric.filter((row) => row.fall.delta < -MAX_FALL - 1e-9);
    return { name: variant.name, perMetric, meanRises, falls, kept: meanRises && falls.length === 0 };
  });
  return { sets, verdicts, leaveOneOut: leaveOneSetOut([base, ...variants], sets, metrics, plan) };
}

/**
 * For each set, the run (base or a variant) with the highest mean over the metrics on the other
 * sets, and its figures on the set left out: what choosing among the variants gains on a set the
 * choice never saw. Ties go to the earlier run (the base first).
 */
export function leaveOneSetOut(runs, sets, metrics, plan) {
  const score = (run, set) => mean(metrics.map((metric) => figures(run.reports.get(set), plan).project[metric]));
  const perSet = sets.map((left) => {
    const others = sets.filter((set) => set !== left);
    let chosen = runs[0];
    let best = -Infinity;
    for (const run of runs) {
      const onOthers = others.length === 0 ? 0 : mean(others.map((set) => score(run, set)));
      if (onOthers > best) {
        best = onOthers;
        chosen = run;
      }
    }
    return { set: left, chosen: chosen.name, figures: Object.fromEntries(metrics.map((metric) => [metric, figures(chosen.reports.get(left), plan).project[metric]])) };
  });
  return { perSet, mean: Object.fromEntries(metrics.map((metric) => [metric, mean(perSet.map((row) => row.figures[metric]))])) };
}
