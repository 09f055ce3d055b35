import { beforeAll, describe, expect, it } from 'vitest';

/** What the test reads of scripts/cross-set.mjs (plain JavaScript, as the bench scripts are). */
interface Run {
  name: string;
  reports: Map<string, Report>;
}
interface Report {
  project: Record<string, number>;
  baseline: Record<string, number>;
  plan?: Record<string, number>;
  plan_baseline?: Record<string, number>;
}
interface CrossSet {
  crossSetSummary(rows: Array<{ name: string; report: Report }>, metrics: string[], plan: boolean): Array<{ metric: string; mean: number; baselineMean: number; worst: { name: string; margin: number }; setsUnderBaseline: string[] }>;
  compareVariants(base: Run, variants: Run[], metrics: string[], plan: boolean): {
    sets: string[];
    verdicts: Array<{ name: string; kept: boolean; meanRises: boolean; falls: Array<{ metric: string; fall: { set: string; delta: number } }> }>;
    leaveOneOut: { perSet: Array<{ set: string; chosen: string; figures: Record<string, number> }>; mean: Record<string, number> };
  };
}

// A specifier TypeScript does not follow: the script is JavaScript without declarations, and vitest loads it as node does.
const modulePath = '../../scripts/cross-set.mjs';
let crossSet: CrossSet;
beforeAll(async () => {
  crossSet = (await import(/* @vite-ignore */ modulePath)) as CrossSet;
});

const report = (hit5: number, baseline = 0.5): Report => ({ project: { hit5 }, baseline: { hit5: baseline } });
const run = (name: string, values: Record<string, number>): Run => ({ name, reports: new Map(Object.entries(values).map(([set, value]) => [set, report(value)])) });

describe('cross-set figures of the bench scripts', () => {
  it('gives the mean beside BM25, the worst set by its margin over BM25, and the sets under BM25', () => {
    const [summary] = crossSet.crossSetSummary(
      [
        { name: 'a', report: report(0.9, 0.5) },
        { name: 'b', report: report(0.6, 0.7) },
        { name: 'c', report: report(0.3, 0.2) },
      ],
      ['hit5'],
      false,
    );
    expect(summary!.mean).toBeCloseTo(0.6);
    expect(summary!.baselineMean).toBeCloseTo(0.4667, 3);
    // c scores lowest, but b is the one under its baseline.
    expect(summary!.worst.name).toBe('b');
    expect(summary!.worst.margin).toBeCloseTo(-0.1);
    expect(summary!.setsUnderBaseline).toEqual(['b']);
  });

  it('keeps a change only when the mean rises and no set falls by more than 0.02', () => {
    const base = run('base', { a: 0.5, b: 0.5, c: 0.5 });
    const small = run('small-fall', { a: 0.6, b: 0.6, c: 0.48 });
    const large = run('large-fall', { a: 0.7, b: 0.7, c: 0.47 });
    const flat = run('no-gain', { a: 0.5, b: 0.5, c: 0.5 });
    const { verdicts } = crossSet.compareVariants(base, [small, large, flat], ['hit5'], false);
    expect(verdicts.map((verdict) => [verdict.name, verdict.kept])).toEqual([
      ['small-fall', true],
      ['large-fall', false],
      ['no-gain', false],
    ]);
    expect(verdicts[1]!.falls[0]!.fall).toEqual({ set: 'c', delta: expect.closeTo(-0.03, 5) as number });
    expect(verdicts[2]!.meanRises).toBe(false);
  });

  it('scores each set with the run chosen on the other sets, so a gain that does not carry over shows', () => {
    // The variant wins big on a and b and loses on c: chosen whenever a or b is among the others.
    const base = run('base', { a: 0.5, b: 0.5, c: 0.5 });
    const variant = run('variant', { a: 0.9, b: 0.9, c: 0.2 });
    const { leaveOneOut } = crossSet.compareVariants(base, [variant], ['hit5'], false);
    expect(leaveOneOut.perSet.map((row) => [row.set, row.chosen, row.figures.hit5])).toEqual([
      ['a', 'variant', 0.9],
      ['b', 'variant', 0.9],
      ['c', 'variant', 0.2],
    ]);
    expect(leaveOneOut.mean.hit5).toBeCloseTo(2 / 3);
    // A variant better only on the set left out is never chosen for it.
    const narrow = run('narrow', { a: 0.45, b: 0.45, c: 0.95 });
    const narrowOut = crossSet.compareVariants(base, [narrow], ['hit5'], false).leaveOneOut;
    expect(narrowOut.perSet.find((row) => row.set === 'c')!.chosen).toBe('base');
  });

  it('compares only the sets every run scored, and reads plan F1s with --plan', () => {
    const base: Run = { name: 'base', reports: new Map([['a', { ...report(0.5), plan: { fileF1: 0.3 }, plan_baseline: { fileF1: 0.2 } }], ['b', { ...report(0.5), plan: { fileF1: 0.3 }, plan_baseline: { fileF1: 0.2 } }]]) };
    const variant: Run = { name: 'variant', reports: new Map([['a', { ...report(0.5), plan: { fileF1: 0.4 }, plan_baseline: { fileF1: 0.2 } }]]) };
    const compared = crossSet.compareVariants(base, [variant], ['fileF1'], true);
    expect(compared.sets).toEqual(['a']);
    expect(compared.verdicts[0]!.kept).toBe(true);
  });
});
