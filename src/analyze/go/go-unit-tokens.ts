import { shortHash } from '../../graph/content-hash.js';
import { firstTokenAt } from '../../text/positions.js';
import { collapseWhitespace } from '../../text/clip.js';
import type { GoNode } from './go-syntax.js';

/**
 * A Go file's tokens in source order with their offsets, for hashing units: layout is no token,
 * so re-indenting, reflowing or moving a unit keeps its hash. Go's blocks are braces, tokens of
 * their own, so a statement moved out of an `if` changes the hash without markers added. What
 * gofmt treats as layout is dropped too: statement-ending semicolons, and a comma before a closing
 * bracket (the one a list split over lines must end with). A comment counts, its whitespace
 * collapsed; a raw string counts without carriage returns, which Go drops from its value.
 *
 * In a tree without syntax errors, the tokens of the file are those of its top-level nodes one
 * after the other: no top-level node starts with a closing bracket, so no comma is dropped across
 * two of them, and a node's own tokens hash its units as the file's do (see readGoDeclarations).
 */
export interface GoTokens {
  text: string[];
  at: number[];
}

const CLOSERS = new Set([')', ']', '}']);

export function goFileTokens(root: GoNode, source: string): GoTokens {
  const tokens: GoTokens = { text: [], at: [] };
  const stack: GoNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length > 0) {
      for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index]!);
      continue;
    }
    let text = source.slice(node.start, node.end);
    if (node.type === 'comment') text = collapseWhitespace(text);
    else if (node.type === 'raw_string_literal_content') text = text.replace(/\r/g, '');
    else if (!node.named && (text === ';' || text === '\n' || text === '')) continue;
    if (text === '') continue;
    if (CLOSERS.has(text) && !node.named && tokens.text[tokens.text.length - 1] === ',') {
      tokens.text.pop();
      tokens.at.pop();
    }
    tokens.text.push(text);
    tokens.at.push(node.start);
  }
  return tokens;
}

/** The hash of a unit's tokens: those whose offset lies in its span. */
export function goUnitHasher(tokens: GoTokens): (span: GoNode) => string {
  return (span) => shortHash(tokens.text.slice(firstTokenAt(tokens.at, span.start), firstTokenAt(tokens.at, span.end)).join('\u0000'));
}
