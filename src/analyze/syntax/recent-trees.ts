import type { Edit, Point } from 'web-tree-sitter';
import { copyTreeReusing, type EarlierCopy, type TreeNode } from './syntax-tree.js';
import { type GrammarName, parserFor, type SyntaxTree } from './tree-sitter.js';

/**
 * The parse trees of the files a warm session parsed last, so that the next edit to one of them is
 * parsed incrementally: tree-sitter reuses every subtree the edit left alone and gives the tree a
 * full parse would. A watch session edits the same few files over and over; reparsing the largest
 * file of a harness whole is a fifth of its sync. Trees live in WebAssembly memory, which no garbage
 * collector frees, so the keeper holds a few and deletes each one it lets go.
 */
export class RecentTrees {
  /** By path, least recently parsed first (a Map keeps insertion order), with the tree's copy once made. */
  private readonly held = new Map<string, { grammar: GrammarName; text: string; tree: SyntaxTree; copy?: TreeNode }>();

  constructor(private readonly capacity = 8) {}

  /**
   * The tree of `text`, parsed against the one held for `path` when there is one. The keeper owns
   * the tree it returns: the caller reads it and must not delete it.
   */
  parse(grammar: GrammarName, path: string, text: string): SyntaxTree {
    return this.parseAgainst(grammar, path, text).tree;
  }

  /**
   * The tree of `text` and its copy as plain nodes, the copy taking from the last one of the same
   * file every top-level subtree the edit left alone (see copyTreeReusing), and each lent node
   * that is a shifted copy with the earlier node it copies.
   */
  read(grammar: GrammarName, path: string, text: string): { tree: SyntaxTree; root: TreeNode; movedFrom: ReadonlyMap<TreeNode, TreeNode> } {
    const { tree, earlier } = this.parseAgainst(grammar, path, text);
    const movedFrom = new Map<TreeNode, TreeNode>();
    const root = copyTreeReusing(tree, earlier, movedFrom);
    const entry = this.held.get(path);
    if (entry) entry.copy = root;
    return { tree, root, movedFrom };
  }

  private parseAgainst(grammar: GrammarName, path: string, text: string): { tree: SyntaxTree; earlier?: EarlierCopy } {
    const previous = this.held.get(path);
    this.held.delete(path);
    let tree: SyntaxTree | null;
    let earlier: EarlierCopy | undefined;
    if (previous && previous.grammar === grammar) {
      const edit = editBetween(previous.text, text);
      previous.tree.edit(edit);
      tree = parserFor(grammar).parse(text, previous.tree);
      if (tree && previous.copy) {
        earlier = {
          root: previous.copy,
          edit: { start: edit.startIndex, oldEnd: edit.oldEndIndex, newEnd: edit.newEndIndex },
          changed: previous.tree.getChangedRanges(tree).map(({ startIndex, endIndex }) => ({ startIndex, endIndex })),
        };
      }
      previous.tree.delete();
    } else {
      previous?.tree.delete();
      tree = parserFor(grammar).parse(text);
    }
    if (!tree) throw new Error('the parser returned no tree');
    this.held.set(path, { grammar, text, tree });
    for (const [oldest, entry] of this.held) {
      if (this.held.size <= this.capacity) break;
      entry.tree.delete();
      this.held.delete(oldest);
    }
    return earlier ? { tree, earlier } : { tree };
  }

  /** Lets go of a file's tree (the file is gone, or read some other way now). */
  forget(path: string): void {
    this.held.get(path)?.tree.delete();
    this.held.delete(path);
  }
}

/** The one span where two texts differ: their common start and end left out, in UTF-16 units as web-tree-sitter counts them. */
export function editBetween(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;
  let tail = 0;
  while (tail < shorter - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail += 1;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    row += 1;
    lineStart = at + 1;
  }
  return { row, column: index - lineStart };
}
