import { shortHash } from '../../graph/content-hash.js';
import { childByField, type TreeNode } from '../syntax/syntax-tree.js';
import { firstTokenAt } from '../../text/positions.js';

/**
 * A file's tokens in source order, each with the offset that decides which unit holds it, for
 * hashing units: layout (indentation, blank lines, line continuations, reflowed parentheses) is
 * no token, so re-indenting or moving a unit keeps its hash. Indentation that decides meaning is
 * kept as structure: each block opens with `{` and closes with `}`, so moving a statement out of
 * an `if` changes the hash while indenting a whole method deeper does not.
 */
export interface FileTokens {
  text: string[];
  /** Each token's offset; a block's `{` sits just before the block and its `}` at its end, outside it, so no statement span holds either. */
  at: number[];
  /** Each block's `}` by index: a def or class ends with its own block's close, not the closes of the blocks around it, which fall on the same offset. */
  closeOf: Map<TreeNode, number>;
}

/** Nodes whose text is one token: their children do not cover it (`string_content` around its escapes, a format spec). */
const ATOMIC = new Set(['string_content', 'format_specifier']);

export function fileTokens(root: TreeNode, source: string): FileTokens {
  const tokens: FileTokens = { text: [], at: [], closeOf: new Map() };
  const docstrings = docstringNodes(root);
  const push = (text: string, at: number): void => {
    if (text === '') return;
    tokens.text.push(text);
    tokens.at.push(at);
  };
  // A block on the stack alone closes it; `docstring` marks a docstring's parts.
  const stack: Array<{ node: TreeNode; docstring: boolean } | TreeNode> = [{ node: root, docstring: false }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!('docstring' in item)) {
      tokens.closeOf.set(item, tokens.text.length);
      push('}', item.end);
      continue;
    }
    const { node } = item;
    const docstring = item.docstring || docstrings.has(node);
    if (node.children.length === 0 || ATOMIC.has(node.type)) {
      if (node.type === 'line_continuation') continue;
      const text = source.slice(node.start, node.end);
      if (node.type === 'comment') push(collapseWhitespace(text), node.start);
      // A docstring's indentation follows its unit's: re-indenting the unit must keep it.
      else if (docstring && node.type === 'string_content') push(text.replace(/\r\n?/g, '\n').replace(/\n[ \t]+/g, '\n'), node.start);
      else push(text, node.start);
      continue;
    }
    if (node.type === 'block') {
      // Half a character before the block: a unit whose span starts where the block does (its first statement) does not hold it.
      push('{', node.start - 0.5);
      stack.push(node);
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push({ node: node.children[index]!, docstring });
  }
  return tokens;
}

/** The string nodes that are docstrings: the first statement of the module, a class or a function, when it is a lone string. */
function docstringNodes(root: TreeNode): Set<TreeNode> {
  const found = new Set<TreeNode>();
  const addFirst = (body: TreeNode | undefined): void => {
    const string = body && docstringOf(body);
    if (string) found.add(string);
  };
  addFirst(root);
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'function_definition' || node.type === 'class_definition') addFirst(childByField(node, 'body'));
    // Definitions sit in statements and blocks, never inside an expression: no need to walk those.
    for (const child of node.children) if (child.children.length > 0 && !isExpressionLeafParent(child)) stack.push(child);
  }
  return found;
}

function isExpressionLeafParent(node: TreeNode): boolean {
  return node.type === 'expression_statement' || node.type === 'string' || node.type === 'call' || node.type === 'argument_list';
}

/** The string of a body's first statement when the statement is nothing but that string. */
export function docstringOf(body: TreeNode): TreeNode | undefined {
  const first = body.children.find((child) => child.named && child.type !== 'comment');
  if (!first || first.type !== 'expression_statement') return undefined;
  const parts = first.children.filter((child) => child.type !== 'comment');
  return parts.length === 1 && parts[0]!.type === 'string' ? parts[0] : undefined;
}

import { collapseWhitespace } from '../../text/clip.js';

export { collapseWhitespace };

/**
 * The hash of a unit's tokens: those whose offset lies in its span, through the close of `block`
 * (a def's or class's body) when it has one.
 */
export function unitHasher(tokens: FileTokens): (span: TreeNode, block?: TreeNode) => string {
  return (span, block) => {
    const start = firstTokenAt(tokens.at, span.start);
    const close = block ? tokens.closeOf.get(block) : undefined;
    const end = close === undefined ? firstTokenAt(tokens.at, span.end) : close + 1;
    return shortHash(tokens.text.slice(start, end).join('\u0000'));
  };
}

