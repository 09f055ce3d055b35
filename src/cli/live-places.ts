import { declarationNote, inPlace, liveFieldsOf, liveLinesOf, livePlaceJson, liveSpotOf, nameNote as liveNameNote, placeNote as liveNote } from '../index.js';
import type { LiveDeclaration, LivePlace, Neighbour, Overview, RegisterEntry, ResolvedLocation, StateAccess, Unit } from '../index.js';

/**
 * Where the units a read command prints stand now, as the MCP tools and the viewer show them: a
 * reader goes to the place it is shown, and a handbook may be behind the code. The build's place
 * stays in the JSON, so scripts that read it keep working; what differs now is added beside it,
 * and only when it differs, so a handbook in step with the code prints what it always printed.
 */

export type Placed = ReadonlyMap<string, LivePlace<{ unit: Unit }>>;

type AccessRecord = RegisterEntry['writers'][number];

/** The live place of the unit of this id when it no longer stands where the build put it. */
function displaced(id: string, placed: Placed): LivePlace<{ unit: Unit }> | undefined {
  const place = placed.get(id);
  return place && !inPlace(place.listed.unit, place.live) ? place : undefined;
}

/** Where a unit stands now; one the command did not resolve is where the build put it. */
export function liveOf(unit: Unit, placed: Placed): ResolvedLocation {
  return placed.get(unit.id)?.live ?? { status: 'fresh', line: unit.startLine, endLine: unit.endLine, hash: unit.hash };
}

/** The CLI's separator before a note, when there is one. */
function spaced(note: string): string {
  return note ? `  ${note}` : '';
}

/** "  (moved from src/a.ts)", "  (changed)" or "  (gone)" after a place printed; nothing while its code is the build's. */
function placeNote(unit: Unit, live: ResolvedLocation): string {
  return spaced(liveNote(unit, live));
}

/** "src/a.ts:14  run", "src/b.ts:3  run  (moved from src/a.ts)", "src/a.ts:9  run  (changed)", "src/a.ts  run  (gone)". */
export function placeText(unit: Unit, live: ResolvedLocation): string {
  const at = liveSpotOf(unit, live);
  const line = live.status === 'frozen' ? '' : `:${live.line}`;
  return `${at.file}${line}  ${at.symbol}${placeNote(unit, live)}`;
}

/** "src/a.ts:14", "src/b.ts:3  (moved from src/a.ts)", "src/a.ts:9  (changed)", "src/a.ts  (gone)": where a unit starts now. */
export function startText(unit: Unit, live: ResolvedLocation): string {
  const { file } = liveSpotOf(unit, live);
  return `${live.status === 'frozen' ? file : `${file}:${live.line}`}${placeNote(unit, live)}`;
}

/**
 * "src/a.ts:14-20", "src/a.ts:9-30  (changed)", "src/a.ts  (gone)", "src/b.ts:3-11  (moved from
 * src/a.ts)": a unit's lines now, with the symbol that holds its code when that is not its own
 * ("src/b.ts:3-11  Redactor.redact  (moved from src/a.ts)").
 */
export function spanText(unit: Unit, live: ResolvedLocation): string {
  if (live.status === 'frozen') return `${unit.file}${placeNote(unit, live)}`;
  const at = liveSpotOf(unit, live);
  const renamed = at.symbol === unit.symbol ? '' : `  ${at.symbol}`;
  return `${at.file}:${live.line}-${live.endLine}${renamed}${placeNote(unit, live)}`;
}

/**
 * Lines the build recorded inside a unit (its calls, its writes, its reads) where they stand now:
 * "src/a.ts:12,14", "src/b.ts:5  (moved from src/a.ts)"; the file alone when that code changed or
 * is gone, since no line of the build's says where they are: "src/a.ts  (changed)", "src/a.ts  (gone)".
 */
export function linesText(lines: readonly number[], unit: Unit, live: ResolvedLocation): string {
  const now = liveLinesOf(lines, unit, live);
  const { file } = liveSpotOf(unit, live);
  return `${now ? `${file}:${now.join(',')}` : file}${placeNote(unit, live)}`;
}

/** " (changed)", " (moved to src/b.ts)" or " (gone)" after a name printed without its place; nothing while its code is the build's. */
export function nameNote(id: string, placed: Placed): string {
  const note = liveNameNote(placed.get(id)?.live);
  return note ? ` ${note}` : '';
}

/** "src/a.ts:8", "src/b.ts:3  (moved from src/a.ts)", "src/a.ts  (changed)" when the line is not known now, "src/a.ts  (gone)". */
export function declarationText(built: { file: string }, declared: LiveDeclaration): string {
  const at = declared.line === undefined ? declared.file : `${declared.file}:${declared.line}`;
  return `${at}${spaced(declarationNote(built.file, declared))}`;
}

