import type { EdgeKind, Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { OrganizedHandbook } from '../organize/model.js';
import type { ParsedRequest } from './request-terms.js';
import { containerOf, type UnitSearchIndex } from './search-index.js';
import { shortName } from '../graph/unit-name.js';
import { splitWords } from '../text/identifier-words.js';
import { languageOfPath } from '../analyze/languages.js';

/** Tuning of the router, in one place. */
const ROUTING = {
  /** How strongly a unit's share of the request's words weighs against piling up matches of a few (see UnitSearchIndex.score). */
  coverageExponent: 0.5,
  companionWeight: 0.25,
  companionsPerTerm: 3,
  /** Pseudo-relevance feedback: the best units of a first search lend this many of their shared words… */
  feedbackTerms: 10,
  /** …taken from this many units… */
  feedbackDocuments: 10,
  /** …at this weight for the strongest of them, for a second search. */
  feedbackWeight: 0.3,
  stagesPicked: 3,
  stageBoost: 0.5,
  coupledStageBoost: 0.2,
  seeds: 25,
  callee: 0.35,
  caller: 0.35,
  crossCuttingCaller: 0.75,
  sibling: 0.5,
  state: 0.25,
  /** An expanded neighbour keeps this much of its path's score even if its own words say nothing. */
  relevanceFloor: 0.3,
  /**
   * How much a location's file and its folder, each scored as a whole for the request's own
   * words, add to it: at most these shares, for the best file and the best folder.
   */
  fileEvidence: 1,
  folderEvidence: 0.5,
  /** Examples, evals, scripts and docs show how a harness is used; the request is about the harness itself. */
  peripheral: 0.5,
  /**
   * A language holding less than this share of the repository's searchable units is a side of it
   * (an SDK port, build scripts, a web page beside a CLI): the request is about the main code…
   */
  minorityShare: 0.2,
  /** …so that language's locations keep this much of their score, as peripheral folders do. */
  minorityLanguage: 0.5,
  /** Locations of one file ranked at their full score. */
  perFile: 3,
  /** What each further location of a file keeps of its score, compounding. */
  perFileDecay: 0.7,
} as const;

/** The relations routing follows (and the state register needs): a handbook opened for `ask` reads only these. */
export const ROUTED_EDGE_KINDS: readonly EdgeKind[] = ['calls', 'references', 'reads', 'writes', 'implements', 'extends'];

/** Behaviour is done in functions; declarations of data and types mostly describe it. */
const KIND_WEIGHT: Record<string, number> = { function: 1, method: 1, property: 1, constructor: 0.9, accessor: 0.9, class: 0.9, variable: 0.85, enum: 0.8, interface: 0.8, type: 0.8 };

/** Folders whose code accompanies a harness rather than implementing it. */
export const PERIPHERAL_FOLDERS: readonly string[] = ['example', 'examples', 'eval', 'evals', 'benchmark', 'benchmarks', 'scripts', 'docs', 'fixtures', 'testing', 'internal'];
const PERIPHERAL = new RegExp(`(^|/)(${PERIPHERAL_FOLDERS.join('|')})/`);

/** How a request was routed, for `ask --explain`: the words searched, the stages picked, the seeds expanded. */
export interface RouteTrace {
  /** Terms searched with their weights: the request's own (1), thesaurus synonyms and repository companions (less). */
  terms: Array<{ term: string; weight: number; source: 'request' | 'thesaurus' | 'repository' | 'feedback' }>;
  stages: string[];
  /** Stages added because they share state with a picked stage. */
  coupledStages: string[];
  crossCutting: boolean;
  seeds: string[];
  /** The files and folders most about the request's own words, best first, that lift the locations they hold. */
  files: string[];
  folders: string[];
}

export interface RoutedLocation {
  unit: Unit;
  stage: string | undefined;
  score: number;
  why: string;
}


/**
 * Routes a behaviour request down the handbook: request words (with the thesaurus and the
 * repository's own companions) → stages whose members and descriptions match → stages coupled
 * to them through shared state → units ranked by BM25 with a stage prior → expansion along
 * calls, callers (every caller of a sink when the request is cross-cutting), sibling
 * implementations and shared state. Deterministic; no model.
 */
export function routeRequest(
  request: ParsedRequest,
  graph: ProgramGraph,
  organized: OrganizedHandbook,
  /** The stages each shared state slot couples (the state register, reduced to what routing follows). */
  stageCoupling: readonly (readonly string[])[],
  index: UnitSearchIndex,
): { locations: RoutedLocation[]; trace: RouteTrace } {
  const query = new Map(request.terms);
  const groups = new Map(request.groups);
  const companions = new Set<string>();
  for (const [term, weight] of request.terms) {
    if (weight < 1) continue;
    for (const companion of index.companions(term, ROUTING.companionsPerTerm)) {
      if (query.has(companion)) continue;
      query.set(companion, ROUTING.companionWeight);
      groups.set(companion, request.groups.get(term) ?? term);
      companions.add(companion);
    }
  }
  // A cross-cutting request names a behaviour and the family of places that need it: the
  // behaviour's own code matches only the first half of its words, so coverage does not count there.
  const coverageExponent = request.crossCutting ? 0 : ROUTING.coverageExponent;
  const firstPass = index.score(query, { groups, coverageExponent });
  // Each feedback word is a group of its own, weighing in coverage at its full inverse document
  // frequency though it searches at 0.3 at most: a unit that has the repository's words for the
  // behaviour covers more of it (scaling those groups by the search weight measured worse:
  // gemini-cli hit@5 0.67 → 0.60). A cross-cutting request's best matches are the family of
  // sites (tools, providers), whose shared words would pull the search away from the behaviour.
  const feedback = new Set<string>();
  const learned = request.crossCutting ? [] : index.feedbackTerms(firstPass, { documents: ROUTING.feedbackDocuments, count: ROUTING.feedbackTerms, exclude: new Set(query.keys()) });
  for (const [term, weight] of learned) {
    query.set(term, ROUTING.feedbackWeight * weight);
    groups.set(term, term);
    feedback.add(term);
  }
  const lexical = feedback.size === 0 ? firstPass : index.score(query, { groups, coverageExponent });
  const trace: RouteTrace = {
    terms: [...query].map(([term, weight]) => ({
      term,
      weight,
      source: weight === 1 ? 'request' : feedback.has(term) ? 'feedback' : companions.has(term) ? 'repository' : 'thesaurus',
    })),
    stages: [],
    coupledStages: [],
    crossCutting: request.crossCutting,
    seeds: [],
    files: [],
    folders: [],
  };
  let maxLexical = 0;
  for (const value of lexical) maxLexical = Math.max(maxLexical, value);
  if (maxLexical === 0) return { locations: [], trace };

  const positionOf = new Map<string, number>();
  for (let position = 0; position < index.size; position += 1) positionOf.set(index.unitAt(position).id, position);
  const primaryStageOf = new Map<string, string>();
  for (const stage of organized.stages) for (const member of stage.members) if (member.primary) primaryStageOf.set(member.unit, stage.id);

  // Stages: the summed relevance of their best members.
  const stageScore = new Map<string, number>();
  for (const stage of organized.stages) {
    const values = stage.members.filter((member) => member.primary).map((member) => lexical[positionOf.get(member.unit) ?? -1] ?? 0).sort((a, b) => b - a).slice(0, 10);
    stageScore.set(stage.id, values.reduce((sum, value) => sum + value, 0));
  }
  const picked = [...stageScore].filter(([, value]) => value > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, ROUTING.stagesPicked).map(([id]) => id);
  const stageWeight = new Map<string, number>(picked.map((id, rank) => [id, ROUTING.stageBoost / (rank + 1)]));
  const pickedSet = new Set(picked);
  for (const stages of stageCoupling) {
    if (!stages.some((id) => pickedSet.has(id))) continue;
    for (const id of stages) if (!stageWeight.has(id)) stageWeight.set(id, ROUTING.coupledStageBoost);
  }
  trace.stages = picked;
  trace.coupledStages = [...stageWeight.keys()].filter((id) => !pickedSet.has(id)).sort();

  // A lexical match explains itself only if it is shown: naming the matched words of thousands of units costs more than routing them.
  const score = new Map<string, { value: number; why: string | (() => string) }>();
  const offer = (id: string, value: number, why: string | (() => string)) => {
    const current = score.get(id);
    if (!current || value > current.value) score.set(id, { value, why });
  };
  const aside = sideOf(index);
  for (let position = 0; position < index.size; position += 1) {
    const value = lexical[position]!;
    if (value <= 0) continue;
    const unit = index.unitAt(position);
    const stage = primaryStageOf.get(unit.id);
    const boosted = (value / maxLexical) * (1 + (stage ? stageWeight.get(stage) ?? 0 : 0)) * aside(unit.file) * (KIND_WEIGHT[unit.kind] ?? 1);
    offer(unit.id, boosted, () => {
      const matched = `matches ${index.matchedTerms(position, query).join(', ')}`;
      return stage ? `stage ${stage} → ${shortName(unit.id)} ${matched}` : `${shortName(unit.id)} ${matched}`;
    });
  }

  const relevance = (id: string) => {
    const position = positionOf.get(id);
    return ROUTING.relevanceFloor + (position === undefined ? 0 : lexical[position]! / maxLexical);
  };
  const seeds = [...score].sort((a, b) => b[1].value - a[1].value || (a[0] < b[0] ? -1 : 1)).slice(0, ROUTING.seeds);
  trace.seeds = seeds.map(([id]) => id);
  let families: Map<string, string[]> | undefined;
  for (const [id, { value }] of seeds) {
    const name = shortName(id);
    for (const callee of graph.callees(id)) {
      if (positionOf.has(callee.unit.id)) offer(callee.unit.id, value * ROUTING.callee * relevance(callee.unit.id), `${name} → calls ${shortName(callee.unit.id)}`);
    }
    const callers = graph.callers(id).concat(graph.referrers(id));
    for (const caller of callers) {
      if (!positionOf.has(caller.unit.id)) continue;
      const factor = request.crossCutting ? ROUTING.crossCuttingCaller : ROUTING.caller * relevance(caller.unit.id);
      offer(caller.unit.id, value * factor, `${name} ← called by ${shortName(caller.unit.id)}`);
    }
    for (const sibling of siblingsOf(graph, id)) {
      if (!positionOf.has(sibling)) continue;
      const factor = request.crossCutting ? ROUTING.sibling * 1.5 : ROUTING.sibling * relevance(sibling);
      offer(sibling, value * factor, `${name} ↔ sibling implementation ${shortName(sibling)}`);
    }
    // A family by name counts as siblings only where the request asks for every member.
    if (request.crossCutting) {
      for (const namesake of namesakesOf(graph, id, (families ??= nameFamilies(index)))) {
        if (positionOf.has(namesake)) offer(namesake, value * ROUTING.sibling * 1.5, `${name} ↔ named alike ${shortName(namesake)}`);
      }
    }
    for (const slot of slotsTouched(graph, id)) {
      for (const access of [...graph.writers(slot), ...graph.readers(slot)]) {
        if (access.unit.id === id || !positionOf.has(access.unit.id)) continue;
        offer(access.unit.id, value * ROUTING.state * relevance(access.unit.id), `${name} shares state ${shortName(slot)} with ${shortName(access.unit.id)}`);
      }
    }
  }

  // Only the request's own words: with synonyms too, files full of common code words passed for ones about the behaviour (gemini-cli hit@5 0.73 → 0.67).
  const fileRelevance = index.containerRelevance('file', request.own);
  const folderRelevance = index.containerRelevance('folder', request.own);
  trace.files = strongest(fileRelevance, TRACED_CONTAINERS);
  trace.folders = strongest(folderRelevance, TRACED_CONTAINERS);
  const surroundings = (file: string) =>
    (1 + ROUTING.fileEvidence * (fileRelevance.get(file) ?? 0)) * (1 + ROUTING.folderEvidence * (folderRelevance.get(containerOf('folder', file)) ?? 0));
  const ranked = [...score]
    .map(([id, { value, why }]) => {
      const unit = graph.getUnit(id)!;
      let explained = why;
      return {
        unit,
        stage: primaryStageOf.get(id),
        score: value * aside(unit.file) * surroundings(unit.file),
        get why(): string {
          if (typeof explained !== 'string') explained = explained();
          return explained;
        },
      };
    })
    .sort((a, b) => b.score - a.score || (a.unit.id < b.unit.id ? -1 : 1));
  return { locations: diversify(ranked), trace };
}

/**
 * What a location keeps of its score for lying aside from the harness's main code: in a
 * peripheral folder, or in a language that holds a small share of the repository's units.
 */
function sideOf(index: UnitSearchIndex): (file: string) => number {
  const counts = new Map<string, number>();
  for (let position = 0; position < index.size; position += 1) {
    const language = languageOfPath(index.unitAt(position).file) ?? '';
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const minority = new Set([...counts].filter(([, count]) => count < ROUTING.minorityShare * index.size).map(([language]) => language));
  return (file) => (PERIPHERAL.test(file) ? ROUTING.peripheral : 1) * (minority.size > 0 && minority.has(languageOfPath(file) ?? '') ? ROUTING.minorityLanguage : 1);
}

/** How many of the files and folders most about a request `--explain` names. */
const TRACED_CONTAINERS = 3;

function strongest(relevance: ReadonlyMap<string, number>, count: number): string[] {
  return [...relevance].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([name]) => name);
}

/**
 * Lets a few locations of one file through at full score, then lowers each further one of that
 * file a step more: a behaviour spread over files should show the files, not ten methods of the
 * first one, yet a strong further method of a file still ranks above weak matches elsewhere.
 * Takes locations best first and sets their scores to the lowered ones.
 */
export function diversify(ranked: readonly RoutedLocation[]): RoutedLocation[] {
  const perFile = new Map<string, number>();
  return ranked
    .map((location) => {
      const seen = perFile.get(location.unit.file) ?? 0;
      perFile.set(location.unit.file, seen + 1);
      const excess = Math.max(0, seen + 1 - ROUTING.perFile);
      return { location, score: location.score * ROUTING.perFileDecay ** excess };
    })
    .sort((a, b) => b.score - a.score || (a.location.unit.id < b.location.unit.id ? -1 : 1))
    .map(({ location, score }) => Object.assign(location, { score }));
}

/**
 * Units that implement the same contract as this one: other targets of a call that dispatches
 * to it (implementations of one interface member), and other units registered or passed by the
 * same referrer (handlers in one registry).
 */
function siblingsOf(graph: ProgramGraph, id: string): string[] {
  const siblings = new Set<string>();
  for (const caller of graph.callers(id)) {
    if (caller.via !== 'dispatch') continue;
    for (const target of graph.callees(caller.unit.id)) if (target.via === 'dispatch' && target.unit.id !== id) siblings.add(target.unit.id);
  }
  const unit = graph.getUnit(id);
  const owner = unit?.kind === 'class' ? unit : unit?.parent ? graph.getUnit(unit.parent) : undefined;
  if (unit && owner?.kind === 'class') {
    const member = unit === owner ? undefined : unit.symbol.slice(owner.symbol.length + 1);
    for (const other of siblingClasses(graph, owner.id)) {
      if (!member) siblings.add(other);
      else {
        const otherClass = graph.getUnit(other)!;
        const counterpart = graph.getUnit(`${otherClass.file}#${otherClass.symbol}.${member}`);
        if (counterpart) siblings.add(counterpart.id);
      }
    }
  }
  for (const referrer of graph.referrers(id)) {
    const passed = referencedBy(graph, referrer.unit.id);
    if (passed.length > 12) continue;
    for (const other of passed) if (other !== id) siblings.add(other);
  }
  return [...siblings].sort();
}

/** A family is this many units at most: more share a name's first and last word by chance (get…Path). */
const FAMILY_LIMIT = 12;

/**
 * The family a unit's name puts it in, if any: its kind, where it stands (its folder, or its
 * class for a method), and the first and last words of a name of two words or more.
 */
function familyKey(unit: Unit): string | undefined {
  if (unit.kind !== 'function' && unit.kind !== 'class' && unit.kind !== 'method') return undefined;
  const words = splitWords(unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1));
  if (words.length < 2) return undefined;
  const place = unit.kind === 'method' ? unit.parent ?? '' : containerOf('folder', unit.file);
  return [unit.kind, place, words[0], words[words.length - 1]].join('\u0000');
}

