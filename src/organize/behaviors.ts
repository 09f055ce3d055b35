import graphology from 'graphology';
import louvainExports from 'graphology-communities-louvain';
import type { EdgeKind, Unit } from '../graph/model.js';
import { compareText } from '../graph/order.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { shortName } from '../graph/unit-name.js';
import { isStopWord, splitWords, stem } from '../text/identifier-words.js';
import type { Behavior, RegisterEntry } from './model.js';

// A CommonJS package: its module.exports is the function its types declare as `default`.
const louvain = louvainExports as unknown as typeof louvainExports.default;

/** A stage shows at most about this many behaviours, and a behaviour at most about this many units: sizes a reader can scan. */
export const MAX_BEHAVIORS = 25;
export const MAX_BEHAVIOR_UNITS = 60;
/** A group smaller than this is folded into the one it works with most. */
const MIN_BEHAVIOR_UNITS = 3;

/** What ties two units of a stage together, and how strongly. */
const CALL_KINDS: readonly EdgeKind[] = ['calls', 'references', 'instantiates'];
const CALL_WEIGHT = 1;
const CONTAINS_WEIGHT = 2;
const SAME_FILE_WEIGHT = 0.5;
const SHARED_STATE_WEIGHT = 0.5;
/**
 * Louvain's resolution over the files of a stage: above 1 it prefers smaller groups. Files are
 * whole in a behaviour, so groups grow by files; measured on six request sets (bench:behaviors),
 * 2 kept the gold of a request in three behaviours no larger than three folders on four of them.
 */
const FILE_RESOLUTION = 2;

/** Words that name no behaviour: every harness has them. */
export const PLAIN_WORDS: ReadonlySet<string> = new Set(['get', 'set', 'is', 'has', 'to', 'from', 'of', 'the', 'a', 'an', 'and', 'or', 'in', 'on', 'for', 'with', 'by', 'new', 'init', 'index', 'src', 'lib', 'ts', 'js', 'py', 'go', 'rs', 'tsx', 'mod', 'main', 'test', 'util', 'utils', 'helper', 'helpers', 'impl', 'default', 'create', 'make', 'do', 'run', 'self', 'this']);

/**
 * Divides a stage's primary members into behaviours: groups of units that work together on one
 * thing. Offline and deterministic. A file's members of the stage stay together (a reader reads a
 * file whole, and a request's code sits in few files): the stage's files are nodes of a weighted
 * graph (calls, references and instantiations between their units, units sharing a piece of
 * state), grouped by Louvain modularity with a fixed visiting order. A group over the cap is cut
 * into runs of whole files, a file over the cap alone in source order; groups too small join the
 * group they work with most; at most MAX_BEHAVIORS remain. Every member lands in exactly one
 * behaviour. A function of the graph, the members and the register alone, so a sync makes the
 * behaviours a cold build makes.
 */
export function groupBehaviors(stageId: string, members: readonly string[], graph: ProgramGraph, register: readonly RegisterEntry[]): Behavior[] {
  if (members.length === 0) return [];
  const sorted = [...members].sort(compareText);
  const weights = tieWeights(sorted, graph, register);
  let groups = fileCommunities(sorted, weights, graph);
  groups = groups.flatMap((group) => (group.length <= MAX_BEHAVIOR_UNITS ? [group] : cutByFile(group, graph)));
  groups = mergeSmall(groups, weights, graph);
  return describe(stageId, groups, graph, register);
}

/**
 * Everything groupBehaviors reads of each stage, as one string a stage: its members with their
 * files, owners and lines, the calls among them and into them from anywhere (entry points), and
 * the register entries they touch. Equal keys give equal behaviours, so a sync groups again only
 * the stages whose key moved: grouping every stage of a large repository takes a second or more.
 * One pass over the members and one over the register, for all stages at once.
 */
