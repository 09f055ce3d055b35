import type { Unit } from '../../graph/model.js';
import type { ExtractedFile, FileInput } from '../front-end.js';
import { copyTree, lineLocator, type LineOf, type SyntaxErrors, syntaxErrorsOf, type TreeNode } from './syntax-tree.js';
import { type GrammarName, parserFor } from './tree-sitter.js';

/** A file's own unit, as every front end makes it: the whole file, hashed by its bytes. */
export function fileUnitOf(file: FileInput, doc = ''): Unit {
  return { id: file.path, kind: 'file', file: file.path, symbol: '', startLine: 1, endLine: Math.max(1, file.lines), signature: file.path, doc, exported: false, hash: file.hash, literals: '', words: '' };
}

/** A file parsed and copied out of the parser: its tree, its syntax errors, and line lookup over its text. */
export interface ParsedFile {
  root: TreeNode;
  errors: SyntaxErrors;
  lineOf: LineOf;
  /**
   * For a file parsed against its last tree: the nodes lent from the last copy as shifted copies,
   * each with the node it copies (a node lent unshifted is the very same object).
   */
  movedFrom?: ReadonlyMap<TreeNode, TreeNode>;
}

/**
 * Parses a file with one grammar and copies the tree out. A file that comes with the session's
 * recent trees is parsed against its last tree, which the keeper holds on to; any other tree is
 * freed at once.
 */
export function parseText(grammar: GrammarName, file: Pick<FileInput, 'path' | 'text' | 'recentTrees'>): ParsedFile {
  const { text, recentTrees } = file;
  if (recentTrees) {
    const { tree, root, movedFrom } = recentTrees.read(grammar, file.path, text);
    return { errors: syntaxErrorsOf(tree), root, lineOf: lineLocator(text), movedFrom };
  }
  const tree = parserFor(grammar).parse(text);
  if (!tree) throw new Error('the parser returned no tree');
  try {
    return { errors: syntaxErrorsOf(tree), root: copyTree(tree), lineOf: lineLocator(text) };
  } finally {
    tree.delete();
  }
}

/**
 * A front end's extraction that never throws: tree-sitter recovers from any syntax error and the
 * units are read from what parsed; should reading fail all the same, the file keeps its file unit
 * and says why in its warning.
 */
export function extractNeverThrowing<Facts>(file: FileInput, extract: (file: FileInput) => ExtractedFile<Facts>, emptyFacts: () => Facts): ExtractedFile<Facts> {
  try {
    return extract(file);
  } catch (error) {
    return {
      units: [fileUnitOf(file)],
      parseErrors: 1,
      warning: { line: 1, message: `could not read the file: ${(error as Error).message ?? String(error)}`.slice(0, 200) },
      digest: {},
      facts: emptyFacts(),
    };
  }
}
