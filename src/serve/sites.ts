import type { ProgramGraph } from '../graph/program-graph.js';
import type { Site } from './api-schemas.js';

/** A unit as a link: at its first line, or at `line` when the link is to a place inside it (a call, a write). */
export function siteOf(graph: ProgramGraph, id: string, line?: number): Site | undefined {
  const unit = graph.getUnit(id);
  return unit && { unit: unit.id, symbol: unit.symbol, file: unit.file, line: line ?? unit.startLine };
}

/** Units by id as links to their first lines; an id the graph does not hold is left out. */
export function sitesOf(graph: ProgramGraph, ids: readonly string[]): Site[] {
  return ids.flatMap((id) => siteOf(graph, id) ?? []);
}

/** Writers, readers or callers, each linked to the first line where it acts. */
export function sitesAt(graph: ProgramGraph, accesses: ReadonlyArray<{ unit: string; lines: readonly number[] }>): Site[] {
  return accesses.flatMap((access) => siteOf(graph, access.unit, access.lines[0]) ?? []);
}
