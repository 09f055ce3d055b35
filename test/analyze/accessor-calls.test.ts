import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import type { Edge } from '../../src/graph/model.js';
import { scratchDirectory } from '../helpers/paths.js';

const COUNTER = `export class Counter {
  private _n = 0;
  get n(): number {
    return this._n;
  }
  set n(value: number) {
    this._n = value;
  }
  get handler(): () => void {
    return () => {};
  }
  set handler(value: () => void) {}
  get items(): number[] {
    return [];
  }
  set items(value: number[]) {}
  get onlyRead(): number {
    return 1;
  }
}

export function reads(counter: Counter): number {
  return counter.n;
}
export function writes(counter: Counter): void {
  counter.n = 1;
}
export function adds(counter: Counter): void {
  counter.n += 2;
}
export function increments(counter: Counter): void {
  counter.n++;
}
export function destructures(counter: Counter, pair: [number]): void {
  [counter.n] = pair;
}
export function callsThroughGetter(counter: Counter): void {
  counter.handler();
}
export function pushes(counter: Counter): void {
  counter.items.push(1);
}
export function readsOnlyGetter(counter: Counter): number {
  return counter.onlyRead;
}

export class Pair {
  a = 0;
  b = 0;
  swap(): void {
    [this.a, this.b] = [this.b, this.a];
  }
}
`;

let edges: Edge[];

beforeAll(() => {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/counter.ts'), COUNTER);
  edges = analyzeRepository(root).graph.edges;
});

/** What one function calls, reads and writes, as `kind symbol@line`. */
function usesOf(symbol: string): string[] {
  return edges
    .filter((edge) => edge.from === `src/counter.ts#${symbol}` && ['calls', 'reads', 'writes'].includes(edge.kind))
    .map((edge) => `${edge.kind} ${edge.to.slice('src/counter.ts#'.length)}@${edge.lines.join(',')}`)
    .sort();
}

describe('uses of a property with a getter and a setter', () => {
  // The getter is declared first, so it is `Counter.n`; the setter after it is `Counter.n~2`.
  it.each([
    ['reads', ['calls Counter.n@23']],
    ['writes', ['calls Counter.n~2@26']],
    ['adds', ['calls Counter.n@29', 'calls Counter.n~2@29']],
    ['increments', ['calls Counter.n@32', 'calls Counter.n~2@32']],
    ['destructures', ['calls Counter.n~2@35']],
    ['callsThroughGetter', ['calls Counter.handler@38']],
    ['pushes', ['calls Counter.items@41']],
    ['readsOnlyGetter', ['calls Counter.onlyRead@44']],
  ])('%s runs exactly the accessors it should', (caller, expected) => {
    expect(usesOf(caller)).toEqual(expected);
  });

  it('counts the targets of a destructuring assignment as written, its source as read', () => {
    expect(usesOf('Pair.swap')).toEqual(['reads Pair.a@51', 'reads Pair.b@51', 'writes Pair.a@51', 'writes Pair.b@51']);
  });
});
