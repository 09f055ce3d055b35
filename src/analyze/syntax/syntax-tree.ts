import type { SyntaxNode, SyntaxTree, SyntaxTreeCursor } from '../syntax/tree-sitter.js';

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
  return copyTreeReusing(tree, undefined);
}

/**
 * What the last copy of a file's tree can lend the copy of its next tree: nodes that lie wholly
 * before the edit, or wholly after it and shifted by what it added, and outside every range
 * tree-sitter reports changed, have the same subtree as before.
 */
export interface EarlierCopy {
  root: TreeNode;
  /** The edit between the two texts (UTF-16 offsets): before `start` nothing moved; from `oldEnd` on, everything moved by `newEnd - oldEnd`. */
  edit: { start: number; oldEnd: number; newEnd: number };
  /** The ranges whose syntax changed, in the new tree's offsets. */
  changed: ReadonlyArray<{ startIndex: number; endIndex: number }>;
}

/**
 * The tree as plain nodes, taking unchanged subtrees from an earlier copy: reading a node out of
 * WebAssembly is the costliest step of a sync of a large file, and one edit leaves all but the
 * nodes along its path as they were (a method's siblings inside a class or impl block too).
 * A node lent from after the edit is a shifted copy, a new object: `movedFrom` gets it with the
 * earlier node it copies, so that what was read of the earlier node can be found again.
 */
export function copyTreeReusing(tree: SyntaxTree, earlier: EarlierCopy | undefined, movedFrom?: Map<TreeNode, TreeNode>): TreeNode {
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
  try {
    if (!earlier) return copySubtree(cursor, make);
    const { edit, changed } = earlier;
    const shift = edit.newEnd - edit.oldEnd;
    // The node under the cursor, which holds the edit or touches it, copied around it: each child
    // outside the edit is lent from `old` (the same node in the earlier copy), the one holding it copied the same way.
    const copyAround = (old: TreeNode | undefined, depth: number): TreeNode => {
      if (!old || depth > MAX_LENDING_DEPTH) return copySubtree(cursor, make);
      const head = make();
      if (!cursor.gotoFirstChild()) return head;
      const before = new Map(old.children.map((child) => [child.start, child]));
      const children: TreeNode[] = [];
      do {
        const child = make();
        const untouched = !changed.some((range) => range.startIndex <= child.end && child.start <= range.endIndex);
        let lent: TreeNode | undefined;
        if (untouched && child.end < edit.start) lent = sameHead(before.get(child.start), child, 0);
        else if (untouched && child.start > edit.newEnd) {
          const moved = sameHead(before.get(child.start - shift), child, shift);
          lent = moved && shifted(moved, shift);
          if (lent && moved && lent !== moved) movedFrom?.set(lent, moved);
        }
        if (lent) children.push(lent);
        else {
          // Offsets before the edit did not move: the child holding it started where its earlier self did.
          const counterpart = child.start <= edit.start ? before.get(child.start) : undefined;
          children.push(copyAround(counterpart?.type === child.type ? counterpart : undefined, depth + 1));
        }
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
      head.children = children;
      return head;
    };
    return copyAround(earlier.root, 0);
  } finally {
    cursor.delete();
  }
}

/** How deep lending follows an edit into nested nodes before copying the rest whole (recursion; generated code nests thousands deep). */
const MAX_LENDING_DEPTH = 200;

/** The earlier node when it is the same node as `head` but for a shift of its offsets. */
function sameHead(old: TreeNode | undefined, head: TreeNode, shift: number): TreeNode | undefined {
  return old && old.end + shift === head.end && old.type === head.type && old.named === head.named && old.field === head.field ? old : undefined;
}

/** A subtree with every offset moved; the very subtree when nothing moves (nodes are never changed once copied). */
function shifted(node: TreeNode, shift: number): TreeNode {
  if (shift === 0) return node;
  const top: TreeNode = { ...node, start: node.start + shift, end: node.end + shift };
  const stack: TreeNode[] = [top];
  while (stack.length > 0) {
    const copy = stack.pop()!;
    if (copy.children === NO_CHILDREN) continue;
    copy.children = copy.children.map((child) => {
      const moved: TreeNode = { ...child, start: child.start + shift, end: child.end + shift };
      stack.push(moved);
      return moved;
    });
  }
  return top;
}

/** The node under the cursor and all below it, in one walk; the cursor ends where it started. */
function copySubtree(cursor: SyntaxTreeCursor, make: () => TreeNode): TreeNode {
  const top = make();
  if (!cursor.gotoFirstChild()) return top;
  const stack: TreeNode[] = [top];
  for (;;) {
    const node = make();
    const parent = stack[stack.length - 1]!;
    if (parent.children === NO_CHILDREN) parent.children = [node];
    else parent.children.push(node);
    if (cursor.gotoFirstChild()) {
      stack.push(node);
      continue;
    }
    for (;;) {
      if (cursor.gotoNextSibling()) break;
      cursor.gotoParent();
      stack.pop();
      if (stack.length === 0) return top;
    }
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
