import { z } from 'zod';
import type { Unit } from '../graph/model.js';
import { terms } from '../text/identifier-words.js';

/** How much each place a word appears in says about what a unit does, for search. */
const FIELDS = { name: 3, owner: 2, fileName: 1.5, directory: 1, doc: 1, signature: 0.7, words: 0.5, literals: 0.4 } as const;
const K1 = 1.2;
const B = 0.5;
/** Files and folders are scored as plain BM25 documents, with the usual length normalization. */
const CONTAINER_B = 0.75;

/** What holds a unit, for judging it by its surroundings: its file, or its file's folder. */
export type Container = 'file' | 'folder';

interface Containers {
  names: string[];
  /** Per document, the index of its container in `names`. */
  of: Int32Array;
  length: Float64Array;
  averageLength: number;
}

/** A file's folder is its path up to the last slash; a file at the root is in the folder ''. */
export function containerOf(container: Container, file: string): string {
  return container === 'file' ? file : file.slice(0, Math.max(0, file.lastIndexOf('/')));
}

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

/**
 * The index in flat arrays, which a routing snapshot stores and reads back as they are: term ids
 * index the dictionary, document positions the unit ids.
 */
export interface PackedSearchIndex {
  unitIds: string[];
  terms: string[];
  /** Per term, where its postings start in postingDocument/postingWeight (one more entry than terms). */
  postingStart: Int32Array;
  /** Document positions, ascending within each term's run. */
  postingDocument: Int32Array;
  postingWeight: Float64Array;
  documentLength: Float64Array;
  /** Per document, how many distinct terms it has (its postings). */
  documentTerms: Int32Array;
  /** Per document, where its name term ids start in nameTerm (one more entry than documents). */
  nameStart: Int32Array;
  nameTerm: Int32Array;
  /** Per term, where the documents that name it or mention it in their doc start in mentionDocument. */
  mentionStart: Int32Array;
  mentionDocument: Int32Array;
  /** Per term, how many documents have it in their name. */
  nameFrequency: Int32Array;
}

/** Lays out units' search terms (stored by the build, or computed now for a unit missing there) as a PackedSearchIndex. */
export function packSearchIndex(units: readonly Unit[], stored: ReadonlyMap<string, SearchTerms> = new Map()): PackedSearchIndex {
  const termIds = new Map<string, number>();
  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) termIds.set(term, (id = termIds.size));
    return id;
  };
  const postings: Array<Array<[number, number]>> = [];
  const mentions: number[][] = [];
  const documentLength = new Float64Array(units.length);
  const documentTerms = new Int32Array(units.length);
  const nameStart = new Int32Array(units.length + 1);
  const nameTerms: number[] = [];
  units.forEach((unit, position) => {
    const terms = stored.get(unit.id) ?? searchTermsOf(unit);
    let length = 0;
    let postingCount = 0;
    for (const [term, weight] of new Map(terms.weights)) {
      const id = idOf(term);
      (postings[id] ??= []).push([position, weight]);
      length += weight;
      postingCount += 1;
    }
    documentLength[position] = length;
    documentTerms[position] = postingCount;
    const named = new Set(terms.names.map(idOf));
    nameTerms.push(...named);
    nameStart[position + 1] = nameTerms.length;
    for (const id of new Set([...named, ...terms.docs.map(idOf)])) (mentions[id] ??= []).push(position);
  });
  const termCount = termIds.size;
  const postingStart = new Int32Array(termCount + 1);
  const mentionStart = new Int32Array(termCount + 1);
  for (let id = 0; id < termCount; id += 1) {
    postingStart[id + 1] = postingStart[id]! + (postings[id]?.length ?? 0);
    mentionStart[id + 1] = mentionStart[id]! + (mentions[id]?.length ?? 0);
  }
  const postingDocument = new Int32Array(postingStart[termCount]!);
  const postingWeight = new Float64Array(postingStart[termCount]!);
  const mentionDocument = new Int32Array(mentionStart[termCount]!);
  for (let id = 0; id < termCount; id += 1) {
    (postings[id] ?? []).forEach(([position, weight], offset) => {
      postingDocument[postingStart[id]! + offset] = position;
      postingWeight[postingStart[id]! + offset] = weight;
    });
    mentionDocument.set(mentions[id] ?? [], mentionStart[id]!);
  }
  const nameFrequency = new Int32Array(termCount);
  for (const id of nameTerms) nameFrequency[id]! += 1;
  return {
    unitIds: units.map((unit) => unit.id),
    terms: [...termIds.keys()],
    postingStart,
    postingDocument,
    postingWeight,
    documentLength,
    documentTerms,
    nameStart,
    nameTerm: Int32Array.from(nameTerms),
    mentionStart,
    mentionDocument,
    nameFrequency,
  };
}

/**
 * BM25 over units, each a bag of weighted words from its name, class, file, folder, doc,
 * signature, body identifiers and string literals; plus the co-occurrence of words in names
 * and docs, which teaches the index the repository's own vocabulary.
 */
