import { ts } from 'ts-morph';
import { shortHash } from '../../graph/content-hash.js';
import { firstTokenAt } from '../../text/positions.js';

const SIGNATURE_LIMIT = 240;
const DOC_LIMIT = 600;


export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The content hash of each unit of one file: of its tokens, so re-indenting, reflowing or
 * moving a unit keeps it, while any edit to what the code does changes it, whitespace inside a
 * literal included.
 */
export function unitHasher(sourceFile: ts.SourceFile, tokenText: TokenTextReader = tokenTextReader(sourceFile)): (node: ts.Node) => string {
  return (node) => shortHash(tokenText(node.getStart(sourceFile), node.end));
}

export type TokenTextReader = (start: number, end: number) => string;

/**
 * The text of a span of one file as its tokens, joined: the same for any layout of the span,
 * different for any other code or literal in it. The file is read into tokens once, on the first
 * span asked for: spans nest, and reading each on its own would read a class again for every
 * method in it. One reader serves a file's unit hashes and its declaration digest.
 */
export function tokenTextReader(sourceFile: ts.SourceFile): TokenTextReader {
  let tokens: FileTokens | undefined;
  return (start, end) => {
    tokens ??= fileTokens(sourceFile);
    return tokens.text.slice(firstTokenAt(tokens.at, start), firstTokenAt(tokens.at, end)).join('\u0000');
  };
}

/** A file's tokens in order, each with the position that decides which units hold it. */
interface FileTokens {
  text: string[];
  at: number[];
}

/** Tokens whose own text is data: a space inside one is a change of behaviour, so they are kept verbatim. */
const VERBATIM_TOKENS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

/**
 * Statements that may end without `;`. Where one does, a line break decided where it ends
 * (`return\nvalue` returns nothing, `a\n++b` increments b), so the inserted `;` is a token too.
 */
const SEMICOLON_ENDED = new Set([
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.ExpressionStatement,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ThrowStatement,
  ts.SyntaxKind.BreakStatement,
  ts.SyntaxKind.ContinueStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.DebuggerStatement,
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
]);

const SEMICOLON = 0x3b;

/**
 * The syntax tree says where literals and JSX text lie, which a scanner alone cannot tell (a `/`
 * may start a regex, a `}` may resume a template); between them only punctuation, names,
 * numbers and comments remain, which the standard scanner reads alike in .ts, .tsx and .js.
 */
const codeScanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard);

function fileTokens(sourceFile: ts.SourceFile): FileTokens {
  const text = sourceFile.text;
  const kept: Array<{ start: number; end: number; at: number; token: string }> = [];
  const visit = (child: ts.Node): void => {
    if (VERBATIM_TOKENS.has(child.kind)) {
      const start = child.getStart(sourceFile);
      kept.push({ start, end: child.end, at: start, token: text.slice(start, child.end) });
    } else if (child.kind === ts.SyntaxKind.JsxText) {
      kept.push({ start: child.pos, end: child.end, at: child.pos, token: jsxTextValue(text.slice(child.pos, child.end)) });
    } else {
      ts.forEachChild(child, visit);
      // At the statement's last character, so the statement's own unit holds it and the next unit does not.
      if (SEMICOLON_ENDED.has(child.kind) && text.charCodeAt(child.end - 1) !== SEMICOLON) kept.push({ start: child.end, end: child.end, at: child.end - 1, token: ';' });
    }
  };
  visit(sourceFile);
  kept.sort((a, b) => a.start - b.start);
  const tokens: FileTokens = { text: [], at: [] };
  let cursor = 0;
  for (const { start, end, at, token } of kept) {
    scanCode(text, cursor, start, tokens);
    if (token !== '') {
      tokens.text.push(token);
      tokens.at.push(at);
    }
    cursor = Math.max(cursor, end);
  }
  scanCode(text, cursor, text.length, tokens);
  return tokens;
}


function scanCode(text: string, start: number, end: number, tokens: FileTokens): void {
  if (end <= start) return;
  codeScanner.setText(text, start, end - start);
  for (let kind = codeScanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = codeScanner.scan()) {
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    // Comments count as they always have, whitespace-insensitive: an edited comment is an edit a reader of the locator may want to see.
    const comment = kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia;
    tokens.text.push(comment ? collapseWhitespace(codeScanner.getTokenText()) : codeScanner.getTokenText());
    tokens.at.push(codeScanner.getTokenStart());
  }
}

/**
 * JSX text as it renders: whitespace next to a line break goes, lines left empty go, the rest
 * joins with one space (the JSX rule), so re-indenting markup keeps the hash and `a  b` does not.
 */
function jsxTextValue(raw: string): string {
  const lines = raw.split(/\r\n|[\r\n]/);
  const last = lines.length - 1;
  return lines
    .map((line, index) => (index > 0 ? line.replace(/^[ \t]+/, '') : line))
    .map((line, index) => (index < last ? line.replace(/[ \t]+$/, '') : line))
    .filter((line) => line !== '')
    .join(' ');
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

/**
 * Leading comments that document a declaration; license banners are not documentation. Where a
 * doc comment (`/** ... *\/`) is among them, it is the documentation and what stands above it is
 * something else (a section heading, a note to a neighbour): the doc starts at the last one.
 */
export function docOf(node: ts.Node, sourceFile: ts.SourceFile): string {
  const comments = leadingComments(sourceFile.text, node.getFullStart(), { raw: true });
  const lastDocComment = comments.findLastIndex((comment) => comment.startsWith('/**'));
  return clip(collapseWhitespace(comments.slice(Math.max(0, lastDocComment)).map(cleanComment).join(' ')), DOC_LIMIT);
}

/** The prose of the comments before a position (as written, with `raw`): licence headers and tool directives (eslint, @ts-, ...) say nothing of the code. */
export function leadingComments(text: string, position: number, options: { raw?: boolean } = {}): string[] {
  const parts: string[] = [];
  for (const range of ts.getLeadingCommentRanges(text, position) ?? []) {
    const raw = text.slice(range.pos, range.end);
    if (/@license|copyright|SPDX-License-Identifier/i.test(raw)) continue;
    if (/^\/\/\s*(eslint|@ts-|prettier|istanbul|c8)/.test(raw)) continue;
    parts.push(options.raw ? raw : cleanComment(raw));
  }
  return parts;
}

export function isTestPath(path: string): boolean {
  return /(^|\/)(__tests__|__mocks__|test|tests|testing|test-utils)\//.test(path) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(path);
}

export { lineLocator } from '../../text/positions.js';
