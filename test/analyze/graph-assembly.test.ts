import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeFew, withoutFew } from '../../src/analyze/graph-assembly.js';

/**
 * A sync takes a file's rows out of the language's sorted lists and merges its new rows in
 * (GraphAssembly), with searches that gallop from the last place found. Whatever the rows, the
 * result must be what filtering by identity and sorting everything again give. Rows are compared
 * by a key with many ties, so runs of equal rows (told apart by identity) are the common case.
 */

interface Row {
  key: number;
  serial: number;
}

const compare = (a: Row, b: Row): number => a.key - b.key;

/** Rows in sorted order, each a distinct object, keys drawn from a small range so they tie. */
const rows = (length: number): fc.Arbitrary<Row[]> =>
  fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: length }).map((keys) => keys.sort((a, b) => a - b).map((key, serial) => ({ key, serial })));

describe('withoutFew', () => {
  it('takes out exactly the given rows, in any order, keeping the rest in order', () => {
    const manyAndPicks = rows(80).chain((many) => fc.tuple(fc.constant(many), fc.shuffledSubarray(many.map((_, index) => index))));
    fc.assert(
      fc.property(manyAndPicks, fc.boolean(), ([many, picks], shuffled) => {
        const chosen = picks.map((pick) => many[pick]!);
        if (!shuffled) chosen.sort((a, b) => compare(a, b) || a.serial - b.serial);
        const gone = new Set(chosen);
        expect(withoutFew(many, chosen, compare)).toEqual(many.filter((row) => !gone.has(row)));
      }),
      { numRuns: 1000 },
    );
  });

  it('takes out rows of equal order listed against the order of the list, the first of them where a search starts', () => {
    const [a1, a2, b] = [{ key: 1, serial: 0 }, { key: 1, serial: 1 }, { key: 2, serial: 2 }];
    expect(withoutFew([a1, a2, b], [a2, a1], compare)).toEqual([b]);
    expect(withoutFew([a1, a2, b], [a2], compare)).toEqual([a1, b]);
    expect(withoutFew([a1, a2, b], [a1, b], compare)).toEqual([a2]);
  });
});

describe('mergeFew', () => {
  it('merges sorted rows into sorted rows as a stable sort of both would, new rows after their equals', () => {
    fc.assert(
      fc.property(rows(80), rows(30), (many, few) => {
        const fresh = few.map((row) => ({ key: row.key, serial: 1000 + row.serial }));
        const expected = [...many, ...fresh].sort(compare);
        expect(mergeFew(many, fresh, compare)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('merges a block of rows that land in one place of a long list', () => {
    const many = Array.from({ length: 5000 }, (_, serial) => ({ key: serial % 2 === 0 ? serial : serial - 1, serial }));
    const fresh = Array.from({ length: 300 }, (_, serial) => ({ key: 2400 + Math.floor(serial / 3), serial: 10_000 + serial }));
    expect(mergeFew(many, fresh, compare)).toEqual([...many, ...fresh].sort(compare));
  });
});
