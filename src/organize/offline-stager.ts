import { createRequire } from 'node:module';
import graphology from 'graphology';
import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { expandUnambiguous } from '../text/harness-thesaurus.js';
import { terms } from '../text/identifier-words.js';
import type { StageDefinition } from './skeleton.js';
import { externalImportsByFile, packageMatches, unitTerms } from './unit-vocabulary.js';

const { UndirectedGraph } = graphology;
// The package is CommonJS whose typings declare an ES default export; require gives the function itself.
const louvain = createRequire(import.meta.url)('graphology-communities-louvain') as (typeof import('graphology-communities-louvain'))['default'];

/** Tuning of the offline stager, kept in one place. The values were set on the fixture and checked on real harnesses. */
const WEIGHTS = {
  synonym: 0.5,
  packageImport: 2,
  /** Share of the mean of a file's units added to each of them: a constant in compaction.ts is about compaction. */
  file: 0.5,
  community: 0.4,
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


/** A deterministic generator, so community detection gives the same partition on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The offline stager: no model, deterministic. Each unit gets a score per stage from its words
 * (name, path, doc, literals, with the harness thesaurus and inverse document frequency) and
 * from the packages its file imports; scores are then smoothed over call-graph communities
 * (Louvain) and propagated along calls, so a helper with a bland name joins the stage of the
 * code around it.
 */
export function assignStagesOffline(graph: ProgramGraph, skeleton: readonly StageDefinition[]): UnitAssignment[] {
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

  const unitTermList = units.map((unit) => unitTerms(unit));
  const documentFrequency = new Map<string, number>();
  for (const bag of unitTermList) for (const term of bag.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const inverse = (term: string): number => Math.log(1 + units.length / (documentFrequency.get(term) ?? 1));

  const importsByFile = externalImportsByFile(graph.toData().files);
  const scores = units.map((unit, position) => {
    const vector = new Float64Array(stageCount);
    for (const [term, fieldWeight] of unitTermList[position]!) {
      const idf = inverse(term);
      for (let stage = 0; stage < stageCount; stage += 1) {
        const hint = hintWeights[stage]!.get(term);
        if (hint) vector[stage]! += fieldWeight * idf * hint;
      }
    }
    const imports = importsByFile.get(unit.file) ?? [];
    skeleton.forEach((stage, index) => {
      if (stage.packages?.some((pattern) => imports.some((imported) => packageMatches(imported, pattern)))) vector[index]! += WEIGHTS.packageImport;
    });
    return vector;
  });

  addFilePrior(units, scores, stageCount);

  const positionOf = new Map(units.map((unit, position) => [unit.id, position]));
  const neighbours = units.map(() => [] as number[]);
  const callGraph = new UndirectedGraph();
  for (const unit of units) callGraph.addNode(unit.id);
  for (const edge of graph.edges) {
    if (edge.kind !== 'calls' && edge.kind !== 'references' && edge.kind !== 'instantiates') continue;
    const from = positionOf.get(edge.from);
    const to = positionOf.get(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    neighbours[from]!.push(to);
    neighbours[to]!.push(from);
    if (!callGraph.hasEdge(edge.from, edge.to)) callGraph.addEdge(edge.from, edge.to, { weight: edge.lines.length });
  }

  const smoothed = smoothOverCommunities(callGraph, units, scores, stageCount);
  const propagated = propagateAlongCalls(smoothed, neighbours, stageCount);

  return units.map((unit, position) => {
    const vector = propagated[position]!;
    let best = 0;
    for (let stage = 1; stage < stageCount; stage += 1) if (vector[stage]! > vector[best]!) best = stage;
    const top = vector[best]!;
    if (top < WEIGHTS.minimumScore) return { unit: unit.id, stages: [] };
    const total = vector.reduce((sum, value) => sum + value, 0);
    const chosen = [...vector.keys()]
      .filter((stage) => stage === best || (vector[stage]! >= top * WEIGHTS.secondaryShare && vector[stage]! >= WEIGHTS.minimumScore))
      .sort((a, b) => vector[b]! - vector[a]! || a - b);
    return {
      unit: unit.id,
      stages: chosen.map((stage) => ({ stage: skeleton[stage]!.id, score: Math.round((vector[stage]! / total) * 1000) / 1000 })),
    };
  });
}

function addFilePrior(units: Unit[], scores: Float64Array[], stageCount: number): void {
  const byFile = new Map<string, { sum: Float64Array; count: number }>();
  units.forEach((unit, position) => {
    let total = byFile.get(unit.file);
    if (!total) byFile.set(unit.file, (total = { sum: new Float64Array(stageCount), count: 0 }));
    total.count += 1;
    for (let stage = 0; stage < stageCount; stage += 1) total.sum[stage]! += scores[position]![stage]!;
  });
  const own = scores.map((vector) => Float64Array.from(vector));
  units.forEach((unit, position) => {
    const total = byFile.get(unit.file)!;
    if (total.count < 2) return;
    for (let stage = 0; stage < stageCount; stage += 1) scores[position]![stage]! += (WEIGHTS.file * (total.sum[stage]! - own[position]![stage]!)) / (total.count - 1);
  });
}

function smoothOverCommunities(callGraph: InstanceType<typeof UndirectedGraph>, units: Unit[], scores: Float64Array[], stageCount: number): Float64Array[] {
  if (callGraph.size === 0) return scores;
  const communities = louvain(callGraph, { getEdgeWeight: 'weight', rng: seededRandom(1), randomWalk: false });
  const totals = new Map<number, { sum: Float64Array; count: number }>();
  units.forEach((unit, position) => {
    const community = communities[unit.id]!;
    let total = totals.get(community);
    if (!total) totals.set(community, (total = { sum: new Float64Array(stageCount), count: 0 }));
    total.count += 1;
    for (let stage = 0; stage < stageCount; stage += 1) total.sum[stage]! += scores[position]![stage]!;
  });
  return units.map((unit, position) => {
    const total = totals.get(communities[unit.id]!)!;
    const vector = Float64Array.from(scores[position]!);
    if (total.count > 1) for (let stage = 0; stage < stageCount; stage += 1) vector[stage]! += (WEIGHTS.community * total.sum[stage]!) / total.count;
    return vector;
  });
}

function propagateAlongCalls(scores: Float64Array[], neighbours: number[][], stageCount: number): Float64Array[] {
  let current = scores;
  for (let round = 0; round < WEIGHTS.propagationRounds; round += 1) {
    current = current.map((_vector, position) => {
      const next = Float64Array.from(scores[position]!);
      const around = neighbours[position]!;
      if (around.length === 0) return next;
      for (const other of around) for (let stage = 0; stage < stageCount; stage += 1) next[stage]! += (WEIGHTS.propagation * current[other]![stage]!) / around.length;
      return next;
    });
  }
  return current;
}
