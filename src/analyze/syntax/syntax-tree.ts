import type { SyntaxNode, SyntaxTree } from '../syntax/tree-sitter.js';

/**
 * A syntax node copied out of tree-sitter into plain JavaScript. Every property of a
 * web-tree-sitter node is a call into WebAssembly; the analysis reads each node many times (scopes,
 * then uses, then words), so the tree is copied once, in one cursor walk, and freed right after.
 */
export interface TreeNode {
  type: string;
  /** Anonymous nodes are the grammar's literal tokens (`def`, `(`, `+=`); `type` alone cannot tell the keyword from the node. */
  named: boolean;
  /** The field this node fills in its parent (`name`, `body`, `left`), if any. */
  field: string | undefined;
  /** UTF-16 offsets into the text, as JavaScript strings index it. */
  start: number;
  end: number;
  children: TreeNode[];
}

/** The children of every leaf: most nodes are leaves, and one shared empty list spares allocating one each. */
const NO_CHILDREN: TreeNode[] = [];

/** The tree as plain nodes. Iterative: generated code nests expressions thousands deep. */
export function copyTree(tree: SyntaxTree): TreeNode {
  const language = tree.language;
  const types: string[] = [];
  const named: boolean[] = [];
  const fields: Array<string | undefined> = [undefined];
  for (let id = 1; id <= language.fieldCount; id += 1) fields.push(language.fieldNameForId(id) ?? undefined);
  const cursor = tree.walk();
  const make = (): TreeNode => {
    const typeId = cursor.nodeTypeId;
    let type = types[typeId];
    if (type === undefined) {
      type = types[typeId] = cursor.nodeType;
      named[typeId] = cursor.nodeIsNamed;
    }
    return { type, named: named[typeId]!, field: fields[cursor.currentFieldId], start: cursor.startIndex, end: cursor.endIndex, children: NO_CHILDREN };
  };
  const adopt = (parent: TreeNode, child: TreeNode): void => {
    if (parent.children === NO_CHILDREN) parent.children = [child];
    else parent.children.push(child);
  };
  try {
    const root = make();
    const stack: TreeNode[] = [root];
    for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = make();
        adopt(stack[stack.length - 1]!, child);
        stack.push(child);
        continue;
      }
      for (;;) {
        stack.pop();
        if (cursor.gotoNextSibling()) {
          const sibling = make();
          adopt(stack[stack.length - 1]!, sibling);
          stack.push(sibling);
          break;
        }
        if (!cursor.gotoParent()) return root;
      }
    }
  } finally {
    cursor.delete();
  }
}

export function childByField(node: TreeNode, field: string): TreeNode | undefined {
  for (const child of node.children) if (child.field === field) return child;
  return undefined;
}

export function childrenByField(node: TreeNode, field: string): TreeNode[] {
  return node.children.filter((child) => child.field === field);
}

export function namedChildren(node: TreeNode): TreeNode[] {
  return node.children.filter((child) => child.named && child.type !== 'comment');
}

export function firstNamedChild(node: TreeNode, type?: string): TreeNode | undefined {
  for (const child of node.children) if (child.named && child.type !== 'comment' && (type === undefined || child.type === type)) return child;
  return undefined;
}

/** Line lookup by bisection over the offsets of line starts; lines are 1-based and end at `\n`, as the caller counts them. */
export type LineOf = (offset: number) => number;

export { lineLocator } from '../../text/positions.js';

/** The syntax errors of a parse: ERROR nodes and tokens the parser had to invent (MISSING). */
export interface SyntaxErrors {
  count: number;
  first?: { offset: number; message: string };
}

/**
 * Counts errors from the live tree, where `hasError` marks the paths that lead to one: a clean
 * file costs one call, a broken one only the walk down its broken branches.
 */
export function syntaxErrorsOf(tree: SyntaxTree): SyntaxErrors {
  const errors: SyntaxErrors = { count: 0 };
  if (!tree.rootNode.hasError) return errors;
  const note = (node: SyntaxNode, message: string): void => {
    errors.count += 1;
    if (!errors.first || node.startIndex < errors.first.offset) errors.first = { offset: node.startIndex, message };
  };
  const stack: SyntaxNode[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isMissing) {
      note(node, `missing ${node.type}`);
      continue;
    }
    if (node.isError) note(node, 'invalid syntax');
    for (const child of node.children) if (child && (child.hasError || child.isMissing)) stack.push(child);
  }
  return errors;
}
