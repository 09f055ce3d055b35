import type { ProgramGraph } from '../graph/program-graph.js';
import type { Edge, Slot } from '../graph/model.js';
import type { OrganizedHandbook, RegisterEntry, StateAccessRecord } from './model.js';

const byUnit = (a: StateAccessRecord, b: StateAccessRecord): number => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0);

/**
 * What a register was built from, kept for the next sync to update: every slot's accesses (of
 * slots read or written at all, entries or not), and which slots each file's units touch.
 */
export interface RegisterState {
  entries: RegisterEntry[];
  accesses: ReadonlyMap<string, { writers: StateAccessRecord[]; readers: StateAccessRecord[] }>;
  slotsOfFile: ReadonlyMap<string, ReadonlySet<string>>;
  /** The file of every unit that touched a slot, now or at some earlier sync (an id names one file for good), shared by the states of a run. */
  fileOfUnit: Map<string, string>;
}

/** A sync's change to the graph: the files whose rows were replaced, and their edges now (any order of files, canonical within). */
export interface RegisterChange {
  files: ReadonlySet<string>;
  edges: readonly Edge[];
}

/**
 * The state register: every slot that crosses units (touched by at least two, or written by one
 * and read by another), with its writers and readers and the stages it couples. This is what
 * lets a question about one stage reach the stages that share its state.
 */
export function buildStateRegister(graph: ProgramGraph, primaryStageOf: ReadonlyMap<string, string>, stageOrder: ReadonlyMap<string, number>): RegisterEntry[] {
  return buildRegisterState(graph, primaryStageOf, stageOrder).entries;
}

/** The register with what it was built from. */
export function buildRegisterState(graph: ProgramGraph, primaryStageOf: ReadonlyMap<string, string>, stageOrder: ReadonlyMap<string, number>): RegisterState {
  // One pass over the reads and writes into per-slot lists. Edges come sorted by kind and source,
  // so one unit's arrive together and each list is in unit order already.
  const fileOfUnit = new Map<string, string>();
  const { accesses, slotsOfFile } = collectAccesses(graph, [...graph.edgesOfKinds(['writes']), ...graph.edgesOfKinds(['reads'])], fileOfUnit);
  const entries: RegisterEntry[] = [];
  for (const slot of graph.slots) {
    const lists = accesses.get(slot.id);
    const entry = lists && entryOf(slot, lists.writers, lists.readers, primaryStageOf, stageOrder);
    if (entry) entries.push(entry);
  }
  return { entries, accesses, slotsOfFile, fileOfUnit };
}

/**
 * The register after a sync that kept every unit's stage: only the slots the changed files' units
 * touch (before or now), or whose record moved, are built again; every other entry stands, as
 * the same object. Equals what buildRegisterState gives on the new graph, because a slot's entry
 * depends only on the edges into it, its record and its accessors' stages.
 */
