import { type Edge, HERITAGE_KINDS, type SourceFileRecord, type Unit, type UnresolvedCall } from '../graph/model.js';
import {
  type FileDetails, graphRowStatements, type GraphRowStatements, type Statement, insertEdgeRows, insertEdges, insertFileRow, insertUnresolved, insertUnresolvedRows, unitColumns, unitRowsByUnit,
} from './graph-rows.js';
import type { HandbookDatabase } from './open-database.js';
import { bySource, edgeRowKey, sameOutgoingRows, type StoredEdgeRow, type StoredUnresolvedRow, unresolvedRowKey } from './unit-rows.js';
import { type PlaceOf, storedEdgeLines, type UnitPlace } from './stored-lines.js';

/**
 * Updating a generation in place, row by row: a sync's edit of one function in a large file
 * changes a handful of its rows, and moves the lines of every unit below it. Deleting and
 * inserting all the file's rows again cost most of such a sync's write (crush's 151 KB
 * internal/ui/model/ui.go: 3,000 rows, 34 ms); with lines stored relative to their unit
 * (stored-lines.ts) and each unit's rows known by a digest (unit-rows.ts), only the rows that
 * differ are written, and only the rows of units whose digest moved are read back.
 */

/** The replaced files' rows as analysis gives them, heritage edges aside. */
export interface FileRows {
  files: readonly SourceFileRecord[];
  units: readonly Unit[];
  edges: readonly Edge[];
  unresolved: readonly UnresolvedCall[];
}

/** What an update reads of a stored unit: the rest of its row is known by the digest. */
interface StoredUnitPlace {
  id: string;
  file: string;
  start_line: number;
  end_line: number;
  rows_digest: string;
}

interface UpdateStatements {
  unitsOfFile: Statement;
  updateUnit: Statement;
  moveUnit: Statement;
  deleteUnit: Statement;
  deleteFile: Statement;
  edgesOf: Statement;
  deleteEdgesOf: Statement;
  deleteEdge: Statement;
  deleteHeritageOf: Statement;
  deleteHeritage: Statement;
  unresolvedOf: Statement;
  deleteUnresolvedOf: Statement;
  deleteUnresolved: Statement;
}

const prepared = new WeakMap<HandbookDatabase, UpdateStatements>();
const HERITAGE_LIST = [...HERITAGE_KINDS].map((kind) => `'${kind}'`).join(', ');

function updateStatements(database: HandbookDatabase): UpdateStatements {
  let statements = prepared.get(database);
  if (!statements) {
    statements = {
      // By the index on file: SQLite's planner, left to itself, reads every unit of the generation to find a file's.
      unitsOfFile: database.prepare<unknown[]>('SELECT id, file, start_line, end_line, rows_digest FROM units INDEXED BY units_by_file WHERE generation = ? AND file = ?'),
      updateUnit: database.prepare<unknown[]>(
        'UPDATE units SET kind = ?, file = ?, symbol = ?, start_line = ?, end_line = ?, signature = ?, doc = ?, exported = ?, hash = ?, parent = ?, literals = ?, words = ?, rows_digest = ? WHERE generation = ? AND id = ?',
      ),
      moveUnit: database.prepare<unknown[]>('UPDATE units SET start_line = ?, end_line = ? WHERE generation = ? AND id = ?'),
      deleteUnit: database.prepare<unknown[]>('DELETE FROM units WHERE generation = ? AND id = ?'),
      deleteFile: database.prepare<unknown[]>('DELETE FROM files WHERE generation = ? AND path = ?'),
      edgesOf: database.prepare<unknown[]>(`SELECT rowid, kind, target, lines, via, resolution FROM edges WHERE generation = ? AND source = ? AND kind NOT IN (${HERITAGE_LIST})`),
      deleteEdgesOf: database.prepare<unknown[]>('DELETE FROM edges WHERE generation = ? AND source = ?'),
      deleteEdge: database.prepare<unknown[]>('DELETE FROM edges WHERE rowid = ?'),
      deleteHeritageOf: database.prepare<unknown[]>(`DELETE FROM edges WHERE generation = ? AND source = ? AND kind IN (${HERITAGE_LIST})`),
      deleteHeritage: database.prepare<unknown[]>(`DELETE FROM edges WHERE generation = ? AND kind IN (${HERITAGE_LIST})`),
      unresolvedOf: database.prepare<unknown[]>('SELECT rowid, text, line, reason FROM unresolved WHERE generation = ? AND source = ?'),
      deleteUnresolvedOf: database.prepare<unknown[]>('DELETE FROM unresolved WHERE generation = ? AND source = ?'),
      deleteUnresolved: database.prepare<unknown[]>('DELETE FROM unresolved WHERE rowid = ?'),
    };
    prepared.set(database, statements);
  }
  return statements;
}

