import type { Unit } from '../../graph/model.js';
import type { LiveResolver, ResolvedLocation } from '../../locate/live-resolver.js';
import { linesPhrase } from '../../text/line-list.js';

/**
 * Where a unit the navigation tools list stands now, as the shared live resolver judges it. A planner
 * reads and cites the places a tool prints, so none is printed from the build alone: an edit above a
 * unit shifts its lines, a move changes its file, and code that is gone has no place at all.
 */
export interface LivePlace<T extends { unit: Unit }> {
  listed: T;
  live: ResolvedLocation;
}

/** The live places of the listed units only, through one resolver, which reads each file once. */
export function livePlacesOf<T extends { unit: Unit }>(listed: readonly T[], resolver: LiveResolver): Promise<Array<LivePlace<T>>> {
  return Promise.all(listed.map(async (item) => ({ listed: item, live: await resolver.resolve(item.unit) })));
}

/** "src/a.ts:12-20", "moved to src/b.ts:3-11", "gone: why": a listed unit's place for one line of a listing. */
export function placePhrase(unit: Unit, live: ResolvedLocation): string {
  return elsewherePhrase(unit, live) ?? `${unit.file}:${live.line}-${live.endLine}${changedNote(live)}`;
}

/** "lines 12-20" where the unit's id already names its file, and `placePhrase`'s words when its code left it. */
export function ownLinesPhrase(unit: Unit, live: ResolvedLocation): string {
  return elsewherePhrase(unit, live) ?? `lines ${live.line}-${live.endLine}${changedNote(live)}`;
}

function elsewherePhrase(unit: Unit, live: ResolvedLocation): string | undefined {
  if (live.status === 'frozen') return `gone: ${live.reason ?? `${unit.symbol} is no longer in ${unit.file}`}`;
  if (live.movedTo) return `moved to ${live.movedTo.file}:${live.line}-${live.endLine}${live.movedTo.symbol === unit.symbol ? '' : ` as ${live.movedTo.symbol}`}`;
  return undefined;
}

function changedNote(live: ResolvedLocation): string {
  return live.status === 'changed' ? ', changed since the build' : '';
}

/** A listed id with a note when it no longer names the live code: the id is what a planner passes on. */
export function idPhrase(unit: Unit, live: ResolvedLocation): string {
  if (live.status === 'frozen') return `${unit.id} (gone)`;
  return live.movedTo ? `${unit.id} (moved to ${live.movedTo.file}#${live.movedTo.symbol})` : unit.id;
}

/**
 * "at line 14": lines the build recorded inside a unit (its calls, its reads), where they stand now.
 * Code with the build's hash over as many lines shifts them all by the same count; the hash is blind
 * to whitespace, so code reflowed within the same number of lines is the one case this misplaces.
 * Changed or gone code gives no line a place, and the phrase says so rather than print the build's.
 */
export function liveLinesPhrase(lines: readonly number[], unit: Unit, live: ResolvedLocation): string {
  const sameCode = live.status === 'fresh' || live.status === 'moved';
  if (!sameCode || live.endLine - live.line !== unit.endLine - unit.startLine) return '(at lines not known now: the code they were in changed since the build)';
  const shift = live.line - unit.startLine;
  return `at ${linesPhrase(lines.map((line) => line + shift))}`;
}