export function updateRegisterState(
  previous: RegisterState,
  graph: ProgramGraph,
  change: RegisterChange,
  primaryStageOf: ReadonlyMap<string, string>,
  stageOrder: ReadonlyMap<string, number>,
): RegisterState {
  const fileOfUnit = previous.fileOfUnit;
  const fresh = collectAccesses(graph, change.edges.filter((edge) => edge.kind === 'writes' || edge.kind === 'reads'), fileOfUnit);
  const affected = new Set<string>(fresh.accesses.keys());
  for (const file of change.files) for (const slot of previous.slotsOfFile.get(file) ?? []) affected.add(slot);
  const accesses = new Map(previous.accesses);
  const inChanged = (access: StateAccessRecord): boolean => change.files.has(fileOfUnit.get(access.unit)!);
  for (const slot of affected) {
    const before = previous.accesses.get(slot);
    const now = fresh.accesses.get(slot);
    // A stable sort by unit: the kept units' accesses stay in their order, the changed files' come in edge order, as a cold pass gives them.
    const writers = [...(before?.writers.filter((access) => !inChanged(access)) ?? []), ...(now?.writers ?? [])].sort(byUnit);
    const readers = [...(before?.readers.filter((access) => !inChanged(access)) ?? []), ...(now?.readers ?? [])].sort(byUnit);
    if (writers.length + readers.length === 0) accesses.delete(slot);
    else accesses.set(slot, { writers, readers });
  }
  const slotsOfFile = new Map(previous.slotsOfFile);
  for (const file of change.files) {
    const touched = fresh.slotsOfFile.get(file);
    if (touched) slotsOfFile.set(file, touched);
    else slotsOfFile.delete(file);
  }
  const entries: RegisterEntry[] = [];
  const rebuilt = new Set<string>();
  const build = (slot: Slot): void => {
    rebuilt.add(slot.id);
    const lists = accesses.get(slot.id);
    const entry = lists && entryOf(slot, lists.writers, lists.readers, primaryStageOf, stageOrder);
    if (entry) entries.push(entry);
  };
  for (const slot of affected) {
    const record = graph.getSlot(slot);
    if (record) build(record);
  }
  for (const entry of previous.entries) {
    if (rebuilt.has(entry.slot)) continue;
    const record = graph.getSlot(entry.slot);
    if (!record) continue;
    if (record.kind === entry.kind && record.owner === entry.owner && record.type === entry.type && record.file === entry.file && record.line === entry.line) entries.push(entry);
    else build(record);
  }
  // Slot order, as graph.slots is in (canonical: by id).
  entries.sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  return { entries, accesses, slotsOfFile, fileOfUnit };
}

/** Each slot's writers and readers among these edges (from units only), and the slots each file's units touch. */
function collectAccesses(
  graph: ProgramGraph,
  edges: readonly Edge[],
  fileOfUnit: Map<string, string>,
): { accesses: Map<string, { writers: StateAccessRecord[]; readers: StateAccessRecord[] }>; slotsOfFile: Map<string, Set<string>> } {
  const accesses = new Map<string, { writers: StateAccessRecord[]; readers: StateAccessRecord[] }>();
  const slotsOfFile = new Map<string, Set<string>>();
  let from = '';
  let touched: Set<string> | undefined;
  for (const edge of edges) {
    if (edge.from !== from) {
      from = edge.from;
      const file = graph.getUnit(from)?.file;
      touched = undefined;
      if (file !== undefined) {
        fileOfUnit.set(from, file);
        touched = slotsOfFile.get(file);
        if (!touched) slotsOfFile.set(file, (touched = new Set()));
      }
    }
    if (!touched) continue;
    touched.add(edge.to);
    let lists = accesses.get(edge.to);
    if (!lists) accesses.set(edge.to, (lists = { writers: [], readers: [] }));
    (edge.kind === 'writes' ? lists.writers : lists.readers).push({ unit: edge.from, lines: edge.lines });
  }
  return { accesses, slotsOfFile };
}

/** A slot's entry, when at least two units touch it. */
function entryOf(slot: Slot, written: StateAccessRecord[], read: StateAccessRecord[], primaryStageOf: ReadonlyMap<string, string>, stageOrder: ReadonlyMap<string, number>): RegisterEntry | undefined {
  if (written.length + read.length < 2) return undefined;
  const accessors = new Set<string>();
  for (const access of written) accessors.add(access.unit);
  for (const access of read) accessors.add(access.unit);
  if (accessors.size < 2) return undefined;
  const stages = [...new Set([...accessors].map((unit) => primaryStageOf.get(unit)).filter((stage): stage is string => stage !== undefined))]
    .sort((a, b) => (stageOrder.get(a) ?? 0) - (stageOrder.get(b) ?? 0) || (a < b ? -1 : 1));
  return { slot: slot.id, kind: slot.kind, owner: slot.owner, type: slot.type, file: slot.file, line: slot.line, writers: written, readers: read, stages };
}

/** The register of a stored handbook: primary stages and their order as its stages record them. */
export function registerOfHandbook(graph: ProgramGraph, organized: OrganizedHandbook): RegisterEntry[] {
  const primaryStageOf = new Map(organized.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => [member.unit, stage.id] as const)));
  return buildStateRegister(graph, primaryStageOf, new Map(organized.stages.map((stage) => [stage.id, stage.position])));
}
