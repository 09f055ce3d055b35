import type { Edge, ProgramGraphData, UnresolvedCall } from './model.js';

/** Code-unit order, the same in every locale and on every platform: the basis of byte-identical output. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEdges(a: Edge, b: Edge): number {
  return compareText(a.kind, b.kind) || compareText(a.from, b.from) || compareText(a.to, b.to);
}

function compareUnresolved(a: UnresolvedCall, b: UnresolvedCall): number {
  return compareText(a.from, b.from) || a.line - b.line || compareText(a.text, b.text) || compareText(a.reason, b.reason);
}

/** Puts every list of a graph in its canonical order, in place. */
export function canonicalize(graph: ProgramGraphData): ProgramGraphData {
  graph.files.sort((a, b) => compareText(a.path, b.path));
  graph.units.sort((a, b) => compareText(a.id, b.id));
  graph.edges.sort(compareEdges);
  graph.slots.sort((a, b) => compareText(a.id, b.id));
  graph.unresolved.sort(compareUnresolved);
  return graph;
}
