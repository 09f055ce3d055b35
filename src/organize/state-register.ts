import type { ProgramGraph } from '../graph/program-graph.js';
import type { OrganizedHandbook, RegisterEntry, StateAccessRecord } from './model.js';

const byUnit = (a: StateAccessRecord, b: StateAccessRecord): number => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0);

/**
 * The state register: every slot that crosses units (touched by at least two, or written by one
 * and read by another), with its writers and readers and the stages it couples. This is what
 * lets a question about one stage reach the stages that share its state.
 */
export function buildStateRegister(graph: ProgramGraph, primaryStageOf: ReadonlyMap<string, string>, stageOrder: ReadonlyMap<string, number>): RegisterEntry[] {
  // One pass over the reads and writes into per-slot lists: a sync builds the register every time,
  // and it costs one lookup per edge this way. Edges come sorted by kind and source, so one unit's arrive together.
  const slots = graph.slots;
  const positionOf = new Map<string, number>();
  slots.forEach((slot, position) => positionOf.set(slot.id, position));
  const writers: Array<StateAccessRecord[] | undefined> = new Array(slots.length);
  const readers: Array<StateAccessRecord[] | undefined> = new Array(slots.length);
  const touched: number[] = [];
  for (const [kind, lists] of [['writes', writers], ['reads', readers]] as const) {
    let from = '';
    let isUnit = false;
    for (const edge of graph.edgesOfKinds([kind])) {
      if (edge.from !== from) {
        from = edge.from;
        isUnit = graph.getUnit(from) !== undefined;
      }
      if (!isUnit) continue;
      const position = positionOf.get(edge.to);
      if (position === undefined) continue;
      const list = lists[position];
      if (list) list.push({ unit: edge.from, lines: edge.lines });
      else {
        lists[position] = [{ unit: edge.from, lines: edge.lines }];
        touched.push(position);
      }
    }
  }
  const entries: RegisterEntry[] = [];
  // Only slots some unit touches can be entries: most of a large graph's slots are read by one unit or none.
  for (const position of [...new Set(touched)].sort((a, b) => a - b)) {
    const slot = slots[position]!;
    const written = writers[position] ?? [];
    const read = readers[position] ?? [];
    if (written.length + read.length < 2) continue;
    const accessors = new Set<string>();
    for (const access of written) accessors.add(access.unit);
    for (const access of read) accessors.add(access.unit);
    if (accessors.size < 2) continue;
    const stages = [...new Set([...accessors].map((unit) => primaryStageOf.get(unit)).filter((stage): stage is string => stage !== undefined))]
      .sort((a, b) => (stageOrder.get(a) ?? 0) - (stageOrder.get(b) ?? 0) || (a < b ? -1 : 1));
    entries.push({ slot: slot.id, kind: slot.kind, owner: slot.owner, type: slot.type, file: slot.file, line: slot.line, writers: written.sort(byUnit), readers: read.sort(byUnit), stages });
  }
  return entries;
}

/** The register of a stored handbook: primary stages and their order as its stages record them. */
export function registerOfHandbook(graph: ProgramGraph, organized: OrganizedHandbook): RegisterEntry[] {
  const primaryStageOf = new Map(organized.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => [member.unit, stage.id] as const)));
  return buildStateRegister(graph, primaryStageOf, new Map(organized.stages.map((stage) => [stage.id, stage.position])));
}