export function behaviorInputKeys(stages: ReadonlyArray<{ id: string; members: readonly string[] }>, graph: ProgramGraph, register: readonly RegisterEntry[]): Map<string, string> {
  const stageOf = new Map<string, string>();
  for (const stage of stages) for (const id of stage.members) stageOf.set(id, stage.id);
  const parts = new Map<string, string[]>(stages.map((stage) => [stage.id, [stage.id]]));
  for (const stage of stages) {
    const list = parts.get(stage.id)!;
    for (const id of [...stage.members].sort(compareText)) {
      const unit = graph.getUnit(id);
      const out: string[] = [];
      for (const kind of CALL_KINDS) for (const edge of graph.outEdges(id, kind)) if (stageOf.get(edge.to) === stage.id) out.push(`${kind}>${edge.to}`);
      const into: string[] = [];
      for (const edge of graph.inEdges(id)) if (CALL_KINDS.includes(edge.kind)) into.push(`${edge.kind}<${edge.from}`);
      list.push(`${id}|${unit?.file ?? ''}|${unit?.parent ?? ''}|${unit?.startLine ?? 0}|${out.sort().join(',')}|${into.sort().join(',')}`);
    }
  }
  for (const entry of register) {
    const touched = new Map<string, { writers: string[]; readers: string[] }>();
    const note = (unit: string, role: 'writers' | 'readers'): void => {
      const stage = stageOf.get(unit);
      if (stage === undefined) return;
      let lists = touched.get(stage);
      if (!lists) touched.set(stage, (lists = { writers: [], readers: [] }));
      lists[role].push(unit);
    };
    for (const access of entry.writers) note(access.unit, 'writers');
    for (const access of entry.readers) note(access.unit, 'readers');
    for (const [stage, lists] of touched) parts.get(stage)!.push(`${entry.slot}|${lists.writers.join(',')}|${lists.readers.join(',')}`);
  }
  return new Map([...parts].map(([stage, list]) => [stage, list.join('\n')]));
}

type Weights = Map<string, Map<string, number>>;

function addWeight(weights: Weights, a: string, b: string, weight: number): void {
  if (a === b) return;
  const [low, high] = a < b ? [a, b] : [b, a];
  let row = weights.get(low);
  if (!row) weights.set(low, (row = new Map()));
  row.set(high, (row.get(high) ?? 0) + weight);
}

function weightBetween(weights: Weights, a: string, b: string): number {
  const [low, high] = a < b ? [a, b] : [b, a];
  return weights.get(low)?.get(high) ?? 0;
}

function tieWeights(members: readonly string[], graph: ProgramGraph, register: readonly RegisterEntry[]): Weights {
  const inStage = new Set(members);
  const weights: Weights = new Map();
  const firstOfFile = new Map<string, string>();
  for (const id of members) {
    for (const kind of CALL_KINDS) for (const edge of graph.outEdges(id, kind)) if (inStage.has(edge.to)) addWeight(weights, id, edge.to, CALL_WEIGHT);
    const unit = graph.getUnit(id);
    if (!unit) continue;
    if (unit.parent !== undefined && inStage.has(unit.parent)) addWeight(weights, id, unit.parent, CONTAINS_WEIGHT);
    const first = firstOfFile.get(unit.file);
    if (first === undefined) firstOfFile.set(unit.file, id);
    else addWeight(weights, first, id, SAME_FILE_WEIGHT);
  }
  for (const entry of register) {
    const accessors = [...new Set([...entry.writers, ...entry.readers].map((access) => access.unit).filter((unit) => inStage.has(unit)))].sort(compareText);
    for (const unit of accessors.slice(1)) addWeight(weights, accessors[0]!, unit, SHARED_STATE_WEIGHT);
  }
  return weights;
}

/** Louvain over the members and the weights among them; nodes and edges added in sorted order, no random walk: the same input gives the same groups. */
function communities(members: readonly string[], weights: Weights, resolution: number): string[][] {
  const inGroup = new Set(members);
  const network = new graphology.UndirectedGraph();
  for (const id of members) network.addNode(id);
  for (const low of members) {
    const row = weights.get(low);
    if (!row) continue;
    for (const high of [...row.keys()].sort(compareText)) if (inGroup.has(high)) network.addEdge(low, high, { weight: row.get(high)! });
  }
  if (network.size === 0) return members.map((id) => [id]);
  const community = louvain(network, { getEdgeWeight: 'weight', randomWalk: false, resolution });
  const byCommunity = new Map<number, string[]>();
  for (const id of members) {
    const key = community[id]!;
    const list = byCommunity.get(key);
    if (list) list.push(id);
    else byCommunity.set(key, [id]);
  }
  return [...byCommunity.values()].sort((a, b) => compareText(a[0]!, b[0]!));
}

