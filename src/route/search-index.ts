import { z } from 'zod';
import type { Unit } from '../graph/model.js';
import { terms } from '../text/identifier-words.js';

/** How much each place a word appears in says about what a unit does, for search. */
const FIELDS = { name: 3, owner: 2, fileName: 1.5, directory: 1, doc: 1, signature: 0.7, words: 0.5, literals: 0.4 } as const;
const K1 = 1.2;
const B = 0.5;

const termsOf = terms;

export const searchTermsSchema = z.object({
  weights: z.array(z.tuple([z.string(), z.number()])),
  names: z.array(z.string()),
  docs: z.array(z.string()),
});
/** A unit's search vocabulary, computed once at build and stored: weighted terms, name terms, doc terms. */
export type SearchTerms = z.infer<typeof searchTermsSchema>;


function isSearchTerms(value: unknown): value is SearchTerms {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return Array.isArray(candidate.weights) && Array.isArray(candidate.names) && Array.isArray(candidate.docs) &&
    candidate.weights.every((pair) => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number');
}

/**
 * Parses stored search terms; a row that does not parse is left out and recomputed from its
 * unit. A structural check instead of the zod schema: this runs on every ask over thousands of
 * rows, and zod tripled its cost; the schema still describes the format.
 */
export function parseStoredSearchTerms(rows: ReadonlyMap<string, string>): Map<string, SearchTerms> {
  const parsed = new Map<string, SearchTerms>();
  for (const [unit, text] of rows) {
    try {
      const value: unknown = JSON.parse(text);
      if (isSearchTerms(value)) parsed.set(unit, value);
    } catch {
      // Recomputed from the unit by the index.
    }
  }
  return parsed;
}

/** The words of a unit for search, each weighted by every place it appears in. */
export function searchTermsOf(unit: Unit): SearchTerms {
  const weights = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const term of new Set(termsOf(text))) weights.set(term, (weights.get(term) ?? 0) + weight);
  };
  const segments = unit.symbol.replace(/~\d+$/, '').split('.');
  add(segments[segments.length - 1] ?? '', FIELDS.name);
  add(segments.slice(0, -1).join(' '), FIELDS.owner);
  const parts = unit.file.split('/');
  add((parts[parts.length - 1] ?? '').replace(/\.[^.]+$/, ''), FIELDS.fileName);
  add(parts.slice(0, -1).join(' '), FIELDS.directory);
  add(unit.doc, FIELDS.doc);
  add(unit.signature, FIELDS.signature);
  add(unit.words, FIELDS.words);
  add(unit.literals, FIELDS.literals);
  return {
    weights: [...weights].map(([term, weight]) => [term, Math.round(weight * 100) / 100] as [string, number]),
    names: [...new Set(termsOf(unit.symbol.replace(/~\d+$/, '')))],
    docs: [...new Set(termsOf(unit.doc))],
  };
}

interface Document {
  unit: Unit;
  weights: Map<string, number>;
  nameTerms: Set<string>;
  docTerms: Set<string>;
  length: number;
}

/**
 * BM25 over units, each a bag of weighted words from its name, class, file, folder, doc,
 * signature, body identifiers and string literals; plus the co-occurrence of words in names
 * and docs, which teaches the index the repository's own vocabulary.
 */
export class UnitSearchIndex {
  private readonly documents: Document[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly averageLength: number;
  private readonly nameFrequency = new Map<string, number>();

  /** `stored` gives each unit's terms as the build computed them; a unit missing there is computed now. */
  constructor(units: readonly Unit[], stored: ReadonlyMap<string, SearchTerms> = new Map()) {
    for (const unit of units) {
      const terms = stored.get(unit.id) ?? searchTermsOf(unit);
      const weights = new Map(terms.weights);
      let length = 0;
      for (const weight of weights.values()) length += weight;
      const position = this.documents.length;
      this.documents.push({ unit, weights, nameTerms: new Set(terms.names), docTerms: new Set(terms.docs), length });
      for (const term of weights.keys()) {
        const list = this.postings.get(term);
        if (list) list.push(position);
        else this.postings.set(term, [position]);
      }
    }
    for (const document of this.documents) for (const term of document.nameTerms) this.nameFrequency.set(term, (this.nameFrequency.get(term) ?? 0) + 1);
    this.averageLength = this.documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, this.documents.length);
  }

  get size(): number {
    return this.documents.length;
  }

  unitAt(position: number): Unit {
    return this.documents[position]!.unit;
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** The query's own terms (not synonyms) found in a unit, strongest first: the "why" of a match. */
  matchedTerms(position: number, query: Map<string, number>, limit = 3): string[] {
    const weights = this.documents[position]!.weights;
    return [...query]
      .filter(([term]) => weights.has(term))
      .sort((a, b) => b[1] * weights.get(b[0])! - a[1] * weights.get(a[0])! || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([term]) => term);
  }

  /** BM25 of every unit for weighted query terms; units that match nothing score 0. */
  score(query: Map<string, number>): Float64Array {
    const scores = new Float64Array(this.documents.length);
    const total = this.documents.length;
    for (const [term, queryWeight] of query) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
      for (const position of list) {
        const document = this.documents[position]!;
        const frequency = document.weights.get(term)!;
        const normalized = (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * document.length) / this.averageLength));
        scores[position]! += queryWeight * idf * normalized;
      }
    }
    return scores;
  }

  /**
   * Words of unit names that go with `term` in names and doc comments more often than chance:
   * the repository's own vocabulary ("layer" in docs of units named "middleware").
   */
  companions(term: string, limit: number): string[] {
    const counts = new Map<string, number>();
    let withTerm = 0;
    for (const document of this.documents) {
      if (!document.nameTerms.has(term) && !document.docTerms.has(term)) continue;
      withTerm += 1;
      for (const other of document.nameTerms) if (other !== term) counts.set(other, (counts.get(other) ?? 0) + 1);
    }
    if (withTerm < 2) return [];
    return [...counts]
      .filter(([, count]) => count >= 2)
      .map(([other, count]) => [other, count / (this.nameFrequency.get(other) ?? 1)] as const)
      .filter(([, lift]) => lift >= 0.2)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([other]) => other);
  }
}
