import { clip, collapseWhitespace } from '../../text/clip.js';
import { childByField, type GoNode, type LineOf, textOf } from './go-syntax.js';

const SIGNATURE_LIMIT = 240;
const DOC_LIMIT = 600;
/** A variable's or field's first characters: enough to tell what it holds, as the Python front end signs an assignment. */
const SPEC_HEAD = 60;

/** A func's or method's head, up to its body: what a reader scans to know what it takes and gives. */
export function functionSignature(declaration: GoNode, source: string): string {
  const body = childByField(declaration, 'body');
  return clip(collapseWhitespace(source.slice(declaration.start, body ? body.start : declaration.end)), SIGNATURE_LIMIT);
}

/**
 * A named type's head: `type Server struct`, `type Provider interface`, without the body's
 * members (they are units of their own, or the interface's methods); any other type whole
 * (`type HandlerFunc func(ctx context.Context) error`).
 */
export function typeSignature(spec: GoNode, source: string): string {
  const type = childByField(spec, 'type');
  let end = spec.end;
  if (type && (type.type === 'struct_type' || type.type === 'interface_type')) {
    const open = type.type === 'struct_type' ? type.children.find((child) => child.type === 'field_declaration_list') : type.children.find((child) => child.type === '{');
    if (open) end = open.start;
  }
  return clip(collapseWhitespace(`type ${source.slice(spec.start, end)}`), SIGNATURE_LIMIT);
}

/** A var's or const's first characters with its keyword (`const MaxTurns = 40`), inside a group or not. */
export function specSignature(keyword: 'var' | 'const', spec: GoNode, source: string): string {
  return clip(collapseWhitespace(`${keyword} ${source.slice(spec.start, Math.min(spec.end, spec.start + SPEC_HEAD))}`), SIGNATURE_LIMIT);
}

/** A struct field's first characters (`Retries int \`json:"retries"\``). */
export function fieldSignature(field: GoNode, source: string): string {
  return clip(collapseWhitespace(source.slice(field.start, Math.min(field.end, field.start + SPEC_HEAD))), SIGNATURE_LIMIT);
}

/** Comments that are tool directives or licences say nothing of the code beside them. */
const NOT_DOCUMENTATION = /^\/\/\s*(go:|\+build|nolint|lint:|#nosec)|^\/\/(line|export|extern) |copyright|SPDX-License-Identifier|@license/i;

/**
 * The comment lines right above a declaration, Go's doc comment: comments among `siblings`
 * ending on the line before the node at `index`, without a blank line between.
 */
export function commentsAbove(siblings: readonly GoNode[], index: number, lineOf: LineOf, source: string): string {
  const lines: string[] = [];
  let expected = lineOf(siblings[index]!.start) - 1;
  for (let at = index - 1; at >= 0; at -= 1) {
    const sibling = siblings[at]!;
    if (sibling.type !== 'comment' || lineOf(Math.max(sibling.start, sibling.end - 1)) !== expected) break;
    // A comment after code on its line (`name string // who`) is that code's, not the next declaration's.
    const before = siblings[at - 1];
    if (before && lineOf(Math.max(before.start, before.end - 1)) === lineOf(sibling.start)) break;
    const text = textOf(sibling, source);
    if (!NOT_DOCUMENTATION.test(text)) lines.unshift(commentText(text));
    expected = lineOf(sibling.start) - 1;
  }
  return clip(collapseWhitespace(lines.join(' ')), DOC_LIMIT);
}

/** A comment after a field on its own line (`Retries int // how many times`): a field's doc when none stands above it. */
export function trailingComment(siblings: readonly GoNode[], index: number, lineOf: LineOf, source: string): string {
  const next = siblings[index + 1];
  const node = siblings[index]!;
  if (!next || next.type !== 'comment' || lineOf(next.start) !== lineOf(Math.max(node.start, node.end - 1))) return '';
  const text = textOf(next, source);
  return NOT_DOCUMENTATION.test(text) ? '' : clip(collapseWhitespace(commentText(text)), DOC_LIMIT);
}

function commentText(comment: string): string {
  return comment.startsWith('/*') ? comment.slice(2, comment.endsWith('*/') ? -2 : undefined).replace(/^\s*\*/gm, '') : comment.replace(/^\/\/\s?/, '');
}
