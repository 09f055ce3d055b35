import { unitContentKey } from '../graph/content-hash.js';
import type { Edge, EdgeKind, Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { expandUnambiguous } from '../text/harness-thesaurus.js';
import { terms } from '../text/identifier-words.js';
import type { StageDefinition } from './skeleton.js';
import { externalImportsByFile, packageMatches, unitTerms, type WeightedTerms } from './unit-vocabulary.js';

/** Tuning of the offline stager, kept in one place. The values were set on the fixture and checked on real harnesses. */
const WEIGHTS = {
  synonym: 0.5,
  packageImport: 2,
  /**
   * Share of the mean of a file's units added to each of them: a constant in compaction.ts is about
   * compaction. 0.75, not 0.5, since the stages' hints name no vendor: a provider file's wire types
   * say only "message" and "block", and their file says what they serve (placement on the four
   * labelled repositories 0.526 → 0.536, bench:placement).
   */
  file: 0.75,
  propagation: 0.3,
  propagationRounds: 2,
  /** A unit whose best stage scores below this has no real signal and stays unassigned. */
  minimumScore: 1.2,
  /** Other stages within this share of the best become secondary memberships. */
  secondaryShare: 0.8,
} as const;

export interface UnitAssignment {
  unit: string;
  /** Stage ids, best first; the first is the primary stage. */
  stages: Array<{ stage: string; score: number }>;
}

/** The relations along which scores spread; organizing reads the same ones, by kind. */
const LINK_KINDS: readonly EdgeKind[] = ['calls', 'instantiates', 'references'];

/** What a run of the stager read besides word frequencies, and what it answered. */
interface StagerRun {
  units: readonly Unit[];
  own: readonly Float64Array[];
  /** Each placed edge as its kind and positions: kind, from, to, and again for the next edge. */
  links: Int32Array;
  /** The edges the links were placed from. */
  linkEdges: readonly Edge[];
  assignments: UnitAssignment[];
}

/** Each link edge as its kind and the positions of its ends among the units; edges to or from units not placed are left out. */
function placeLinks(units: readonly Unit[], edges: readonly Edge[]): Int32Array {
  const positionOf = new Map(units.map((unit, position) => [unit.id, position]));
  const placed: number[] = [];
  for (const edge of edges) {
    const from = positionOf.get(edge.from);
    const to = positionOf.get(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    placed.push(LINK_KINDS.indexOf(edge.kind), from, to);
  }
  return Int32Array.from(placed);
}

/** Whether the units sit at the same positions and the link edges join the same ends as last run: then the placed links are the same. */
function sameLinkEdges(run: StagerRun, units: readonly Unit[], edges: readonly Edge[]): boolean {
  if (run.units.length !== units.length || run.linkEdges.length !== edges.length) return false;
  for (let position = 0; position < units.length; position += 1) {
    const before = run.units[position]!;
    if (before !== units[position] && before.id !== units[position]!.id) return false;
  }
  for (let at = 0; at < edges.length; at += 1) {
    const before = run.linkEdges[at]!;
    const now = edges[at]!;
    if (before !== now && (before.kind !== now.kind || before.from !== now.from || before.to !== now.to)) return false;
  }
  return true;
}

function sameTerms(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((term, position) => term === b[position]));
}

function sameRun(run: StagerRun, units: readonly Unit[], own: readonly Float64Array[], links: Int32Array): boolean {
  if (run.units.length !== units.length || run.links.length !== links.length) return false;
  for (let position = 0; position < units.length; position += 1) {
    const before = run.units[position]!;
    const now = units[position]!;
    if (before !== now && (before.id !== now.id || before.file !== now.file)) return false;
    const a = run.own[position]!;
    const b = own[position]!;
    if (a !== b) for (let stage = 0; stage < a.length; stage += 1) if (a[stage] !== b[stage]) return false;
  }
  for (let at = 0; at < links.length; at += 1) if (run.links[at] !== links[at]) return false;
  return true;
}

interface TermEntry {
  unit: Unit;
  key: string;
  terms: WeightedTerms;
  /** The words some stage hints at, for one version of the hints. */
  hinted?: { version: number; terms: string[] };
}

/**
 * A unit's weighted words and own stage scores, kept across runs by unit id: a re-sync computes
 * them again only for the units that changed. Owned by whoever runs the stager repeatedly
 * (watch); optional. A unit object seen before is unchanged (analysis replaces the units of a
 * changed file, never edits them), so it is recognized without rebuilding its content key.
 */
export class UnitTermCache {
  private readonly terms = new Map<string, TermEntry>();
  private hints = '';
  private hintsVersion = 0;
  /** The last run's inputs past word frequencies (which `useContext` guards) and its answer. */
  lastRun: StagerRun | undefined;
  private readonly vectors = new Map<string, { unit: Unit; key: string; imports: string; vector: Float64Array }>();
  private context = '';

  /** A unit's word scores depend on corpus word frequencies and on the stages: when either moves, every cached score goes. */
  useContext(context: string): void {
    if (context === this.context) return;
    this.vectors.clear();
    this.lastRun = undefined;
    this.context = context;
  }

  /** The unit's own stage scores, computed again only when its content or its file's imports change. */
  vectorOf(unit: Unit, imports: string, compute: () => Float64Array): Float64Array {
    const cached = this.vectors.get(unit.id);
    if (cached && cached.imports === imports && (cached.unit === unit || cached.key === unitContentKey(unit))) {
      cached.unit = unit;
      return cached.vector;
    }
    const vector = compute();
    this.vectors.set(unit.id, { unit, key: unitContentKey(unit), imports, vector });
    return vector;
  }

  termsOf(unit: Unit): WeightedTerms {
    return this.entryOf(unit).terms;
  }

  /** The stage hints in use; the words of each unit that some hint names are kept for them. */
  useHints(hints: string): void {
    if (hints === this.hints) return;
    this.hints = hints;
    this.hintsVersion += 1;
  }

  private readonly counted = new Map<string, { unit: Unit; terms: readonly string[]; stamp: number }>();
  private readonly frequency = new Map<string, number>();
  private frequencyVersion = 0;
  private countedHints = -1;
  private stamp = 0;

  /**
   * How many of the units hold each hinted word, kept per unit: a re-sync counts again only the
   * units whose words changed. `version` moves whenever a count does.
   */
  frequencyOf(units: readonly Unit[], isHinted: (term: string) => boolean): { frequency: ReadonlyMap<string, number>; version: number } {
    if (this.countedHints !== this.hintsVersion) {
      this.counted.clear();
      this.frequency.clear();
      this.countedHints = this.hintsVersion;
      this.frequencyVersion += 1;
    }
    const stamp = (this.stamp += 1);
    let changed = false;
    const count = (terms: readonly string[], step: number): void => {
      for (const term of terms) {
        const now = (this.frequency.get(term) ?? 0) + step;
        if (now === 0) this.frequency.delete(term);
        else this.frequency.set(term, now);
      }
    };
    for (const unit of units) {
      const known = this.counted.get(unit.id);
      if (known?.unit === unit) {
        known.stamp = stamp;
        continue;
      }
      const terms = this.hintedTermsOf(unit, isHinted);
      if (known && sameTerms(known.terms, terms)) {
        known.unit = unit;
        known.stamp = stamp;
        continue;
      }
      if (known) count(known.terms, -1);
      count(terms, 1);
      this.counted.set(unit.id, { unit, terms, stamp });
      changed = true;
    }
    if (this.counted.size > units.length) {
      for (const [id, known] of this.counted) {
        if (known.stamp === stamp) continue;
        count(known.terms, -1);
        this.counted.delete(id);
        changed = true;
      }
    }
    if (changed) this.frequencyVersion += 1;
    return { frequency: this.frequency, version: this.frequencyVersion };
  }

  /** The unit's words that some stage hints at (`isHinted`, for the hints last given to useHints), in the order of its terms. */
  hintedTermsOf(unit: Unit, isHinted: (term: string) => boolean): string[] {
    const entry = this.entryOf(unit);
    if (entry.hinted?.version !== this.hintsVersion) entry.hinted = { version: this.hintsVersion, terms: [...entry.terms.keys()].filter(isHinted) };
    return entry.hinted.terms;
  }

  private entryOf(unit: Unit): TermEntry {
    const cached = this.terms.get(unit.id);
    if (cached && (cached.unit === unit || cached.key === unitContentKey(unit))) {
      cached.unit = unit;
      return cached;
    }
    const entry: TermEntry = { unit, key: unitContentKey(unit), terms: unitTerms(unit) };
    this.terms.set(unit.id, entry);
    return entry;
  }

  /** Forgets units no longer in the graph, so the cache never outgrows it. */
  retainOnly(ids: ReadonlySet<string>): void {
    for (const id of this.terms.keys()) if (!ids.has(id)) this.terms.delete(id);
    for (const id of this.vectors.keys()) if (!ids.has(id)) this.vectors.delete(id);
  }
}

/**
 * The offline stager: no model, deterministic. Each unit gets a score per stage from its words
 * (name, path, doc, literals, with the harness thesaurus and inverse document frequency) and
 * from the packages its file imports; scores are then shared across the unit's file and
 * propagated along calls, so a helper with a bland name joins the stage of the code around it.
 *
 * Every score is local (the unit, its file, its neighbours two calls away) apart from word
 * frequencies, so a re-sync can run it again over the whole graph in milliseconds and get what a
 * cold build gets. Louvain communities were used before; they cost a global pass and, measured
 * on both dev sets, changed neither stage sizes nor `ask` scores.
 */
export function assignStagesOffline(graph: ProgramGraph, skeleton: readonly StageDefinition[], cache: UnitTermCache = new UnitTermCache()): UnitAssignment[] {
  const units = graph.codeUnits();
  const stageCount = skeleton.length;
  const hintWeights = skeleton.map((stage) => {
    const weights = new Map<string, number>();
    for (const hint of stage.hints) {
      for (const term of terms(hint)) {
        for (const [position, related] of expandUnambiguous(term).entries()) {
          const weight = position === 0 ? 1 : WEIGHTS.synonym;
          weights.set(related, Math.max(weights.get(related) ?? 0, weight));
        }
      }
    }
    return weights;
  });

  // Only words some stage hints at can score; the rest are skipped before any lookup per stage.
  const hintsByTerm = new Map<string, Array<{ stage: number; weight: number }>>();
  hintWeights.forEach((weights, stage) => {
    for (const [term, weight] of weights) {
      let hints = hintsByTerm.get(term);
      if (!hints) hintsByTerm.set(term, (hints = []));
      hints.push({ stage, weight });
    }
  });
  const skeletonKey = JSON.stringify(skeleton);
  cache.useHints(skeletonKey);
  const isHinted = (term: string): boolean => hintsByTerm.has(term);
  const { frequency, version } = cache.frequencyOf(units, isHinted);
  const inverse = (term: string): number => Math.log(1 + units.length / (frequency.get(term) ?? 1));

  cache.useContext(`${units.length}\u0000${version}\u0000${skeletonKey}`);
  const importsByFile = externalImportsByFile(graph.toData().files);
  const importKeys = new Map([...importsByFile].map(([file, imports]) => [file, imports.join(' ')]));
  const own = units.map((unit) => {
    const imports = importsByFile.get(unit.file) ?? [];
    return cache.vectorOf(unit, importKeys.get(unit.file) ?? '', () => {
      const vector = new Float64Array(stageCount);
      for (const [term, fieldWeight] of cache.termsOf(unit)) {
        const hints = hintsByTerm.get(term);
        if (!hints) continue;
        const idf = inverse(term);
        for (const { stage, weight } of hints) vector[stage]! += fieldWeight * idf * weight;
      }
      skeleton.forEach((stage, index) => {
        if (stage.packages?.some((pattern) => imports.some((imported) => packageMatches(imported, pattern)))) vector[index]! += WEIGHTS.packageImport;
      });
      return vector;
    });
  });

  const linkEdges = graph.edgesOfKinds(LINK_KINDS);
  const links = cache.lastRun && sameLinkEdges(cache.lastRun, units, linkEdges) ? cache.lastRun.links : placeLinks(units, linkEdges);
  // The same units, own scores and links as last time give the same answer: a body edit that adds no word leaves all three.
  if (cache.lastRun && sameRun(cache.lastRun, units, own, links)) return cache.lastRun.assignments;

  // One flat array of unit × stage scores: a re-sync runs this over every unit, and an array per unit per pass was most of its cost.
  const scores = new Float64Array(units.length * stageCount);
  own.forEach((vector, position) => scores.set(vector, position * stageCount));
  addFilePrior(units, scores, stageCount);
  const neighbours = units.map(() => [] as number[]);
  for (let at = 0; at < links.length; at += 3) {
    neighbours[links[at + 1]!]!.push(links[at + 2]!);
    neighbours[links[at + 2]!]!.push(links[at + 1]!);
  }
  const propagated = propagateAlongCalls(scores, neighbours, stageCount);

  const assignments = units.map((unit, position) => {
    const vector = propagated.subarray(position * stageCount, (position + 1) * stageCount);
    let best = 0;
    for (let stage = 1; stage < stageCount; stage += 1) if (vector[stage]! > vector[best]!) best = stage;
    const top = vector[best]!;
    if (top < WEIGHTS.minimumScore) return { unit: unit.id, stages: [] };
    const total = vector.reduce((sum, value) => sum + value, 0);
    const chosen = [...Array(stageCount).keys()]
      .filter((stage) => stage === best || (vector[stage]! >= top * WEIGHTS.secondaryShare && vector[stage]! >= WEIGHTS.minimumScore))
      .sort((a, b) => vector[b]! - vector[a]! || a - b);
    return {
      unit: unit.id,
      stages: chosen.map((stage) => ({ stage: skeleton[stage]!.id, score: Math.round((vector[stage]! / total) * 1000) / 1000 })),
    };
  });
  cache.lastRun = { units, own, links, linkEdges, assignments };
  return assignments;
}

function addFilePrior(units: readonly Unit[], scores: Float64Array, stageCount: number): void {
  const byFile = new Map<string, { sum: Float64Array; count: number }>();
  units.forEach((unit, position) => {
    let total = byFile.get(unit.file);
    if (!total) byFile.set(unit.file, (total = { sum: new Float64Array(stageCount), count: 0 }));
    total.count += 1;
    for (let stage = 0; stage < stageCount; stage += 1) total.sum[stage]! += scores[position * stageCount + stage]!;
  });
  const own = Float64Array.from(scores);
  units.forEach((unit, position) => {
    const total = byFile.get(unit.file)!;
    if (total.count < 2) return;
    const at = position * stageCount;
    for (let stage = 0; stage < stageCount; stage += 1) scores[at + stage]! += (WEIGHTS.file * (total.sum[stage]! - own[at + stage]!)) / (total.count - 1);
  });
}

function propagateAlongCalls(scores: Float64Array, neighbours: number[][], stageCount: number): Float64Array {
  let current = scores;
  for (let round = 0; round < WEIGHTS.propagationRounds; round += 1) {
    const next = Float64Array.from(scores);
    neighbours.forEach((around, position) => {
      if (around.length === 0) return;
      const at = position * stageCount;
      for (const other of around) {
        const from = other * stageCount;
        for (let stage = 0; stage < stageCount; stage += 1) next[at + stage]! += (WEIGHTS.propagation * current[from + stage]!) / around.length;
      }
    });
    current = next;
  }
  return current;
}
