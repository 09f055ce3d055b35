import { declarationNote, inPlace, liveFieldsOf, liveLinesOf, livePlaceJson, liveSpotOf, nameNote as liveNameNote, placeNote } from '../index.js';
import type { LiveDeclaration, LiveFields, LivePlace, Overview, RegisterEntry, ResolvedLocation, Unit } from '../index.js';

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

/** The CLI's separator before a note, when there is one. */
function spaced(note: string): string {
  return note ? `  ${note}` : '';
}

/** "src/a.ts:14  run", "src/b.ts:3  run  (moved from src/a.ts)", "src/a.ts:9  run  (changed)", "src/a.ts  run  (gone)". */
export function placeText(unit: Unit, live: ResolvedLocation): string {
  if (live.status === 'frozen') return `${unit.file}  ${unit.symbol}${spaced(placeNote(unit, live))}`;
  const at = liveSpotOf(unit, live);
  return `${at.file}:${live.line}  ${at.symbol}${spaced(placeNote(unit, live))}`;
}

/** " (changed)", " (moved to src/b.ts)" or " (gone)" after a name printed without its place; nothing while its code is the build's. */
export function nameNote(id: string, placed: Placed): string {
  const note = liveNameNote(placed.get(id)?.live);
  return note ? ` ${note}` : '';
}

/** "src/a.ts:8", "src/b.ts:3  (moved from src/a.ts)", "src/a.ts  (changed)" when the line is not known now, "src/a.ts  (gone)". */
export function declarationText(entry: RegisterEntry, declared: LiveDeclaration): string {
  const at = declared.line === undefined ? declared.file : `${declared.file}:${declared.line}`;
  return `${at}${spaced(declarationNote(entry.file, declared))}`;
}

/** A register entry with where its slot is declared now (`declared`, as the MCP register tool gives it), when that is not the build's place. */
export function registerEntryJson(entry: RegisterEntry, declared: LiveDeclaration, placed: Placed) {
  const moved = declared.status !== 'fresh' || declared.file !== entry.file || declared.line !== entry.line;
  return {
    ...entry,
    ...(moved ? { declared } : {}),
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

/** The viewer's live fields of the unit of this id when it no longer stands where the build put it. */
function liveFieldsById(id: string, placed: Placed): LiveFields | undefined {
  const place = placed.get(id);
  return place && liveFieldsOf(place.listed.unit, place.live);
}

/** A stage member with the viewer's live fields when its code no longer stands where the build put it. */
export function memberJson<T extends { unit: string }>(member: T, placed: Placed) {
  const fields = liveFieldsById(member.unit, placed);
  return fields ? { ...member, ...fields } : member;
}

/**
 * The overview with `displacedEntryPoints` when some entry point no longer stands where the build
 * put it: each as the viewer links it (its build place, then the live fields). The ids stay a list
 * of ids, as scripts read them.
 */
export function overviewJson(overview: Overview, placed: Placed) {
  const moved = overview.entryPoints.flatMap((id) => {
    const fields = liveFieldsById(id, placed);
    const unit = placed.get(id)?.listed.unit;
    return fields && unit ? [{ unit: unit.id, symbol: unit.symbol, file: unit.file, line: unit.startLine, ...fields }] : [];
  });
  return moved.length === 0 ? overview : { ...overview, displacedEntryPoints: moved };
}
