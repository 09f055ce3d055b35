import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editBetween, RecentTrees } from '../../../src/analyze/syntax/recent-trees.js';
import { copyTree } from '../../../src/analyze/syntax/syntax-tree.js';
import { type GrammarName, parserFor } from '../../../src/analyze/syntax/tree-sitter.js';

const fixture = (file: string): string => readFileSync(path.join(import.meta.dirname, '../../../fixtures', file), 'utf8');

/** The tree a full parse gives, as plain nodes. */
function fullTree(grammar: GrammarName, text: string) {
  const tree = parserFor(grammar).parse(text)!;
  try {
    return copyTree(tree);
  } finally {
    tree.delete();
  }
}

/** Lines inserted, deleted or replaced, some in the middle of a line, some with non-ASCII text. */
const edit = (lines: number) =>
  fc.record({
    at: fc.nat(lines),
    remove: fc.nat(3),
    insert: fc.array(fc.constantFrom('    x = 1', 'def f(a):', '        return a', '    # é ✓ 😀', '}', 'fn g() {}', ')', ''), { maxLength: 3 }),
  });

function applyEdit(text: string, change: { at: number; remove: number; insert: string[] }): string {
  const lines = text.split('\n');
  lines.splice(Math.min(change.at, lines.length), change.remove, ...change.insert);
  return lines.join('\n');
}

describe('incremental reparse', () => {
  it('finds the one span where two texts differ, counting UTF-16 units and rows', () => {
    expect(editBetween('ab\ncd\nef', 'ab\ncXd\nef')).toEqual({
      startIndex: 4, oldEndIndex: 4, newEndIndex: 5,
      startPosition: { row: 1, column: 1 }, oldEndPosition: { row: 1, column: 1 }, newEndPosition: { row: 1, column: 2 },
    });
    expect(editBetween('a😀b', 'ab')).toMatchObject({ startIndex: 1, oldEndIndex: 3, newEndIndex: 1 });
    expect(editBetween('same', 'same')).toMatchObject({ startIndex: 4, oldEndIndex: 4, newEndIndex: 4 });
  });

  for (const [grammar, file] of [['python', 'py-harness/src/pyharness/agent/loop.py'], ['go', 'go-harness/internal/agent/loop.go'], ['rust', 'rust-harness/crates/core/src/session.rs']] as const) {
    it(`gives the tree a full parse gives, over edit sequences (${grammar})`, () => {
      fc.assert(
        fc.property(fc.array(edit(80), { minLength: 1, maxLength: 6 }), (edits) => {
          const trees = new RecentTrees(2);
          let text = fixture(file);
          trees.parse(grammar, file, text);
          for (const change of edits) {
            text = applyEdit(text, change);
            expect(copyTree(trees.parse(grammar, file, text))).toEqual(fullTree(grammar, text));
          }
        }),
        { numRuns: 40, seed: 29 },
      );
    });
  }
});
