import type { Unit } from '../../graph/model.js';
import type { LiveDeclaration } from '../../locate/live-declaration.js';
import { liveLinesOf } from '../../locate/live-place.js';
import type { ResolvedLocation } from '../../locate/live-resolver.js';
import { linesPhrase } from '../../text/line-list.js';

/**
 * The navigation tools' words for a listed unit's live place (src/locate/live-place.ts): a planner
 * reads and cites the places a tool prints, so none is printed from the build alone.
 */

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

/** "at line 14": lines the build recorded inside a unit, where they stand now, or words saying they are not known now. */
export function liveLinesPhrase(lines: readonly number[], unit: Unit, live: ResolvedLocation): string {
  const now = liveLinesOf(lines, unit, live);
  return now ? `at ${linesPhrase(now)}` : '(at lines not known now: the code they were in changed since the build)';
}

/** "declared at src/a.ts:12", or where it was declared and why its line is not known now. */
export function declarationPhrase(declared: LiveDeclaration): string {
  if (declared.status === 'frozen') return `declared in ${declared.file} when the handbook was built, gone now: ${declared.reason ?? 'its code is no longer there'}`;
  if (declared.line === undefined) return `declared in ${declared.file}, at a line not known now (${declared.reason ?? 'the code holding it changed since the build'})`;
  const since = declared.status === 'moved' ? ', moved there since the build' : declared.status === 'changed' ? ', changed since the build' : '';
  return `declared at ${declared.file}:${declared.line}${since}`;
}