export class UnitSearchIndex {
  private readonly termIds = new Map<string, number>();
  private readonly averageLength: number;
  private readonly containers = new Map<Container, Containers>();

  /** `units` are the packed index's documents, in its order. */
  constructor(private readonly units: readonly Unit[], private readonly packed: PackedSearchIndex) {
    packed.terms.forEach((term, id) => this.termIds.set(term, id));
    let total = 0;
    for (const length of packed.documentLength) total += length;
    this.averageLength = total / Math.max(1, units.length);
  }

  get size(): number {
    return this.units.length;
  }

  unitAt(position: number): Unit {
    return this.units[position]!;
  }

  has(term: string): boolean {
    const id = this.termIds.get(term);
    return id !== undefined && this.packed.postingStart[id + 1]! > this.packed.postingStart[id]!;
  }

  /** The weight of a term in one document, if it has the term: a binary search of the term's postings. */
  private weightIn(id: number, position: number): number | undefined {
    const { postingStart, postingDocument, postingWeight } = this.packed;
    let low = postingStart[id]!;
    let high = postingStart[id + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const found = postingDocument[middle]!;
      if (found === position) return postingWeight[middle]!;
      if (found < position) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** The query's own terms (not synonyms) found in a unit, strongest first: the "why" of a match. */
  matchedTerms(position: number, query: Map<string, number>, limit = 3): string[] {
    const found: Array<[string, number]> = [];
    for (const [term, queryWeight] of query) {
      const id = this.termIds.get(term);
      const weight = id === undefined ? undefined : this.weightIn(id, position);
      if (weight !== undefined) found.push([term, queryWeight * weight]);
    }
    return found
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([term]) => term);
  }

  /**
   * BM25 of every unit for weighted query terms, times the share of the request's words the unit
   * covers (each word with its synonyms and companions, `groups`, weighted by its rarest term's
   * inverse document frequency), to the power `coverageExponent` (0: plain BM25): a long request
   * names many common words ("tool", "call", "agent"), and a unit that piles up matches of those
   * should not outrank one that matches the rare words that say what the request is about. Units
   * that match nothing score 0.
   */
  score(query: Map<string, number>, options: { groups?: ReadonlyMap<string, string>; coverageExponent?: number } = {}): Float64Array {
    const groups = options.groups ?? new Map<string, string>();
    const exponent = options.coverageExponent ?? 0;
    const { postingStart, postingDocument, postingWeight, documentLength } = this.packed;
    const total = this.units.length;
    const scores = new Float64Array(total);
    const groupWeight = new Map<string, number>();
    const termsOfGroup = new Map<string, number[]>();
    for (const [term, queryWeight] of query) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const start = postingStart[id]!;
      const end = postingStart[id + 1]!;
      if (end === start) continue;
      const idf = inverseDocumentFrequency(total, end - start);
      const group = groups.get(term) ?? term;
      groupWeight.set(group, Math.max(groupWeight.get(group) ?? 0, idf));
      const ids = termsOfGroup.get(group);
      if (ids) ids.push(id);
      else termsOfGroup.set(group, [id]);
      for (let at = start; at < end; at += 1) {
        const position = postingDocument[at]!;
        const frequency = postingWeight[at]!;
        scores[position]! += queryWeight * idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * documentLength[position]!) / this.averageLength)));
      }
    }
    if (exponent === 0 || termsOfGroup.size === 0) return scores;
    // A group's weight is its rarest term's, known only once every term is seen; each unit counts a group once.
    const coverage = new Float64Array(total);
    const lastGroup = new Int32Array(total).fill(-1);
    let allWeight = 0;
    let groupIndex = 0;
    for (const [group, ids] of termsOfGroup) {
      const weight = groupWeight.get(group)!;
      allWeight += weight;
      for (const id of ids) {
        for (let at = postingStart[id]!; at < postingStart[id + 1]!; at += 1) {
          const position = postingDocument[at]!;
          if (lastGroup[position] === groupIndex) continue;
          lastGroup[position] = groupIndex;
          coverage[position]! += weight;
        }
      }
      groupIndex += 1;
    }
    for (let position = 0; position < total; position += 1) scores[position]! *= (coverage[position]! / allWeight) ** exponent;
    return scores;
  }

  /**
   * BM25 of each file (or folder) for the given terms, a file being the units it holds and a
   * word counting once per unit that has it, scaled to the best one's 1 (those that match nothing
   * are absent). A unit is judged by where it stands too: a helper named for a detail sits in the
   * file, and the folder, that is about the behaviour, whose other units say so.
   */
  containerRelevance(container: Container, terms: Iterable<string>): Map<string, number> {
    const containers = this.containersOf(container);
    const { postingStart, postingDocument } = this.packed;
    const scores = new Float64Array(containers.names.length);
    const counts = new Int32Array(containers.names.length);
    for (const term of new Set(terms)) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const touched: number[] = [];
      for (let at = postingStart[id]!; at < postingStart[id + 1]!; at += 1) {
        const holder = containers.of[postingDocument[at]!]!;
        if (counts[holder] === 0) touched.push(holder);
        counts[holder]! += 1;
      }
      const idf = inverseDocumentFrequency(containers.names.length, touched.length);
      for (const holder of touched) {
        const frequency = counts[holder]!;
        scores[holder]! += idf * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - CONTAINER_B + (CONTAINER_B * containers.length[holder]!) / containers.averageLength)));
        counts[holder] = 0;
      }
    }
    let best = 0;
    for (const value of scores) best = Math.max(best, value);
    const relevance = new Map<string, number>();
    if (best === 0) return relevance;
    scores.forEach((value, holder) => {
      if (value > 0) relevance.set(containers.names[holder]!, value / best);
    });
    return relevance;
  }

  /** Each document's file or folder, and each one's length: the words of its units, each unit counting a word once. */
  private containersOf(container: Container): Containers {
    const known = this.containers.get(container);
    if (known) return known;
    const ids = new Map<string, number>();
    const of = new Int32Array(this.units.length);
    this.units.forEach((unit, position) => {
      const name = containerOf(container, unit.file);
      let id = ids.get(name);
      if (id === undefined) ids.set(name, (id = ids.size));
      of[position] = id;
    });
    const length = new Float64Array(ids.size);
    this.packed.documentTerms.forEach((count, position) => {
      length[of[position]!]! += count;
    });
    let total = 0;
    for (const value of length) total += value;
    const containers = { names: [...ids.keys()], of, length, averageLength: total / Math.max(1, ids.size) };
    this.containers.set(container, containers);
    return containers;
  }

  /**
   * Pseudo-relevance feedback (after RM3): the words that the best-scoring units share, which
   * name the behaviour in the repository's own terms when the request used other ones ("try
   * again" finds code that says "retry" and "backoff"). Each word is weighted by how much of the
   * feedback units' text it makes up, their scores weighing in, times its inverse document
   * frequency; a word must appear in at least two of them, so one unit's quirks do not spread.
   * Returns up to `count` words not in `exclude`, best first, weights scaled to the best's 1.
   */
  feedbackTerms(scores: Float64Array, options: { documents: number; count: number; exclude: ReadonlySet<string> }): Array<[string, number]> {
    const best = topPositions(scores, options.documents);
    if (best.length < 2) return [];
    const share = new Float64Array(scores.length);
    let sum = 0;
    for (const position of best) sum += scores[position]!;
    for (const position of best) share[position] = scores[position]! / sum;
    const { postingStart, postingDocument, postingWeight, documentLength, terms } = this.packed;
    const total = this.units.length;
    const found: Array<[string, number]> = [];
    for (let id = 0; id < terms.length; id += 1) {
      const start = postingStart[id]!;
      const end = postingStart[id + 1]!;
      let weight = 0;
      let documents = 0;
      for (let at = start; at < end; at += 1) {
        const position = postingDocument[at]!;
        const part = share[position]!;
        if (part === 0) continue;
        weight += (part * postingWeight[at]!) / documentLength[position]!;
        documents += 1;
      }
      if (documents < 2 || options.exclude.has(terms[id]!)) continue;
      found.push([terms[id]!, weight * inverseDocumentFrequency(total, end - start)]);
    }
    found.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = found[0]?.[1] ?? 1;
    return found.slice(0, options.count).map(([term, weight]) => [term, weight / top]);
  }

  /**
   * Words of unit names that go with `term` in names and doc comments more often than chance:
   * the repository's own vocabulary ("layer" in docs of units named "middleware").
   */
  companions(term: string, limit: number): string[] {
    const id = this.termIds.get(term);
    if (id === undefined) return [];
    const { mentionStart, mentionDocument, nameStart, nameTerm, nameFrequency, terms } = this.packed;
    const withTerm = mentionStart[id + 1]! - mentionStart[id]!;
    if (withTerm < 2) return [];
    const counts = new Map<number, number>();
    for (let at = mentionStart[id]!; at < mentionStart[id + 1]!; at += 1) {
      const position = mentionDocument[at]!;
      for (let name = nameStart[position]!; name < nameStart[position + 1]!; name += 1) {
        const other = nameTerm[name]!;
        if (other !== id) counts.set(other, (counts.get(other) ?? 0) + 1);
      }
    }
    return [...counts]
      .filter(([, count]) => count >= 2)
      .map(([other, count]) => [terms[other]!, count / (nameFrequency[other] || 1)] as const)
      .filter(([, lift]) => lift >= 0.2)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([other]) => other);
  }
}

/** BM25's inverse document frequency of a term found in `matching` of `total` documents. */
function inverseDocumentFrequency(total: number, matching: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

/** The positions of the `count` highest positive scores, best first (ties by position). */
function topPositions(scores: Float64Array, count: number): number[] {
  const order = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
  let kept: number[] = [];
  for (let position = 0; position < scores.length; position += 1) {
    if (!(scores[position]! > 0)) continue;
    kept.push(position);
    if (kept.length >= count * 4) kept = kept.sort(order).slice(0, count);
  }
  return kept.sort(order).slice(0, count);
}
