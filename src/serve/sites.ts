import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { type LivePlace, liveLinesOf, livePlacesOf, liveSpotOf, type UnitResolver } from '../locate/live-place.js';
import type { ResolvedLocation } from '../locate/live-resolver.js';
import type { AccessSite, LiveSite, Site } from './api-schemas.js';

/**
 * The places the viewer's lists link to. A view shows where each listed unit's code stands now,
 * since the handbook it reads may be behind the code (served before the watcher syncs, or a static
 * site rendered from a stale build): the build's site stays the link, the live fields say where to look.
 */

export type LiveFields = Omit<LiveSite, keyof Site>;

/** A unit as a link: at its first line, or at `line` when the link is to a place inside it (a call, a write). */
function siteOf(unit: Unit, line?: number): Site {
  return { unit: unit.id, symbol: unit.symbol, file: unit.file, line: line ?? unit.startLine };
}

/**
 * Adds to a listed unit, built for this answer, where its code stands now: its status, and its
 * file, symbol and lines unless it is gone. It assigns rather than spreads: the register of a big
 * repository lists tens of thousands of sites (gemini-cli's 20,571), and copying each site per
 * field set about doubled the CPU time of that answer.
 */
export function withLiveFields<T extends object>(listed: T, unit: Unit, live: ResolvedLocation): T & LiveFields {
  const fields: LiveFields = { status: live.status };
  if (live.reason) fields.reason = live.reason;
  if (live.status !== 'frozen') {
    const at = liveSpotOf(unit, live);
    fields.liveFile = at.file;
    fields.liveSymbol = at.symbol;
    fields.liveLine = live.line;
    fields.liveEndLine = live.endLine;
  }
  return Object.assign(listed, fields);
}

/** A unit as a link (at `line` inside it when given), with where its code stands now. */
export function liveSiteOf(unit: Unit, live: ResolvedLocation, line?: number): LiveSite {
  return withLiveFields(siteOf(unit, line), unit, live);
}

/**
 * A line the build recorded inside a unit (a call, an access), where it stands now. It lies in the
 * unit's own code, so it moves with that code, and only while the code is the build's: none otherwise.
 */
export function liveLineIn(line: number, unit: Unit, live: ResolvedLocation): number | undefined {
  return liveLinesOf([line], unit, live)?.[0];
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
