import { ts } from 'ts-morph';
import { shortHash } from '../graph/content-hash.js';

const SIGNATURE_LIMIT = 240;
const DOC_LIMIT = 600;


export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The content hash of a unit: whitespace-insensitive, so re-indenting or moving a unit keeps it. */
export function unitHash(node: ts.Node, sourceFile: ts.SourceFile): string {
  return shortHash(collapseWhitespace(node.getText(sourceFile)));
}

/** Whether the compiler reads a file as JavaScript, where a class declares its fields by assignment. */
export function isJavaScriptFile(fileName: string): boolean {
  return /\.[cm]?jsx?$/.test(fileName);
}

/**
 * The name node an access reaches the member by: `x.p`'s `p`, or the key of `x['p']` (or
 * x[`p`]), which the checker resolves to the same member as the dot.
 */
export function accessedName(access: ts.Node): ts.MemberName | ts.StringLiteralLike | undefined {
  if (ts.isPropertyAccessExpression(access)) return access.name;
  if (ts.isElementAccessExpression(access) && ts.isStringLiteralLike(access.argumentExpression)) return access.argumentExpression;
  return undefined;
}

/** The member `this.x` or `this['x']` names: in JavaScript assigning either declares the field. */
export function memberOfThis(target: ts.Node): string | undefined {
  if (!(ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) || target.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  return accessedName(target)?.text;
}

export function lineOf(sourceFile: ts.SourceFile, position: number): number {
  return sourceFile.getLineAndCharacterOfPosition(position).line + 1;
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function bodyOf(node: ts.Node): ts.Node | undefined {
  if (ts.isFunctionLike(node) && 'body' in node) return (node as { body?: ts.Node }).body;
  return undefined;
}

/** The declaration's head without its body: what a reader scans to know what a unit takes and gives. */
export function signatureOf(node: ts.Node, sourceFile: ts.SourceFile): string {
  const text = sourceFile.text;
  const start = node.getStart(sourceFile);
  let end = node.getEnd();
  if (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node)) {
    end = text.indexOf('{', node.name ? node.name.getEnd() : start);
    if (end < 0) end = node.getEnd();
  } else if (ts.isVariableDeclaration(node) && node.initializer) {
    const initializer = node.initializer;
    const functionBody = bodyOf(initializer);
    end = functionBody ? functionBody.getStart(sourceFile) : Math.min(node.getEnd(), initializer.getStart(sourceFile) + 60);
  } else if ((ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) && node.initializer) {
    const functionBody = bodyOf(node.initializer);
    end = functionBody ? functionBody.getStart(sourceFile) : node.getEnd();
  } else {
    const body = bodyOf(node);
    if (body) end = body.getStart(sourceFile);
  }
  const head = collapseWhitespace(text.slice(start, end)).replace(/\s*(=>|=|\{)\s*$/, '');
  return clip(head, SIGNATURE_LIMIT);
}

function cleanComment(raw: string): string {
  if (raw.startsWith('//')) return raw.replace(/^\/\/+\s?/, '');
  return raw
    .replace(/^\/\*+/, '')
    .replace(/\*+\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join('\n');
}

/** Leading comments that document a declaration; license banners are not documentation. */
export function docOf(node: ts.Node, sourceFile: ts.SourceFile): string {
  return clip(collapseWhitespace(leadingComments(sourceFile.text, node.getFullStart()).join(' ')), DOC_LIMIT);
}

/** The prose of the comments before a position: licence headers and tool directives (eslint, @ts-, ...) say nothing of the code. */
export function leadingComments(text: string, position: number): string[] {
  const parts: string[] = [];
  for (const range of ts.getLeadingCommentRanges(text, position) ?? []) {
    const raw = text.slice(range.pos, range.end);
    if (/@license|copyright|SPDX-License-Identifier/i.test(raw)) continue;
    if (/^\/\/\s*(eslint|@ts-|prettier|istanbul|c8)/.test(raw)) continue;
    parts.push(cleanComment(raw));
  }
  return parts;
}

export function isTestPath(path: string): boolean {
  return /(^|\/)(__tests__|__mocks__|test|tests|testing|test-utils)\//.test(path) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(path);
}

/** Line lookup for a text that has no syntax tree: offsets of line starts, searched by bisection. */
export function lineLocator(text: string): (position: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return (position) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}