/** The members grouped by Louvain over their files, each file's members together; the ties between two files are those between their units. */
function fileCommunities(members: readonly string[], weights: Weights, graph: ProgramGraph): string[][] {
  const fileOf = new Map(members.map((id) => [id, graph.getUnit(id)?.file ?? '']));
  const unitsOf = new Map<string, string[]>();
  for (const id of members) {
    const file = fileOf.get(id)!;
    const list = unitsOf.get(file);
    if (list) list.push(id);
    else unitsOf.set(file, [id]);
  }
  const fileWeights: Weights = new Map();
  for (const [low, row] of weights) {
    for (const [high, weight] of row) {
      const from = fileOf.get(low);
      const to = fileOf.get(high);
      if (from !== undefined && to !== undefined && from !== to) addWeight(fileWeights, from, to, weight);
    }
  }
  return communities([...unitsOf.keys()].sort(compareText), fileWeights, FILE_RESOLUTION).map((files) => files.flatMap((file) => unitsOf.get(file)!).sort(compareText));
}

/** Consecutive files (in path order) packed into groups within the cap; a file over the cap alone cut in source order. */
function cutByFile(group: readonly string[], graph: ProgramGraph): string[][] {
  const byFile = new Map<string, Unit[]>();
  for (const id of group) {
    const unit = graph.getUnit(id);
    const file = unit?.file ?? '';
    const list = byFile.get(file) ?? [];
    if (unit) list.push(unit);
    byFile.set(file, list);
  }
  const pieces: string[][] = [];
  let current: string[] = [];
  for (const file of [...byFile.keys()].sort(compareText)) {
    const units = byFile.get(file)!.sort((a, b) => a.startLine - b.startLine || compareText(a.id, b.id)).map((unit) => unit.id);
    if (units.length > MAX_BEHAVIOR_UNITS) {
      if (current.length > 0) pieces.push(current);
      current = [];
      for (let at = 0; at < units.length; at += MAX_BEHAVIOR_UNITS) pieces.push(units.slice(at, at + MAX_BEHAVIOR_UNITS));
      continue;
    }
    if (current.length + units.length > MAX_BEHAVIOR_UNITS) {
      pieces.push(current);
      current = [];
    }
    current.push(...units);
  }
  if (current.length > 0) pieces.push(current);
  return pieces.map((piece) => piece.sort(compareText));
}

/**
 * Groups under MIN_BEHAVIOR_UNITS, then while there are more than MAX_BEHAVIORS the smallest,
 * join the group they are tied to most (then one sharing their folder, then the smallest), as long
 * as the cap allows; two groups that no cap allows stay apart.
 */
function mergeSmall(groups: string[][], weights: Weights, graph: ProgramGraph): string[][] {
  const folderOf = (group: readonly string[]): string => {
    const file = graph.getUnit(group[0]!)?.file ?? '';
    return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  };
  let live = groups.map((group) => [...group]);
  const tie = (a: readonly string[], b: readonly string[]): number => {
    let sum = 0;
    for (const x of a) for (const y of b) sum += weightBetween(weights, x, y);
    return sum;
  };
  const pickSmall = (): number => {
    let chosen = -1;
    for (let index = 0; index < live.length; index += 1) {
      const size = live[index]!.length;
      const due = size < MIN_BEHAVIOR_UNITS || live.length > MAX_BEHAVIORS;
      if (!due || live.length === 1) continue;
      if (chosen < 0 || size < live[chosen]!.length) chosen = index;
    }
    return chosen;
  };
  const stuck = new Set<string>();
  for (;;) {
    const index = pickSmall();
    if (index < 0) break;
    const small = live[index]!;
    if (stuck.has(small[0]!)) break;
    let best = -1;
    let bestScore = -1;
    for (let other = 0; other < live.length; other += 1) {
      if (other === index || live[other]!.length + small.length > MAX_BEHAVIOR_UNITS) continue;
      // Tied by code first, then by folder, then the smaller, then the earlier: a total order, so the merge is deterministic.
      const score = tie(small, live[other]!) * 1_000_000 + (folderOf(small) === folderOf(live[other]!) ? 1000 : 0) + (MAX_BEHAVIOR_UNITS - live[other]!.length);
      if (score > bestScore) {
        best = other;
        bestScore = score;
      }
    }
    if (best < 0) {
      stuck.add(small[0]!);
      continue;
    }
    const merged = [...live[best]!, ...small].sort(compareText);
    live = live.filter((_, at) => at !== index && at !== best);
    live.push(merged);
    live.sort((a, b) => compareText(a[0]!, b[0]!));
  }
  return live;
}