/**
 * Turns stored rows (by rowid, compared by key, duplicates counted) into `wanted`: a row in both
 * is left alone, the rest are deleted by rowid or inserted.
 */
function reconcile<T>(stored: ReadonlyArray<{ rowid: number; key: string }>, wanted: readonly T[], key: (row: T) => string, remove: (rowid: number) => void, insert: (rows: T[]) => void): void {
  const left = new Map<string, number[]>();
  for (const row of stored) {
    const rowids = left.get(row.key);
    if (rowids) rowids.push(row.rowid);
    else left.set(row.key, [row.rowid]);
  }
  const missing: T[] = [];
  for (const row of wanted) {
    const rowids = left.get(key(row));
    if (rowids && rowids.length > 0) rowids.pop();
    else missing.push(row);
  }
  for (const rowids of left.values()) for (const rowid of rowids) remove(rowid);
  insert(missing);
}

/** Brings one unit's stored outgoing rows (heritage aside) to `edges` and `unresolved`, writing only the rows that differ. */
function reconcileOutgoing(
  statements: UpdateStatements, rows: GraphRowStatements, generation: number, source: string, edges: readonly StoredEdgeRow[], unresolved: readonly StoredUnresolvedRow[],
): void {
  const storedEdges = (statements.edgesOf.all(generation, source) as Array<StoredEdgeRow & { rowid: number }>).map((row) => ({ rowid: row.rowid, key: edgeRowKey(row) }));
  reconcile(storedEdges, edges, edgeRowKey, (rowid) => statements.deleteEdge.run(rowid), (missing) => insertEdgeRows(rows, generation, source, missing));
  const storedUnresolved = (statements.unresolvedOf.all(generation, source) as Array<StoredUnresolvedRow & { rowid: number }>).map((row) => ({ rowid: row.rowid, key: unresolvedRowKey(row) }));
  reconcile(storedUnresolved, unresolved, unresolvedRowKey, (rowid) => statements.deleteUnresolved.run(rowid), (missing) => insertUnresolvedRows(rows, generation, source, missing));
}

/**
 * Replaces the rows of the named files (the file, its units, their edges other than heritage and
 * their unresolved calls) with `rows`, writing only what differs from what the store holds.
 * `placeOf` gives every unit as it stands once written. Returns where the files' units stood
 * before, which heritage edges were anchored to.
 */