/** A slot's record (a register entry, a slot) with where it is declared now (`declared`, as the MCP register tool gives it), when that is not the build's place. */
export function withDeclared<T extends { file: string; line: number }>(record: T, declared: LiveDeclaration): T | (T & { declared: LiveDeclaration }) {
  const moved = declared.status !== 'fresh' || declared.file !== record.file || declared.line !== record.line;
  return moved ? { ...record, declared } : record;
}

/** A register entry with `declared` when its slot is not declared where the build put it, and its writers and readers where they stand now. */
export function registerEntryJson(entry: RegisterEntry, declared: LiveDeclaration, placed: Placed) {
  return {
    ...withDeclared(entry, declared),
    writers: entry.writers.map((access) => accessJson(access, placed)),
    readers: entry.readers.map((access) => accessJson(access, placed)),
  };
}

/**
 * A writer or reader with, when it no longer stands where the build put it, the fields the MCP
 * register tool gives it: its file, symbol and lines now (none when gone), its status, and the
 * lines of its accesses now (`at`, absent when its code changed or is gone).
 */
function accessJson(access: AccessRecord, placed: Placed) {
  const place = displaced(access.unit, placed);
  if (!place) return access;
  const { unit } = place.listed;
  const { live } = place;
  return { ...access, ...livePlaceJson(unit, live, liveLinesOf(access.lines, unit, live)) };
}

/** A record of the unit `id` with the viewer's live fields when that unit's code no longer stands where the build put it. */
function withLiveFields<T extends object>(record: T, id: string, placed: Placed) {
  const place = displaced(id, placed);
  return place ? { ...record, ...liveFieldsOf(place.listed.unit, place.live) } : record;
}

/** A stage member with the viewer's live fields when its code no longer stands where the build put it. */
export function memberJson<T extends { unit: string }>(member: T, placed: Placed) {
  return withLiveFields(member, member.unit, placed);
}

/** A unit as the graph holds it, with the viewer's live fields when its code no longer stands where the build put it. */
export function unitJson(unit: Unit, placed: Placed) {
  return withLiveFields(unit, unit.id, placed);
}

/** A unit the answer names by id, as the viewer links it (its build place, then the live fields), when it no longer stands where the build put it. */
export function displacedJson(id: string, placed: Placed) {
  const place = displaced(id, placed);
  if (!place) return undefined;
  const { unit } = place.listed;
  return { unit: unit.id, symbol: unit.symbol, file: unit.file, line: unit.startLine, ...liveFieldsOf(unit, place.live) };
}

/**
 * The overview with `displacedEntryPoints` when some entry point no longer stands where the build
 * put it: each as displacedJson gives it. The ids stay a list of ids, as scripts read them.
 */
export function overviewJson(overview: Overview, placed: Placed) {
  const moved = overview.entryPoints.flatMap((id) => displacedJson(id, placed) ?? []);
  return moved.length === 0 ? overview : { ...overview, displacedEntryPoints: moved };
}

/**
 * A caller, callee, writer or reader as `graph` lists it (its id, file and line, and `at`: the lines
 * of the calls, writes or reads), with the viewer's live fields when its code no longer stands where
 * the build put it, and `liveAt` when the code holding those lines moved on and they are known now.
 * They lie in `holder`: the listed unit itself for a caller, writer or reader; the unit asked about
 * for a callee. Without `liveAt`, that code's status says whether `at` still holds: the listed unit's
 * own, or for a callee the one asked about.
 */
export function neighbourJson(neighbour: Neighbour | StateAccess, holder: Unit, placed: Placed) {
  const { unit, lines } = neighbour;
  const via = 'via' in neighbour ? neighbour.via : undefined;
  const built = { id: unit.id, file: unit.file, line: unit.startLine, at: lines, ...(via ? { via } : {}) };
  const held = displaced(holder.id, placed);
  const liveAt = held && liveLinesOf(lines, held.listed.unit, held.live);
  return { ...withLiveFields(built, unit.id, placed), ...(liveAt ? { liveAt } : {}) };
}

/** Callers or callees of `unit` as neighbourJson lists them: a caller's calls lie in the caller's code, a callee's in `unit`'s. */
export function callsJson(unit: Unit, direction: 'callers' | 'callees', neighbours: readonly Neighbour[], placed: Placed) {
  return neighbours.map((neighbour) => neighbourJson(neighbour, direction === 'callers' ? neighbour.unit : unit, placed));
}
