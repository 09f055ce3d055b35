import { childByField, type TreeNode } from '../syntax/syntax-tree.js';
import { collapseWhitespace, docstringOf } from './unit-tokens.js';

const SIGNATURE_LIMIT = 240;
const DOC_LIMIT = 600;
const ASSIGNMENT_HEAD = 60;

import { clip } from '../../text/clip.js';

export { clip };

/** A def's or class's head, up to the colon before its body: what a reader scans to know what it takes and gives. */
export function definitionSignature(definition: TreeNode, source: string): string {
  const body = childByField(definition, 'body');
  let end = definition.end;
  for (const child of definition.children) {
    if (child === body) break;
    if (!child.named && child.type === ':') end = child.start;
  }
  return clip(collapseWhitespace(source.slice(definition.start, end)), SIGNATURE_LIMIT);
}

/** An assignment's first characters: enough to tell what the name holds (`MAX_TURNS = 40`, `HANDLERS: dict[str, Handler] = {`). */
export function assignmentSignature(statement: TreeNode, source: string): string {
  return clip(collapseWhitespace(source.slice(statement.start, Math.min(statement.end, statement.start + ASSIGNMENT_HEAD))), SIGNATURE_LIMIT);
}

/** The docstring of a def or class, its quotes and prefix dropped, whitespace collapsed. */
export function docstringText(definition: TreeNode, source: string): string {
  const body = childByField(definition, 'body');
  const string = body && docstringOf(body);
  return string ? clip(collapseWhitespace(stringValue(string, source)), DOC_LIMIT) : '';
}

/** A string literal's text between its quotes (escapes as written, interpolations kept). */
export function stringValue(string: TreeNode, source: string): string {
  const open = string.children.find((child) => child.type === 'string_start');
  const close = string.children.find((child) => child.type === 'string_end');
  return source.slice(open ? open.end : string.start, close ? close.start : string.end);
}

/** Comments that are tool directives or licences say nothing of the code beside them. */
const NOT_DOCUMENTATION = /^#+\s*(noqa|type:|pragma|pylint|fmt:|isort|mypy|ruff|pyright)|copyright|SPDX-License-Identifier|@license/i;

/**
 * The comment lines right above a statement, the documentation an assignment gets: comments of
 * `siblings` ending on the line before it, without a blank line between. `lineOf` maps offsets.
 */
export function commentsAbove(siblings: readonly TreeNode[], index: number, line: number, lineOf: (offset: number) => number, source: string): string {
  const lines: string[] = [];
  let expected = line - 1;
  for (let at = index - 1; at >= 0; at -= 1) {
    const sibling = siblings[at]!;
    if (sibling.type !== 'comment' || lineOf(sibling.start) !== expected) break;
    const text = source.slice(sibling.start, sibling.end);
    if (!NOT_DOCUMENTATION.test(text)) lines.unshift(text.replace(/^#+\s?/, ''));
    expected -= 1;
  }
  return clip(collapseWhitespace(lines.join(' ')), DOC_LIMIT);
}
