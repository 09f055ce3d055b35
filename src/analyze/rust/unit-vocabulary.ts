import { splitWords } from '../../text/identifier-words.js';
import type { Declaration } from './collect-units.js';
import type { RustNode } from './rust-syntax.js';

const BODY_WORDS_PER_UNIT = 200;
const LITERAL_WORDS_PER_UNIT = 40;

const WORD_NODES = new Set(['identifier', 'type_identifier', 'field_identifier', 'shorthand_field_identifier', 'line_comment', 'block_comment']);

/** `Self` stands in every impl: a word every method has tells none apart (`self` is a keyword, no identifier). */
const RECEIVER_NAMES = new Set(['Self']);

/**
 * Sets each declaration's words (identifiers and comments) and literals (words of its string
 * literals), from its own code: what a nested unit (a field, a nested fn) holds is that unit's.
 * In first-seen order, capped, as the other front ends do. Spans are offsets, not nodes: a unit's
 * words start at its doc comments, siblings before its item, which are its own words.
 */
export function collectVocabulary(root: RustNode, declarations: readonly Declaration[], source: string): void {
  const sorted = [...declarations].sort((a, b) => a.wordsStart - b.wordsStart || b.end - a.end);
  // A stack of the spans open at a position, innermost last: each token goes to the innermost unit holding it.
  const open: Array<{ declaration: Declaration; words: Set<string>; literals: Set<string> }> = [];
  let next = 0;
  const stack: RustNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    while (next < sorted.length && sorted[next]!.wordsStart <= node.start) {
      while (open.length > 0 && open[open.length - 1]!.declaration.end <= sorted[next]!.wordsStart) close(open.pop()!);
      open.push({ declaration: sorted[next]!, words: new Set(), literals: new Set() });
      next += 1;
    }
    while (open.length > 0 && open[open.length - 1]!.declaration.end <= node.start) close(open.pop()!);
    const holder = open[open.length - 1];
    if (WORD_NODES.has(node.type)) {
      const text = source.slice(node.start, node.end);
      if (holder && !RECEIVER_NAMES.has(text)) addWords(holder.words, text);
      continue;
    }
    if (node.type === 'string_content') {
      if (holder) addLiterals(holder.literals, source.slice(node.start, node.end));
      continue;
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index]!);
  }
  while (open.length > 0) close(open.pop()!);
}

function close(entry: { declaration: Declaration; words: Set<string>; literals: Set<string> }): void {
  entry.declaration.unit.words = [...entry.words].join(' ');
  entry.declaration.unit.literals = [...entry.literals].join(' ');
}

function addWords(words: Set<string>, text: string): void {
  if (words.size >= BODY_WORDS_PER_UNIT) return;
  for (const word of splitWords(text)) {
    if (word.length < 3) continue;
    words.add(word);
    if (words.size >= BODY_WORDS_PER_UNIT) return;
  }
}

function addLiterals(literals: Set<string>, text: string): void {
  if (literals.size >= LITERAL_WORDS_PER_UNIT) return;
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    if (word.length < 3 || word.length > 30) continue;
    literals.add(word);
    if (literals.size >= LITERAL_WORDS_PER_UNIT) return;
  }
}
