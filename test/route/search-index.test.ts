import v8 from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Unit } from '../../src/graph/model.js';
import { packSearchIndex, type SearchTerms, searchTermsOf, UnitSearchIndex } from '../../src/route/search-index.js';

const K1 = 1.2;
const B = 0.5;

/**
 * BM25 and companions over plain maps, written the obvious way: the packed index must answer
 * exactly as this does, whatever the terms.
 */
class ReferenceIndex {
  private readonly documents: Array<{ weights: Map<string, number>; names: Set<string>; docs: Set<string>; length: number }>;

  constructor(terms: readonly SearchTerms[]) {
    this.documents = terms.map((entry) => {
      const weights = new Map(entry.weights);
      let length = 0;
      for (const weight of weights.values()) length += weight;
      return { weights, names: new Set(entry.names), docs: new Set(entry.docs), length };
    });
  }

  /** BM25, times the idf-weighted share of the query's groups a document matches, to a power. */
  score(query: Map<string, number>, groups: ReadonlyMap<string, string>, exponent: number): number[] {
    const total = this.documents.length;
    const average = this.documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, total);
    const idfOf = (term: string) => {
      const matching = this.documents.filter((document) => document.weights.has(term)).length;
      return matching === 0 ? undefined : Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
    };
    const scores = this.documents.map((document) => {
      let sum = 0;
      for (const [term, queryWeight] of query) {
        const idf = idfOf(term);
        const frequency = document.weights.get(term);
        if (idf === undefined || frequency === undefined) continue;
        sum += queryWeight * idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * document.length) / average)));
      }
      return sum;
    });
    const groupOf = (term: string) => groups.get(term) ?? term;
    const weightOf = new Map<string, number>();
    for (const term of query.keys()) {
      const idf = idfOf(term);
      if (idf !== undefined) weightOf.set(groupOf(term), Math.max(weightOf.get(groupOf(term)) ?? 0, idf));
    }
    const all = [...weightOf.values()].reduce((sum, weight) => sum + weight, 0);
    if (all === 0 || exponent === 0) return scores;
    return scores.map((score, position) => {
      const matched = new Set([...query.keys()].filter((term) => this.documents[position]!.weights.has(term)).map(groupOf));
      const covered = [...matched].reduce((sum, group) => sum + (weightOf.get(group) ?? 0), 0);
      return score * (covered / all) ** exponent;
    });
  }

  matchedTerms(position: number, query: Map<string, number>, limit: number): string[] {
    const weights = this.documents[position]!.weights;
    return [...query]
      .filter(([term]) => weights.has(term))
      .sort((a, b) => b[1] * weights.get(b[0])! - a[1] * weights.get(a[0])! || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([term]) => term);
  }

  /** The words the `documents` best-scoring documents share (two at least), by score-weighted share of their text times idf. */
  feedbackTerms(scores: readonly number[], documents: number, count: number, exclude: ReadonlySet<string>): Array<[string, number]> {
    const best = scores
      .map((score, position) => [score, position] as const)
      .filter(([score]) => score > 0)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, documents);
    if (best.length < 2) return [];
    const sum = best.reduce((total, [score]) => total + score, 0);
    const total = this.documents.length;
    const vocabulary = new Set(this.documents.flatMap((document) => [...document.weights.keys()]));
    const found = [...vocabulary]
      .filter((term) => !exclude.has(term) && best.filter(([, position]) => this.documents[position]!.weights.has(term)).length >= 2)
      .map((term) => {
        const matching = this.documents.filter((document) => document.weights.has(term)).length;
        const share = best.reduce((weight, [score, position]) => {
          const document = this.documents[position]!;
          return weight + ((score / sum) * (document.weights.get(term) ?? 0)) / document.length;
        }, 0);
        return [term, share * Math.log(1 + (total - matching + 0.5) / (matching + 0.5))] as [string, number];
      })
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return found.slice(0, count).map(([term, weight]) => [term, weight / found[0]![1]]);
  }

  /** BM25 of files (or folders: any grouping of documents), a file being its documents and a word counting once per document that has it, scaled to the best file's 1. */
  fileRelevance(files: readonly string[], terms: readonly string[]): Map<string, number> {
    const names = [...new Set(files)];
    const inFile = (name: string, term: string) => this.documents.filter((document, position) => files[position] === name && document.weights.has(term)).length;
    const lengthOf = (name: string) => this.documents.reduce((sum, document, position) => sum + (files[position] === name ? document.weights.size : 0), 0);
    const average = names.reduce((sum, name) => sum + lengthOf(name), 0) / names.length;
    const scores = names.map((name) => {
      let sum = 0;
      for (const term of new Set(terms)) {
        const frequency = inFile(name, term);
        if (frequency === 0) continue;
        const matching = names.filter((other) => inFile(other, term) > 0).length;
        const idf = Math.log(1 + (names.length - matching + 0.5) / (matching + 0.5));
        sum += idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - 0.75 + (0.75 * lengthOf(name)) / average)));
      }
      return sum;
    });
    const best = Math.max(0, ...scores);
    return new Map(names.flatMap((name, at) => (scores[at]! > 0 ? [[name, scores[at]! / best] as [string, number]] : [])));
  }

  companions(term: string, limit: number): string[] {
    const withTerm = this.documents.filter((document) => document.names.has(term) || document.docs.has(term));
    if (withTerm.length < 2) return [];
    const counts = new Map<string, number>();
    for (const document of withTerm) for (const other of document.names) if (other !== term) counts.set(other, (counts.get(other) ?? 0) + 1);
    const named = (other: string) => this.documents.filter((document) => document.names.has(other)).length;
    return [...counts]
      .filter(([, count]) => count >= 2)
      .map(([other, count]) => [other, count / named(other)] as const)
      .filter(([, lift]) => lift >= 0.2)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([other]) => other);
  }
}