export function replaceFileRows(
  database: HandbookDatabase, generation: number, files: ReadonlySet<string>, rows: FileRows, fileDetails: ReadonlyMap<string, FileDetails>, placeOf: PlaceOf,
): Map<string, UnitPlace> {
  const statements = updateStatements(database);
  const insert = graphRowStatements(database);
  const outgoing = unitRowsByUnit(rows.units, rows.edges, rows.unresolved, placeOf);
  const unitsByFile = new Map<string, Unit[]>();
  for (const unit of rows.units) {
    const list = unitsByFile.get(unit.file);
    if (list) list.push(unit);
    else unitsByFile.set(unit.file, [unit]);
  }
  const before = new Map<string, UnitPlace>();
  for (const file of new Set([...files, ...unitsByFile.keys()])) {
    const stored = new Map((statements.unitsOfFile.all(generation, file) as StoredUnitPlace[]).map((row) => [row.id, row]));
    for (const row of stored.values()) before.set(row.id, { file: row.file, startLine: row.start_line });
    for (const unit of unitsByFile.get(file) ?? []) {
      const unitRows = outgoing.byUnit.get(unit.id)!;
      const was = stored.get(unit.id);
      stored.delete(unit.id);
      if (!was) {
        insert.insertUnit.run(generation, ...unitColumns(unit, unitRows.digest));
        insertEdgeRows(insert, generation, unit.id, unitRows.edges());
        insertUnresolvedRows(insert, generation, unit.id, unitRows.unresolved());
        continue;
      }
      if (was.rows_digest !== unitRows.digest) {
        if (!sameOutgoingRows(was.rows_digest, unitRows.digest)) reconcileOutgoing(statements, insert, generation, unit.id, unitRows.edges(), unitRows.unresolved());
        const [id, ...columns] = unitColumns(unit, unitRows.digest);
        statements.updateUnit.run(...columns, generation, id);
      } else if (was.start_line !== unit.startLine || was.end_line !== unit.endLine) {
        // A unit an edit above it moved, and nothing else: its rows, relative to it, stay as they are.
        statements.moveUnit.run(unit.startLine, unit.endLine, generation, unit.id);
      }
    }
    // Units gone, with every row leaving them, heritage edges among them.
    for (const id of stored.keys()) {
      statements.deleteUnit.run(generation, id);
      statements.deleteEdgesOf.run(generation, id);
      statements.deleteUnresolvedOf.run(generation, id);
    }
    statements.deleteFile.run(generation, file);
  }
  for (const file of rows.files) insertFileRow(insert, generation, file, fileDetails.get(file.path));
  insertEdges(insert, generation, outgoing.strayEdges, placeOf);
  insertUnresolved(insert, generation, outgoing.strayUnresolved, placeOf);
  return before;
}

function sameEdges(before: readonly Edge[], after: readonly Edge[]): boolean {
  return before.length === after.length && before.every((edge, index) => {
    const other = after[index]!;
    return edge.kind === other.kind && edge.to === other.to && edge.via === other.via && edge.resolution === other.resolution
      && edge.lines.length === other.lines.length && edge.lines.every((line, position) => line === other.lines[position]);
  });
}

/**
 * Replaces the generation's heritage edges, which every sync recomputes for the whole tree, with
 * `heritage`. With the edges as last written (`previous`, whose `placeOf` says where units stood
 * then), only the edges of units whose heritage differs, counted from its unit, are rewritten;
 * without, all.
 */
export function replaceHeritage(
  database: HandbookDatabase, generation: number, heritage: readonly Edge[], placeOf: PlaceOf,
  previous?: {
    edges: readonly Edge[];
    placeOf: PlaceOf;
    /** Whether a unit's first line moved since: false for most, which spares finding where they stand. */
    moved: (unit: string) => boolean;
  },
): void {
  const statements = updateStatements(database);
  const insert = graphRowStatements(database);
  if (!previous) {
    statements.deleteHeritage.run(generation);
    insertEdges(insert, generation, heritage, placeOf);
    return;
  }
  const keyOf = (edges: readonly Edge[], places: PlaceOf): string =>
    edges.map((edge) => edgeRowKey({ kind: edge.kind, target: edge.to, lines: storedEdgeLines(edge, places), via: edge.via ?? null, resolution: edge.resolution ?? null })).sort().join('\u0002');
  const was = bySource(previous.edges);
  const now = bySource(heritage);
  for (const source of new Set([...was.keys(), ...now.keys()])) {
    const edges = now.get(source) ?? [];
    const before = was.get(source) ?? [];
    // Most units' heritage is as it was, where it was: told so without the stored form of every edge of the tree.
    if (!previous.moved(source) && sameEdges(before, edges)) continue;
    if (keyOf(before, previous.placeOf) === keyOf(edges, placeOf)) continue;
    statements.deleteHeritageOf.run(generation, source);
    insertEdges(insert, generation, edges, placeOf);
  }
}
