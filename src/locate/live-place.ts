import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { LiveResolver, LocatorStatus, ResolvedLocation } from './live-resolver.js';

/**
 * Where the units an answer lists stand now, as the shared live resolver judges them. Every reader
 * that shows a unit's neighbours (the planner's tools, the MCP entry tool, the viewer) shows their
 * live places, since a reader goes to or cites what it is shown: an edit above a unit shifts its
 * lines, a move changes its file, and code that is gone has no place at all.
 */

/** Resolves a unit as LiveResolver does; the viewer's reader judges each path before it is read. */
export type UnitResolver = Pick<LiveResolver, 'resolve'>;

export interface LivePlace<T extends { unit: Unit }> {
  listed: T;
  live: ResolvedLocation;
}

/** The live places of the listed units only, through one resolver, which reads each file once. */
export function livePlacesOf<T extends { unit: Unit }>(listed: readonly T[], resolver: UnitResolver): Promise<Array<LivePlace<T>>> {
  return Promise.all(listed.map(async (item) => ({ listed: item, live: await resolver.resolve(item.unit) })));
}

/** Where each unit of these ids stands now, by id, each resolved once; an id the graph does not hold is left out. */
export async function livePlacesById(graph: Pick<ProgramGraph, 'getUnit'>, ids: Iterable<string>, resolver: UnitResolver): Promise<Map<string, LivePlace<{ unit: Unit }>>> {
  const units = [...new Set(ids)].flatMap((id) => graph.getUnit(id) ?? []);
  const places = await livePlacesOf(
    units.map((unit) => ({ unit })),
    resolver,
  );
  return new Map(places.map((place) => [place.listed.unit.id, place]));
}

/**
 * A listed unit where its code stands now, as the MCP tools and the CLI's JSON give it: its file and
 * symbol, its lines unless it is gone, `at` (lines recorded inside some unit's code, where they stand
 * now) when known, its status and the reason.
 */
export function livePlaceJson(unit: Unit, live: ResolvedLocation, at: number[] | undefined) {
  return {
    ...liveSpotOf(unit, live),
    ...(live.status === 'frozen' ? {} : { line: live.line, endLine: live.endLine }),
    ...(at ? { at } : {}),
    status: live.status,
    ...(live.reason ? { reason: live.reason } : {}),
  };
}

/** Still where the build put it: the same code, in the same file, at the same lines. */
export function inPlace(unit: Unit, live: ResolvedLocation): boolean {
  return live.status === 'fresh' && live.line === unit.startLine && live.endLine === unit.endLine;
}

/**
 * Where a listed unit's code stands now, as the viewer's answers and the CLI's JSON give it beside
 * the build's place: its status, the reason, and unless it is gone the file, symbol and lines that
 * hold it now. A unit still in place has none, so a handbook in step with the code lists only the
 * build's places (on gemini-cli the live fields of every listed unit nearly doubled the register).
 */
export interface LiveFields {
  status: LocatorStatus;
  reason?: string;
  liveFile?: string;
  liveSymbol?: string;
  liveLine?: number;
  liveEndLine?: number;
}

/** The live fields of a unit no longer where the build put it; undefined while it is. */
export function liveFieldsOf(unit: Unit, live: ResolvedLocation): LiveFields | undefined {
  if (inPlace(unit, live)) return undefined;
  const fields: LiveFields = { status: live.status };
  if (live.reason) fields.reason = live.reason;
  if (live.status !== 'frozen') {
    const at = liveSpotOf(unit, live);
    fields.liveFile = at.file;
    fields.liveSymbol = at.symbol;
    fields.liveLine = live.line;
    fields.liveEndLine = live.endLine;
  }
  return fields;
}

/** The file and symbol that hold a unit's code now: its own, or the one place its code moved to. */
export function liveSpotOf(unit: Unit, live: ResolvedLocation): { file: string; symbol: string } {
  return live.movedTo ?? { file: unit.file, symbol: unit.symbol };
}

/**
 * Lines the build recorded inside a unit (its calls, its reads), where they stand now. Code with the
 * build's hash over as many lines shifts them all by the same count; the hash is blind to
 * whitespace, so code reflowed within the same number of lines is the one case this misplaces.
 * Changed or gone code gives no line a place: undefined, never the build's lines.
 */
export function liveLinesOf(lines: readonly number[], unit: Unit, live: ResolvedLocation): number[] | undefined {
  const sameCode = live.status === 'fresh' || live.status === 'moved';
  if (!sameCode || live.endLine - live.line !== unit.endLine - unit.startLine) return undefined;
  const shift = live.line - unit.startLine;
  return lines.map((line) => line + shift);
}