function unitNamed(index: number): Unit {
  return { id: `src/u${index}.ts#u${index}`, kind: 'function', file: `src/u${index}.ts`, symbol: `u${index}`, startLine: 1, endLine: 2, signature: '', doc: '', exported: true, hash: '0', literals: '', words: '' };
}

const vocabulary = ['mask', 'secret', 'retry', 'loop', 'tool', 'call', 'shell', 'log', 'plan', 'stage'];
const termsArbitrary: fc.Arbitrary<SearchTerms> = fc.record({
  weights: fc.uniqueArray(fc.tuple(fc.constantFrom(...vocabulary), fc.integer({ min: 1, max: 400 }).map((weight) => weight / 100)), { selector: ([term]) => term, maxLength: 6 }),
  names: fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 3 }),
  docs: fc.uniqueArray(fc.constantFrom(...vocabulary), { maxLength: 4 }),
});
const queryArbitrary = fc.uniqueArray(fc.tuple(fc.constantFrom(...vocabulary, 'absent'), fc.constantFrom(1, 0.4, 0.25)), { selector: ([term]) => term, minLength: 1, maxLength: 5 });
/** Each query term is its own group or stands for one of the first query terms (a synonym of it). */
const groupsArbitrary = (terms: readonly string[]) => fc.tuple(...terms.map(() => fc.nat(2))).map((picks) => new Map(terms.map((term, at) => [term, terms[Math.min(picks[at]!, at)]!])));

