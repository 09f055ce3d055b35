import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { RegisterEntry } from '../organize/model.js';
import type { PagePlaces, ShownPlace } from '../render/page-places.js';
import { type LiveDeclaration, liveDeclarationOf } from './live-declaration.js';
import { liveLinesOf, livePlacesById, liveSpotOf, type UnitResolver } from './live-place.js';
import { declarationNote, nameNote, placeNote } from './live-place-notes.js';
import type { ResolvedLocation } from './live-resolver.js';

/**
 * Where the pages' units and declarations stand now, resolved up front, since a page renders in
 * one pass: `units` must name every unit the pages print (unitsOnPages), and `register` every piece
 * of state. A unit shifted since the build links its live line; one moved links its new file, one
 * changed is marked so (its writes and reads link its start, since no line of the build's says
 * where they are now), one gone names its file with no line.
 */
export async function livePagePlaces(
  graph: Pick<ProgramGraph, 'getUnit' | 'getSlotOrThrow'>,
  register: readonly RegisterEntry[],
  units: Iterable<string>,
  resolver: UnitResolver,
): Promise<PagePlaces> {
  const unitOf = (id: string) => graph.getUnit(id);
  const [placed, declarations] = await Promise.all([
    livePlacesById(graph, units, resolver),
    Promise.all(register.map(async (entry) => [entry.slot, (await liveDeclarationOf(graph.getSlotOrThrow(entry.slot), unitOf, resolver)).declared] as const)),
  ]);
  const declared = new Map<string, LiveDeclaration>(declarations);
  // A unit the pages print that was not resolved would be shown at the build's place as if live: a bug, said so.
  const liveOf = (id: string): ResolvedLocation => {
    const place = placed.get(id);
    if (!place) throw new Error(`${id} is printed on a handbook page but was not placed before rendering`);
    return place.live;
  };
  return {
    unit: (unit) => shownAt(unit, liveOf(unit.id), undefined),
    access: (unit, lines) => {
      const live = liveOf(unit.id);
      return shownAt(unit, live, liveLinesOf(lines, unit, live)?.[0]);
    },
    declaration: (entry) => {
      const place = declared.get(entry.slot);
      if (!place) throw new Error(`${entry.slot} is printed on a handbook page but was not placed before rendering`);
      return { file: place.file, ...(place.line === undefined ? {} : { line: place.line }), note: declarationNote(entry.file, place) };
    },
    nameNote: (id) => nameNote(liveOf(id)),
  };
}

/** A unit's code where it stands now, linked at `line` (a line recorded inside it) or else at its start; gone code has no line. */
function shownAt(unit: Unit, live: ResolvedLocation, line: number | undefined): ShownPlace {
  if (live.status === 'frozen') return { file: unit.file, note: placeNote(unit, live) };
  return { file: liveSpotOf(unit, live).file, line: line ?? live.line, note: placeNote(unit, live) };
}
