import type { Edge, UnresolvedCall } from '../graph/model.js';

/**
 * How the store keeps the lines of edges and unresolved calls: relative to the first line of a
 * unit (the row's anchor), not to the file. An edit moves every unit below it by its count of
 * lines; stored relative to a unit that moves with them, the rows of a unit that only moved stay
 * byte for byte what they were, so an update in place need not touch them. Units keep their own
 * lines absolute: readers look them up by line.
 *
 * The anchor is the row's source unit, except for a `contains` edge into a unit of the same file:
 * its line is where the contained unit starts, which moves with that unit, not with its container
 * (a file unit, which starts on line 1 whatever moves). A row whose anchor the store does not hold
 * is kept as it was found (anchor 0), the same way when written and when read.
 *
 * The schema-11 migration (schema.ts) applies the same rule in SQL; the two must agree.
 */

/** Where a unit stands, as far as anchoring goes. */
export interface UnitPlace {
  file: string;
  startLine: number;
}

export type PlaceOf = (unit: string) => UnitPlace | undefined;

/** The line an edge's stored lines count from. */
export function edgeAnchor(edge: Pick<Edge, 'kind' | 'from' | 'to'>, placeOf: PlaceOf): number {
  const source = placeOf(edge.from);
  if (!source) return 0;
  if (edge.kind === 'contains') {
    const target = placeOf(edge.to);
    if (target && target.file === source.file) return target.startLine;
  }
  return source.startLine;
}

/** The line an unresolved call's stored line counts from. */
export function unresolvedAnchor(call: Pick<UnresolvedCall, 'from'>, placeOf: PlaceOf): number {
  return placeOf(call.from)?.startLine ?? 0;
}

/** An edge's lines as the store holds them (JSON text). */
export function storedEdgeLines(edge: Edge, placeOf: PlaceOf): string {
  const anchor = edgeAnchor(edge, placeOf);
  // JSON of a list of integers, written out: JSON.stringify of a mapped copy took three times as long over a large file's edges.
  let text = '[';
  for (let index = 0; index < edge.lines.length; index += 1) text += `${index === 0 ? '' : ','}${edge.lines[index]! - anchor}`;
  return `${text}]`;
}

/** An edge's lines read back from the store, as analysis produced them. */
export function readEdgeLines(stored: unknown[], edge: Pick<Edge, 'kind' | 'from' | 'to'>, placeOf: PlaceOf): unknown[] {
  const anchor = edgeAnchor(edge, placeOf);
  // Freshly parsed, so shifted in place: the graph loader reads tens of thousands of these.
  if (anchor !== 0) for (let index = 0; index < stored.length; index += 1) stored[index] = (stored[index] as number) + anchor;
  return stored;
}
