import type { Edge, ProgramGraphData, Slot, SourceFileRecord, Unit, UnresolvedCall } from './model.js';

/** Code-unit order, the same in every locale and on every platform: the basis of byte-identical output. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEdges(a: Edge, b: Edge): number {
  return compareText(a.kind, b.kind) || compareText(a.from, b.from) || compareText(a.to, b.to);
}

export function compareUnresolved(a: UnresolvedCall, b: UnresolvedCall): number {
  return compareText(a.from, b.from) || a.line - b.line || compareText(a.text, b.text) || compareText(a.reason, b.reason);
}

export const compareFiles = (a: SourceFileRecord, b: SourceFileRecord): number => compareText(a.path, b.path);
export const compareUnits = (a: Unit, b: Unit): number => compareText(a.id, b.id);
export const compareSlots = (a: Slot, b: Slot): number => compareText(a.id, b.id);

/** Puts every list of a graph in its canonical order, in place. */
export function canonicalize(graph: ProgramGraphData): ProgramGraphData {
  graph.files.sort(compareFiles);
  graph.units.sort(compareUnits);
  graph.edges.sort(compareEdges);
  graph.slots.sort(compareSlots);
  graph.unresolved.sort(compareUnresolved);
  return graph;
}
