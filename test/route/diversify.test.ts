import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/graph/model.js';
import { diversify, type RoutedLocation } from '../../src/route/route-request.js';

function located(file: string, symbol: string, score: number): RoutedLocation {
  const unit: Unit = { id: `${file}#${symbol}`, kind: 'method', file, symbol, startLine: 1, endLine: 2, signature: '', doc: '', exported: false, hash: '0', literals: '', words: '' };
  return { unit, stage: undefined, score, why: 'test' };
}

describe('spreading an answer over files', () => {
  it('ranks the best three of a file at full score and each further one lower, but a strong further one above weak matches elsewhere', () => {
    const ranked = [
      located('a.ts', 'A.one', 1),
      located('a.ts', 'A.two', 0.99),
      located('a.ts', 'A.three', 0.98),
      located('a.ts', 'A.four', 0.97),
      located('a.ts', 'A.five', 0.96),
      located('b.ts', 'b', 0.8),
      located('c.ts', 'c', 0.3),
    ];
    const order = diversify(ranked).map((location) => location.unit.symbol);
    expect(order).toEqual(['A.one', 'A.two', 'A.three', 'b', 'A.four', 'A.five', 'c']);
    const scores = new Map(diversify([located('a.ts', 'x', 1), located('a.ts', 'y', 1), located('a.ts', 'z', 1), located('a.ts', 'w', 1), located('a.ts', 'v', 1)]).map((location) => [location.unit.symbol, location.score]));
    expect(scores.get('w')).toBeCloseTo(0.7);
    expect(scores.get('v')).toBeCloseTo(0.49);
  });
});