describe('the packed search index', () => {
  it('scores, explains and finds companions as BM25 with word coverage over plain maps does, also after a round trip through V8 serialization', () => {
    fc.assert(
      fc.property(fc.array(termsArbitrary, { minLength: 1, maxLength: 25 }), queryArbitrary.chain((pairs) => fc.tuple(fc.constant(pairs), groupsArbitrary(pairs.map(([term]) => term)))), (terms, [queryPairs, groups]) => {
        const units = terms.map((_, position) => unitNamed(position));
        const stored = new Map(units.map((unit, position) => [unit.id, terms[position]!]));
        const query = new Map(queryPairs);
        const reference = new ReferenceIndex(terms);
        const packed = packSearchIndex(units, stored);
        const expected = reference.score(query, groups, 0.5);
        const plain = reference.score(query, new Map(), 0);
        for (const index of [new UnitSearchIndex(units, packed), new UnitSearchIndex(units, v8.deserialize(v8.serialize(packed)))]) {
          [...index.score(query)].forEach((score, position) => expect(score).toBeCloseTo(plain[position]!, 9));
          const scores = [...index.score(query, { groups, coverageExponent: 0.5 })];
          expect(scores.length).toBe(expected.length);
          scores.forEach((score, position) => expect(score).toBeCloseTo(expected[position]!, 9));
          for (let position = 0; position < units.length; position += 1) expect(index.matchedTerms(position, query, 3)).toEqual(reference.matchedTerms(position, query, 3));
          for (const term of [...vocabulary, 'absent']) expect(index.companions(term, 3)).toEqual(reference.companions(term, 3));
          const feedback = index.feedbackTerms(Float64Array.from(expected), { documents: 4, count: 3, exclude: new Set(query.keys()) });
          const expectedFeedback = reference.feedbackTerms(expected, 4, 3, new Set(query.keys()));
          expect(feedback.map(([term]) => term)).toEqual(expectedFeedback.map(([term]) => term));
          feedback.forEach(([, weight], at) => expect(weight).toBeCloseTo(expectedFeedback[at]![1], 9));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('learns feedback words as the reference does from many scored units, where only the best few are kept', () => {
    fc.assert(
      fc.property(fc.array(termsArbitrary, { minLength: 20, maxLength: 60 }), queryArbitrary, (terms, queryPairs) => {
        const units = terms.map((_, position) => unitNamed(position));
        const index = new UnitSearchIndex(units, packSearchIndex(units, new Map(units.map((unit, position) => [unit.id, terms[position]!]))));
        const query = new Map(queryPairs);
        const scores = index.score(query);
        const expected = new ReferenceIndex(terms).feedbackTerms([...scores], 3, 4, new Set(query.keys()));
        const found = index.feedbackTerms(scores, { documents: 3, count: 4, exclude: new Set(query.keys()) });
        expect(found.map(([term]) => term)).toEqual(expected.map(([term]) => term));
        found.forEach(([, weight], at) => expect(weight).toBeCloseTo(expected[at]![1], 9));
      }),
      { numRuns: 100 },
    );
  });

  it('learns the words the best matches share, not one match\'s own, for a second search', () => {
    const withWords = (position: number, words: string) => ({ ...unitNamed(position), words });
    const units = [withWords(0, 'retry backoff jitter'), withWords(1, 'retry backoff delay'), withWords(2, 'backoff'), withWords(3, 'render table'), withWords(4, 'retry')];
    const index = new UnitSearchIndex(units, packSearchIndex(units));
    const first = index.score(new Map([['retry', 1]]));
    const feedback = index.feedbackTerms(first, { documents: 3, count: 5, exclude: new Set(['retry']) });
    const terms = feedback.map(([term]) => term);
    expect(terms[0]).toBe('backoff');
    expect(feedback[0]![1]).toBe(1);
    // In one feedback unit only, or in the query already.
    expect(terms).not.toContain('jitter');
    expect(terms).not.toContain('delay');
    expect(terms).not.toContain('retry');
    expect(index.feedbackTerms(new Float64Array(units.length), { documents: 3, count: 5, exclude: new Set() })).toEqual([]);
  });

  it('scores files and folders as the reference does, each unit counting a word once', () => {
    const paths = ['src/a.ts', 'src/b.ts', 'lib/c.ts', 'lib/deep/d.ts', 'e.ts'];
    fc.assert(
      fc.property(fc.array(fc.tuple(termsArbitrary, fc.constantFrom(...paths)), { minLength: 1, maxLength: 25 }), fc.uniqueArray(fc.constantFrom(...vocabulary, 'absent'), { maxLength: 4 }), (entries, query) => {
        const units = entries.map(([, file], position) => ({ ...unitNamed(position), file }));
        const terms = entries.map(([entry]) => entry);
        const index = new UnitSearchIndex(units, packSearchIndex(units, new Map(units.map((unit, position) => [unit.id, terms[position]!]))));
        const folderOf = (file: string) => ({ 'src/a.ts': 'src', 'src/b.ts': 'src', 'lib/c.ts': 'lib', 'lib/deep/d.ts': 'lib/deep', 'e.ts': '' })[file]!;
        for (const [container, groupOf] of [['file', (file: string) => file], ['folder', folderOf]] as const) {
          const found = index.containerRelevance(container, query);
          const expected = new ReferenceIndex(terms).fileRelevance(units.map((unit) => groupOf(unit.file)), query);
          expect([...found.keys()].sort()).toEqual([...expected.keys()].sort());
          for (const [name, value] of expected) expect(found.get(name)).toBeCloseTo(value, 9);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('ranks the file whose units are about a word above a file where one unit mentions it', () => {
    const unit = (position: number, file: string, words: string) => ({ ...unitNamed(position), file, words });
    const units = [unit(0, 'src/retry.ts', 'retry delay'), unit(1, 'src/retry.ts', 'retry attempt'), unit(2, 'src/retry.ts', 'retry jitter'), unit(3, 'src/chat.ts', 'retry send'), unit(4, 'src/chat.ts', 'send stream'), unit(5, 'src/ui.ts', 'render')];
    const relevance = new UnitSearchIndex(units, packSearchIndex(units)).containerRelevance('file', ['retry', 'retry']);
    expect(relevance.get('src/retry.ts')).toBe(1);
    expect(relevance.get('src/chat.ts')).toBeGreaterThan(0);
    expect(relevance.get('src/chat.ts')).toBeLessThan(1);
    expect(relevance.has('src/ui.ts')).toBe(false);
    expect(new UnitSearchIndex(units, packSearchIndex(units)).containerRelevance('file', ['absent']).size).toBe(0);
  });

  it('computes the terms of a unit the build did not store', () => {
    const units = [unitNamed(0), { ...unitNamed(1), symbol: 'maskSecrets', id: 'src/u1.ts#maskSecrets', doc: 'Redacts credentials.' }];
    const index = new UnitSearchIndex(units, packSearchIndex(units, new Map([[units[0]!.id, searchTermsOf(units[0]!)]])));
    expect(index.has('mask')).toBe(true);
    expect(index.has('absent')).toBe(false);
    const scores = index.score(new Map([['mask', 1]]));
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[0]).toBe(0);
    expect(index.matchedTerms(1, new Map([['mask', 1], ['secret', 1], ['absent', 1]]))).toEqual(['mask', 'secret']);
  });
});
