import { hash } from 'node:crypto';
import type { Edge, Unit, UnresolvedCall } from '../graph/model.js';
import { type PlaceOf, storedEdgeLines, unresolvedAnchor } from './stored-lines.js';

/** An edge row as stored, less its generation and source. */
export interface StoredEdgeRow {
  kind: string;
  target: string;
  /** JSON, relative to the edge's anchor (stored-lines.ts). */
  lines: string;
  via: string | null;
  resolution: string | null;
}

/** An unresolved call's row as stored, less its generation and source. */
export interface StoredUnresolvedRow {
  text: string;
  /** Relative to the source unit's first line. */
  line: number;
  reason: string;
}

/**
 * A unit's outgoing rows (its edges, heritage aside, and its unresolved calls) as the store holds
 * them, and the digest of those and of the unit's own row, its lines aside: what the unit's
 * `rows_digest` column holds. An update tells the units an edit left alone (most of a large
 * file, once lines are relative) by their digest and first and last lines, read without the
 * rest of their rows, and reads back only the rows of units whose outgoing rows moved.
 */
export interface UnitRows {
  /** The digest of the unit's own row (lines aside), then that of its outgoing rows: each DIGEST_PART characters. */
  digest: string;
  /** The rows in stored form, made when they are written: most units' are not. */
  edges(): StoredEdgeRow[];
  unresolved(): StoredUnresolvedRow[];
}

// The separators and the null mark are characters no identifier, path, text or JSON here holds.
const nullable = (value: string | null | undefined): string => value ?? '\u0001';
export const edgeRowKey = (row: StoredEdgeRow): string => `${row.kind}\u0000${row.target}\u0000${row.lines}\u0000${nullable(row.via)}\u0000${nullable(row.resolution)}`;
export const unresolvedRowKey = (row: StoredUnresolvedRow): string => `${row.text}\u0000${row.line}\u0000${row.reason}`;

/** The columns of a unit's row that its lines leave out, as one text. */
function unitRowKey(unit: Unit): string {
  return `${unit.kind}\u0000${unit.file}\u0000${unit.symbol}\u0000${unit.signature}\u0000${unit.doc}\u0000${unit.exported ? '1' : '0'}\u0000${unit.hash}\u0000${nullable(unit.parent)}\u0000${unit.literals}\u0000${unit.words}`;
}

/** Row keys in order: sorted, so the same rows give the same digest whatever order they came in (a sync lists a file's edges as it resolved them, a build in canonical order). */
function sortedKeys<T>(rows: readonly T[], key: (row: T) => string): string {
  const keys = rows.map(key);
  for (let index = 1; index < keys.length; index += 1) {
    // Most lists come sorted already: checked in one pass, they need no sort.
    if (keys[index]! < keys[index - 1]!) return keys.sort().join('\u0002');
  }
  return keys.join('\u0002');
}

/** One unit's outgoing rows and digest, with `placeOf` giving the units as they will stand once written. */
export function unitRowsOf(unit: Unit, edges: readonly Edge[], unresolved: readonly UnresolvedCall[], placeOf: PlaceOf): UnitRows {
  const edgeRows = (): StoredEdgeRow[] => edges.map((edge) => ({
    kind: edge.kind, target: edge.to, lines: storedEdgeLines(edge, placeOf), via: edge.via ?? null, resolution: edge.resolution ?? null,
  }));
  const unresolvedRows = (): StoredUnresolvedRow[] => unresolved.map((call) => ({ text: call.text, line: call.line - unresolvedAnchor(call, placeOf), reason: call.reason }));
  // Keys made straight from the rows given, without the stored rows' objects: this runs for every unit of every file a sync replaces.
  const edgeKeys = sortedKeys(edges, (edge) => `${edge.kind}\u0000${edge.to}\u0000${storedEdgeLines(edge, placeOf)}\u0000${nullable(edge.via)}\u0000${nullable(edge.resolution)}`);
  const unresolvedKeys = sortedKeys(unresolved, (call) => `${call.text}\u0000${call.line - unresolvedAnchor(call, placeOf)}\u0000${call.reason}`);
  // Apart, so a unit whose text alone changed (a file unit, whose hash every edit moves, and its hundreds of edges) is not read back.
  return { digest: `${digestPart(unitRowKey(unit))}${digestPart(`${edgeKeys}\u0003${unresolvedKeys}`)}`, edges: edgeRows, unresolved: unresolvedRows };
}

/** The length of each part of a digest. */
export const DIGEST_PART = 16;

/** A part of a digest: sha1 in one call, which over a large file's units takes half the time of a hash object's three. */
function digestPart(text: string): string {
  return hash('sha1', text, 'hex').slice(0, DIGEST_PART);
}

/** Whether two digests name the same outgoing rows: '' (a unit migrated from before digests) names none. */
export function sameOutgoingRows(stored: string, digest: string): boolean {
  return stored.length === 2 * DIGEST_PART && stored.slice(DIGEST_PART) === digest.slice(DIGEST_PART);
}

/** Lists grouped by the unit they leave, in the order given. */
export function bySource<T extends { from: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.from);
    if (group) group.push(row);
    else groups.set(row.from, [row]);
  }
  return groups;
}
