import { clip, collapseWhitespace } from '../../text/clip.js';
import { childByField, type TreeNode } from '../syntax/syntax-tree.js';

/** A node of the copied tree (the Python front end's plain copy of a tree-sitter tree, language-neutral). */
export type RustNode = TreeNode;

export { childByField };

const DOC_LIMIT = 600;

/** The nodes that declare an item, at a module's top, in an inline module, or inside a block. */
export const ITEM_TYPES: ReadonlySet<string> = new Set([
  'function_item', 'function_signature_item', 'struct_item', 'enum_item', 'union_item', 'trait_item', 'impl_item', 'const_item',
  'static_item', 'type_item', 'mod_item', 'macro_definition', 'use_declaration', 'extern_crate_declaration', 'foreign_mod_item',
  'macro_invocation',
]);

/** An item with what stands before it and belongs to it: outer attributes and doc comments. */
export interface AttributedItem {
  node: RustNode;
  attributes: RustNode[];
  /** Outer doc comments (`///`, block doc comments) before the item, else the plain comments right above it. */
  docs: RustNode[];
  /** Where the unit's span starts: its first attribute, else the item itself (doc comments stay outside, as a JSDoc does). */
  start: number;
}

/**
 * The items among a module's or block's children, each with the attributes and comments in the
 * run right before it. A comment or attribute followed by no item belongs to nothing.
 */
export function attributedItems(children: readonly RustNode[], source: string, lineOf: (offset: number) => number): AttributedItem[] {
  const found: AttributedItem[] = [];
  let run: RustNode[] = [];
  for (const child of children) {
    if (child.type === 'attribute_item' || child.type === 'line_comment' || child.type === 'block_comment') {
      run.push(child);
      continue;
    }
    if (ITEM_TYPES.has(child.type) || (child.type === 'expression_statement' && child.children[0]?.type === 'macro_invocation')) {
      const attributes = run.filter((node) => node.type === 'attribute_item');
      const outerDocs = run.filter((node) => isOuterDoc(node));
      const docs = outerDocs.length > 0 ? outerDocs : plainCommentsAbove(run, child, source, lineOf);
      found.push({ node: child, attributes, docs, start: attributes[0]?.start ?? child.start });
    }
    if (child.named || child.type === ';') run = [];
  }
  return found;
}

function isOuterDoc(node: RustNode): boolean {
  return (node.type === 'line_comment' || node.type === 'block_comment') && node.children.some((child) => child.field === 'outer');
}

export function isInnerDoc(node: RustNode): boolean {
  return (node.type === 'line_comment' || node.type === 'block_comment') && node.children.some((child) => child.field === 'inner');
}

/** Comments that are licences or tool directives say nothing of the code beside them. */
const NOT_DOCUMENTATION = /^\/[/*]\s*(rustfmt|clippy|noqa|TODO:?\s*$)|copyright|SPDX-License-Identifier|@license/i;

/** The plain comments that end on the line right above the item (or its attributes), without a blank line between. */
function plainCommentsAbove(run: readonly RustNode[], item: RustNode, source: string, lineOf: (offset: number) => number): RustNode[] {
  const comments: RustNode[] = [];
  let expected = lineOf(run.find((node) => node.type === 'attribute_item')?.start ?? item.start) - 1;
  for (let index = run.length - 1; index >= 0; index -= 1) {
    const node = run[index]!;
    if (node.type === 'attribute_item') continue;
    if (isInnerDoc(node) || lineOf(Math.max(node.start, node.end - 1)) !== expected) break;
    if (NOT_DOCUMENTATION.test(source.slice(node.start, node.end))) break;
    comments.unshift(node);
    expected = lineOf(node.start) - 1;
  }
  return comments;
}

/** The prose of doc comments: their markers gone, whitespace collapsed. */
export function docText(comments: readonly RustNode[], source: string): string {
  const parts = comments.map((comment) => {
    const doc = childByField(comment, 'doc');
    if (doc) return source.slice(doc.start, doc.end);
    return source.slice(comment.start, comment.end).replace(/^\/\/[/!]?|^\/\*[*!]?|\*\/$/g, '').replace(/^\s*\*\s?/gm, '');
  });
  return clip(collapseWhitespace(parts.join(' ')), DOC_LIMIT);
}

/** `#[cfg(test)]`, `#[cfg(all(test, ...))]`, `#[test]`, `#[tokio::test]`: code that only a test build compiles. */
export function isTestOnly(attributes: readonly RustNode[], source: string): boolean {
  return attributes.some((attribute) => {
    const text = source.slice(attribute.start, attribute.end).replace(/\s+/g, '');
    if (/^#\[(?:[A-Za-z_]\w*::)*test\]$/.test(text)) return true;
    return /^#\[cfg\(/.test(text) && /[(,]test[),]/.test(text) && !/not\(test\)/.test(text);
  });
}

/** `#[path = "..."]` on a `mod x;`: the file it names. */
export function pathAttribute(attributes: readonly RustNode[], source: string): string | undefined {
  for (const attribute of attributes) {
    const match = /^#\[\s*path\s*=\s*"([^"]*)"\s*\]$/.exec(source.slice(attribute.start, attribute.end));
    if (match) return match[1];
  }
  return undefined;
}

export function hasAttribute(attributes: readonly RustNode[], source: string, name: string): boolean {
  return attributes.some((attribute) => new RegExp(`^#\\[\\s*${name}\\b`).test(source.slice(attribute.start, attribute.end)));
}

export function isPublic(node: RustNode): boolean {
  return node.children.some((child) => child.type === 'visibility_modifier');
}

export function nameOf(node: RustNode, source: string): string | undefined {
  const name = childByField(node, 'name');
  return name ? source.slice(name.start, name.end) : undefined;
}

/**
 * The segments of a path as written: `crate::tools::run` → crate, tools, run; a generic segment
 * (`Vec::<u8>::new`) counts by its name; a leading `::` is the segment '::'. Undefined for what no
 * path names (a macro's metavariable, a qualified `<T as Trait>::x`).
 */
export function pathSegments(node: RustNode, source: string): string[] | undefined {
  switch (node.type) {
    case 'identifier':
    case 'type_identifier':
    case 'field_identifier':
    case 'crate':
    case 'super':
    case 'self':
      return [source.slice(node.start, node.end)];
    case 'scoped_identifier':
    case 'scoped_type_identifier': {
      const name = childByField(node, 'name');
      const path = childByField(node, 'path');
      if (!name) return undefined;
      const head = path ? pathSegments(path, source) : node.children[0]?.type === '::' ? ['::'] : [];
      return head ? [...head, source.slice(name.start, name.end)] : undefined;
    }
    case 'generic_type': {
      const type = childByField(node, 'type');
      return type ? pathSegments(type, source) : undefined;
    }
    case 'generic_function': {
      const inner = childByField(node, 'function');
      return inner ? pathSegments(inner, source) : undefined;
    }
    default:
      return undefined;
  }
}

/** The text of a node with its whitespace collapsed and clipped: how callees and types are written out. */
export function spelled(node: RustNode, source: string, limit = 120): string {
  return clip(collapseWhitespace(source.slice(node.start, node.end)), limit);
}
