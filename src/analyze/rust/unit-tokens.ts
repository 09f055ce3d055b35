import { shortHash } from '../../graph/content-hash.js';
import { firstTokenAt } from '../../text/positions.js';
import { collapseWhitespace } from '../../text/clip.js';
import type { RustNode } from './rust-syntax.js';

/**
 * A file's tokens in source order with their offsets, for hashing units: layout (indentation,
 * blank lines, line breaks inside an expression) is no token, so re-indenting or moving a unit
 * keeps its hash. Rust marks its blocks with braces, which are tokens of their own: moving a
 * statement out of a block changes the hash without any marker added.
 */
export interface FileTokens {
  text: string[];
  at: number[];
}

/** Literals are one token each, as written (a changed space inside one is a change); a comment counts by its words. */
const LITERALS = new Set(['string_literal', 'raw_string_literal', 'char_literal']);
const COMMENTS = new Set(['line_comment', 'block_comment']);

export function fileTokens(root: RustNode, source: string): FileTokens {
  const tokens: FileTokens = { text: [], at: [] };
  const stack: RustNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length === 0 || LITERALS.has(node.type) || COMMENTS.has(node.type)) {
      let text = source.slice(node.start, node.end);
      // rustc reads a CRLF inside a literal as LF: the same program whatever the line endings.
      if (LITERALS.has(node.type)) text = text.replace(/\r\n/g, '\n');
      else if (COMMENTS.has(node.type)) text = collapseWhitespace(text);
      if (text !== '') {
        tokens.text.push(text);
        tokens.at.push(node.start);
      }
      continue;
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index]!);
  }
  return tokens;
}

/** The hash of the tokens that start inside a span. */
export function unitHasher(tokens: FileTokens): (start: number, end: number) => string {
  return (start, end) => shortHash(tokens.text.slice(firstTokenAt(tokens.at, start), firstTokenAt(tokens.at, end)).join('\u0000'));
}
