import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editBetween, RecentTrees } from '../../../src/analyze/syntax/recent-trees.js';
import { copyTree, type TreeNode } from '../../../src/analyze/syntax/syntax-tree.js';
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

  for (const [grammar, file] of [['python', 'py-harness/src/pyharness/agent/loop.py'], ['go', 'go-harness/internal/agent/loop.go'], ['rust', 'rust-harness/crates/core/src/session.rs']] as const) {
    it(`copies the tree a full parse gives, lending unchanged subtrees from the last copy (${grammar})`, () => {
      fc.assert(
        fc.property(fc.array(edit(80), { minLength: 1, maxLength: 6 }), (edits) => {
          const trees = new RecentTrees(2);
          let text = fixture(file);
          trees.read(grammar, file, text);
          for (const change of edits) {
            text = applyEdit(text, change);
            expect(trees.read(grammar, file, text).root).toEqual(fullTree(grammar, text));
          }
        }),
        { numRuns: 40, seed: 31 },
      );
    });
  }

  it('lends the declarations before an edit as they were, and those after it moved', () => {
    const file = 'go-harness/internal/agent/loop.go';
    const trees = new RecentTrees(2);
    const text = fixture(file);
    const first = trees.read('go', file, text).root;
    // A statement added to the body of the last function but one: every declaration before it is lent whole.
    const bodies = first.children.filter((child) => child.type === 'function_declaration' || child.type === 'method_declaration');
    const edited = bodies[bodies.length - 2]!;
    const at = text.indexOf('{', edited.start) + 1;
    const next = text.slice(0, at) + '\n\t_ = 1' + text.slice(at);
    const second = trees.read('go', file, next).root;
    expect(second).toEqual(fullTree('go', next));
    const position = first.children.indexOf(edited);
    expect(second.children.slice(0, position)).toEqual(first.children.slice(0, position));
    second.children.slice(0, position).forEach((child, index) => expect(child).toBe(first.children[index]));
    expect(second.children[position]).not.toBe(edited);
    const last = second.children[second.children.length - 1]!;
    expect(last.start).toBe(first.children[first.children.length - 1]!.start + '\n\t_ = 1'.length);
  });

  it('copies again a declaration whose syntax changed though its length did not', () => {
    const file = 'go-harness/internal/agent/loop.go';
    const trees = new RecentTrees(2);
    const text = fixture(file);
    const body = text.indexOf('{', text.indexOf('\nfunc ')) + 1;
    const withNumber = text.slice(0, body) + '\n\t_ = 1' + text.slice(body);
    const withName = text.slice(0, body) + '\n\t_ = a' + text.slice(body);
    trees.read('go', file, withNumber);
    expect(trees.read('go', file, withName).root).toEqual(fullTree('go', withName));
  });

  it('lends the methods beside an edited one inside its class', () => {
    const file = 'py-harness/src/pyharness/agent/loop.py';
    const trees = new RecentTrees(2);
    const text = fixture(file);
    const first = trees.read('python', file, text).root;
    const at = text.indexOf('\n', text.indexOf('    def compact(')) + 1;
    const next = `${text.slice(0, at)}        keep = keep\n${text.slice(at)}`;
    const second = trees.read('python', file, next).root;
    expect(second).toEqual(fullTree('python', next));
    const methods = (root: TreeNode) => root.children.find((child) => child.type === 'class_definition' && text.slice(child.start, child.start + 11) === 'class Agent')!
      .children.find((child) => child.field === 'body')!.children.filter((child) => child.type === 'function_definition');
    const [before, after] = [methods(first), methods(second)];
    expect(after[0]).toBe(before[0]);
    expect(after[after.length - 1]).not.toBe(before[before.length - 1]);
    expect(after[after.length - 1]).toEqual({ ...before[before.length - 1], start: expect.any(Number), end: expect.any(Number), children: expect.any(Array) });
  });
});

