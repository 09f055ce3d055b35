import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { inPlace, type LiveFields, liveFieldsOf, type LivePlace, liveLinesOf, livePlacesOf, type UnitResolver } from '../locate/live-place.js';
import type { ResolvedLocation } from '../locate/live-resolver.js';
import type { AccessSite, LiveSite, Site } from './api-schemas.js';

/**
 * The places the viewer's lists link to. A view shows where each listed unit's code stands now,
 * since the handbook it reads may be behind the code (served before the watcher syncs, or a static
 * site rendered from a stale build): the build's site stays the link, and a unit no longer where the
 * build put it carries live fields that say where to look.
 */

/** A unit as a link: at its first line, or at `line` when the link is to a place inside it (a call, a write). */
function siteOf(unit: Unit, line?: number): Site {
  return { unit: unit.id, symbol: unit.symbol, file: unit.file, line: line ?? unit.startLine };
}

/**
 * Adds to a listed unit, built for this answer, where its code stands now when that is not where
 * the build put it (liveFieldsOf): a unit in place keeps the build's fields alone, which the app
 * reads as fresh at the build's place. It assigns rather than spreads: the register of a big
 * repository lists tens of thousands of sites (gemini-cli's 20,571), and copying each site per
 * field set about doubled the CPU time of that answer.
 */
export function withLiveFields<T extends object>(listed: T, unit: Unit, live: ResolvedLocation): T & Partial<LiveFields> {
  const fields = liveFieldsOf(unit, live);
  return fields ? Object.assign(listed, fields) : listed;
}

/** A unit as a link (at `line` inside it when given), with where its code stands now. */
export function liveSiteOf(unit: Unit, live: ResolvedLocation, line?: number): LiveSite {
  return withLiveFields(siteOf(unit, line), unit, live);
}

/**
 * A line the build recorded inside a unit (a call, an access), where it stands now. It lies in the
 * unit's own code, so it moves with that code, and only while the code is the build's: none
 * otherwise, and none while the unit is in place, as the line is then the build's.
 */
export function liveLineIn(line: number, unit: Unit, live: ResolvedLocation): number | undefined {
  return inPlace(unit, live) ? undefined : liveLinesOf([line], unit, live)?.[0];
}

/** The units the graph holds of these ids, in order; an id it does not hold is left out. */
function unitsOf(graph: ProgramGraph, ids: readonly string[]): Unit[] {
  return ids.flatMap((id) => graph.getUnit(id) ?? []);
}

/** Units by id as links to their first lines, each where its code stands now. */
export async function liveSitesOf(graph: ProgramGraph, ids: readonly string[], resolver: UnitResolver): Promise<LiveSite[]> {
  const places = await livePlacesOf(
    unitsOf(graph, ids).map((unit) => ({ unit })),
    resolver,
  );
  return places.map(({ listed: { unit }, live }) => liveSiteOf(unit, live));
}


/** Writers or readers, each linked to the first line where it acts, with that access where it stands now; `placed` holds every accessor the graph holds. */
export function accessSitesOf(accesses: ReadonlyArray<{ unit: string; lines: readonly number[] }>, placed: ReadonlyMap<string, LivePlace<{ unit: Unit }>>): AccessSite[] {
  return accesses.flatMap((access) => {
    const place = placed.get(access.unit);
    if (!place) return [];
    const { listed: { unit }, live } = place;
    const line = access.lines[0];
    const site: AccessSite = liveSiteOf(unit, live, line);
    const liveAccess = line === undefined ? undefined : liveLineIn(line, unit, live);
    if (liveAccess !== undefined) site.liveAccessLine = liveAccess;
    return [site];
  });
}
