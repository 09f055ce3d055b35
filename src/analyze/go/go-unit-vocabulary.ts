import { splitWords } from '../../text/identifier-words.js';
import type { GoDeclaration } from './collect-go-units.js';
import type { GoNode } from './go-syntax.js';

const BODY_WORDS_PER_UNIT = 200;
const LITERAL_WORDS_PER_UNIT = 40;

const WORD_NODES = new Set(['identifier', 'field_identifier', 'type_identifier', 'package_identifier', 'comment']);
const LITERAL_NODES = new Set(['interpreted_string_literal_content', 'raw_string_literal_content']);

/**
 * Sets each declaration's words (identifiers and comments, its doc comment first) and literals
 * (words of its string literals), from its own code: a struct's fields are units of their own,
 * so their words are theirs. In first-seen order, capped, as the Python front end does. A Go doc
 * comment stands above its declaration, outside the span; it is a comment, so its words are
 * words, where a Python docstring, a string, gives literals.
 */
export function collectGoVocabulary(declarations: readonly GoDeclaration[], source: string): void {
  const unitNodes = new Set<GoNode>(declarations.map((declaration) => declaration.node));
  for (const declaration of declarations) unitNodes.add(declaration.span);
  // `var a, b = pair` declares two units of one spec: one walk serves both.
  const done = new Map<GoNode, { words: string; literals: string }>();
  for (const declaration of declarations) {
    const known = done.get(declaration.node);
    if (known) {
      declaration.unit.words = known.words;
      declaration.unit.literals = known.literals;
      continue;
    }
    const words = new Set<string>();
    const literals = new Set<string>();
    addWords(words, declaration.unit.doc);
    walk(declaration.span, declaration.node, unitNodes, source, words, literals);
    const vocabulary = { words: [...words].join(' '), literals: [...literals].join(' ') };
    done.set(declaration.node, vocabulary);
    declaration.unit.words = vocabulary.words;
    declaration.unit.literals = vocabulary.literals;
  }
}

function walk(start: GoNode, own: GoNode, unitNodes: ReadonlySet<GoNode>, source: string, words: Set<string>, literals: Set<string>): void {
  const stack: GoNode[] = [start];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== start && node !== own && unitNodes.has(node)) continue;
    if (WORD_NODES.has(node.type)) {
      addWords(words, source.slice(node.start, node.end));
      continue;
    }
    if (LITERAL_NODES.has(node.type)) {
      addLiterals(literals, source.slice(node.start, node.end));
      continue;
    }
    for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index]!);
  }
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
