import type { TreeNode } from '../syntax/syntax-tree.js';

/**
 * A Go syntax node copied out of tree-sitter: the plain node the Python front end copies
 * (python/syntax-tree.ts), which holds nothing of Python but its name.
 */
export type GoNode = TreeNode;

export { childByField, childrenByField, copyTree, lineLocator, namedChildren, syntaxErrorsOf, type LineOf } from '../syntax/syntax-tree.js';

/** A node's text. */
export function textOf(node: GoNode, source: string): string {
  return source.slice(node.start, node.end);
}

/** Go exports a name by its first letter: an upper-case letter of any script. */
export function isExportedName(name: string): boolean {
  const first = name.codePointAt(0);
  if (first === undefined) return false;
  const letter = String.fromCodePoint(first);
  return letter !== letter.toLowerCase() && letter === letter.toUpperCase();
}