function nameFamilies(index: UnitSearchIndex): Map<string, string[]> {
  const families = new Map<string, string[]>();
  for (let position = 0; position < index.size; position += 1) {
    const unit = index.unitAt(position);
    const key = familyKey(unit);
    if (!key) continue;
    const members = families.get(key);
    if (members) members.push(unit.id);
    else families.set(key, [unit.id]);
  }
  return families;
}

/**
 * Units named as one family with this one (makeAuditStep, makeCacheStep in one folder): a
 * cross-cutting request ("every step") wants each member, and its words match the members
 * unevenly.
 */
function namesakesOf(graph: ProgramGraph, id: string, families: ReadonlyMap<string, readonly string[]>): string[] {
  const unit = graph.getUnit(id);
  const key = unit && familyKey(unit);
  const members = key ? families.get(key) ?? [] : [];
  return members.length > FAMILY_LIMIT ? [] : members.filter((member) => member !== id);
}

/** Classes that implement or extend what this class implements or extends. */
function siblingClasses(graph: ProgramGraph, classId: string): string[] {
  const heritageKinds = ['implements', 'extends'] as const;
  const found = new Set<string>();
  for (const kind of heritageKinds) {
    for (const contract of graph.outEdges(classId, kind)) {
      for (const heritage of heritageKinds) {
        for (const implementer of graph.inEdges(contract.to, heritage)) if (implementer.from !== classId) found.add(implementer.from);
      }
      // The contract itself, when it is a class or interface of the repository, is part of the family.
      found.add(contract.to);
    }
  }
  for (const heritage of heritageKinds) for (const implementer of graph.inEdges(classId, heritage)) found.add(implementer.from);
  return [...found].sort();
}

function referencedBy(graph: ProgramGraph, id: string): string[] {
  return graph.outEdges(id, 'references').map((edge) => edge.to).filter((target) => graph.getUnit(target)?.kind !== 'variable');
}

function slotsTouched(graph: ProgramGraph, id: string): string[] {
  return graph.outEdges(id, 'writes').map((edge) => edge.to);
}
