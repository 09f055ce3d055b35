import { splitWords } from '../../text/identifier-words.js';
import type { Declaration } from './collect-units.js';
import type { TreeNode } from '../syntax/syntax-tree.js';

const BODY_WORDS_PER_UNIT = 200;
const LITERAL_WORDS_PER_UNIT = 40;

/** `self` and `cls` stand in every method: words every unit has tell none apart. */
const RECEIVER_NAMES = new Set(['self', 'cls']);

/**
 * Sets each declaration's words (identifiers and comments) and literals (words of its string
 * literals, docstrings included), from its own code: what a nested unit holds is that unit's.
 * In first-seen order, capped, as the TypeScript front end does.
 */
export function collectVocabulary(declarations: readonly Declaration[], source: string): void {
  const unitNodes = new Set<TreeNode>();
  for (const declaration of declarations) {
    unitNodes.add(declaration.span);
    for (const merged of declaration.merged) unitNodes.add(merged);
  }
  const done = new Map<TreeNode, { words: string; literals: string }>();
  for (const declaration of declarations) {
    // `a, b = pair` declares two units of one statement: one walk serves both.
    const known = done.get(declaration.span);
    if (known) {
      declaration.unit.words = known.words;
      declaration.unit.literals = known.literals;
      continue;
    }
    const words = new Set<string>();
    const literals = new Set<string>();
    for (const start of [declaration.span, ...declaration.merged]) walk(start, unitNodes, source, words, literals);
    const vocabulary = { words: [...words].join(' '), literals: [...literals].join(' ') };
    done.set(declaration.span, vocabulary);
    declaration.unit.words = vocabulary.words;
    declaration.unit.literals = vocabulary.literals;
  }
}

function walk(start: TreeNode, unitNodes: ReadonlySet<TreeNode>, source: string, words: Set<string>, literals: Set<string>): void {
  const stack: TreeNode[] = [start];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== start && unitNodes.has(node)) continue;
    if (node.type === 'identifier' || node.type === 'comment') {
      const text = source.slice(node.start, node.end);
      if (!RECEIVER_NAMES.has(text)) addWords(words, text);
      continue;
    }
    if (node.type === 'string_content') {
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
