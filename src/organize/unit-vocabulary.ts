import type { SourceFileRecord, Unit } from '../graph/model.js';
import { terms } from '../text/identifier-words.js';

/** Where a word was found in a unit, and how much that place says about what the unit does. */
export const FIELD_WEIGHTS = {
  name: 3,
  owner: 2,
  fileName: 2,
  directory: 1,
  doc: 0.7,
  signature: 0.3,
  literals: 0.3,
} as const;

export type WeightedTerms = Map<string, number>;

function addAll(target: WeightedTerms, words: Iterable<string>, weight: number): void {
  for (const word of new Set(words)) target.set(word, (target.get(word) ?? 0) + weight);
}

/** The words of a unit, each weighted by every place it appears in: a word in both the name and the file name counts twice. */
export function unitTerms(unit: Unit): WeightedTerms {
  const found: WeightedTerms = new Map();
  const segments = unit.symbol.replace(/~\d+$/, '').split('.');
  const name = segments[segments.length - 1] ?? '';
  addAll(found, terms(name), FIELD_WEIGHTS.name);
  addAll(found, terms(segments.slice(0, -1).join(' ')), FIELD_WEIGHTS.owner);
  const pathParts = unit.file.split('/');
  const base = (pathParts[pathParts.length - 1] ?? '').replace(/\.[^.]+$/, '');
  addAll(found, terms(base), FIELD_WEIGHTS.fileName);
  addAll(found, terms(pathParts.slice(0, -1).filter((part) => part !== 'src' && part !== 'dist' && part !== 'packages').join(' ')), FIELD_WEIGHTS.directory);
  addAll(found, terms(unit.doc), FIELD_WEIGHTS.doc);
  addAll(found, terms(unit.signature), FIELD_WEIGHTS.signature);
  addAll(found, terms(unit.literals), FIELD_WEIGHTS.literals);
  return found;
}

/** Whether a package a file imports matches a skeleton entry: exact, or by prefix for entries ending in `/`. */
export function packageMatches(imported: string, pattern: string): boolean {
  return pattern.endsWith('/') ? imported.startsWith(pattern) : imported === pattern;
}

export function externalImportsByFile(files: readonly SourceFileRecord[]): Map<string, string[]> {
  return new Map(files.map((file) => [file.path, file.externalImports]));
}