/** Names, entry points, state, files and summary of each group, from its members' names and the graph. */
function describe(stageId: string, groups: readonly string[][], graph: ProgramGraph, register: readonly RegisterEntry[]): Behavior[] {
  const wordsOf = groups.map((group) => wordCounts(group, graph));
  const spread = new Map<string, number>();
  for (const { counts } of wordsOf) for (const word of counts.keys()) spread.set(word, (spread.get(word) ?? 0) + 1);
  const used = new Map<string, number>();
  const groupOf = new Map<string, number>();
  groups.forEach((group, index) => group.forEach((id) => groupOf.set(id, index)));
  return groups.map((group, index) => {
    const { counts, formOf } = wordsOf[index]!;
    // Words frequent here and rare in the stage's other behaviours name this one.
    const scored = [...counts].map(([word, count]) => ({ word, score: count * Math.log(1 + groups.length / spread.get(word)!) })).sort((a, b) => b.score - a.score || compareText(a.word, b.word));
    const words = scored.slice(0, 3).map((entry) => formOf.get(entry.word) ?? entry.word);
    const slug = words.length > 0 ? words.join('-') : 'units';
    const taken = used.get(slug) ?? 0;
    used.set(slug, taken + 1);
    // Names are headings and ids are handles: both unique within the stage.
    const name = `${words.length > 0 ? words.join(', ') : shortName(group[0]!)}${taken === 0 ? '' : ` (${taken + 1})`}`;
    const id = `${stageId}/${taken === 0 ? slug : `${slug}-${taken + 1}`}`;
    const members = new Set(group);
    const entryPoints = group.filter((unit) => graph.inEdges(unit).some((edge) => CALL_KINDS.includes(edge.kind) && !members.has(edge.from) && edge.from !== unit)).sort(compareText);
    const files = [...new Set(group.map((unit) => graph.getUnit(unit)?.file ?? ''))].filter(Boolean).sort(compareText);
    const writes = register.filter((entry) => entry.writers.some((access) => members.has(access.unit))).map((entry) => entry.slot).sort(compareText);
    const reads = register.filter((entry) => !entry.writers.some((access) => members.has(access.unit)) && entry.readers.some((access) => members.has(access.unit))).map((entry) => entry.slot).sort(compareText);
    return { id, name, summary: summaryOf(group, files, entryPoints, writes, reads), members: [...group], entryPoints, files, writes, reads };
  });
}

/**
 * The words of the members' own names and of their files' names, each counted once a unit, by
 * stem (`file` and `files` are one word), with the form most often written.
 */
interface GroupWords {
  /** Units naming each stem. */
  counts: Map<string, number>;
  /** Each stem as most often written. */
  formOf: Map<string, string>;
}

function wordCounts(group: readonly string[], graph: ProgramGraph): GroupWords {
  const counts = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  for (const id of group) {
    const unit = graph.getUnit(id);
    const file = unit?.file ?? id.split('#')[0]!;
    const base = file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
    const symbol = shortName(id);
    const own = symbol.slice(symbol.lastIndexOf('.') + 1);
    const words = new Set([...splitWords(own), ...splitWords(base)].filter((word) => word.length > 2 && !PLAIN_WORDS.has(word) && !isStopWord(word) && !/^\d+$/.test(word)));
    const stems = new Set<string>();
    for (const word of words) {
      const root = stem(word);
      const seen = forms.get(root) ?? new Map<string, number>();
      seen.set(word, (seen.get(word) ?? 0) + 1);
      forms.set(root, seen);
      stems.add(root);
    }
    for (const root of stems) counts.set(root, (counts.get(root) ?? 0) + 1);
  }
  const formOf = new Map([...forms].map(([root, seen]) => [root, [...seen].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]![0]]));
  return { counts, formOf };
}

function summaryOf(group: readonly string[], files: readonly string[], entryPoints: readonly string[], writes: readonly string[], reads: readonly string[]): string {
  const parts = [`${group.length} unit${group.length === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}${files.length > 0 ? ` (${files.slice(0, 2).join(', ')}${files.length > 2 ? ', …' : ''})` : ''}`];
  if (entryPoints.length > 0) parts.push(`entered through ${entryPoints.slice(0, 3).map(shortName).join(', ')}${entryPoints.length > 3 ? ` and ${entryPoints.length - 3} more` : ''}`);
  if (writes.length > 0) parts.push(`writes ${writes.slice(0, 3).map(shortName).join(', ')}${writes.length > 3 ? ` and ${writes.length - 3} more` : ''}`);
  if (reads.length > 0) parts.push(`reads ${reads.slice(0, 3).map(shortName).join(', ')}${reads.length > 3 ? ` and ${reads.length - 3} more` : ''}`);
  return `${parts.join('; ')}.`;
}
