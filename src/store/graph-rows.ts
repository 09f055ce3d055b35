import type { DeclarationDigest } from '../analyze/front-end.js';
import { type Edge, HERITAGE_KINDS, type ProgramGraphData, type Slot, type SourceFileRecord, type Unit, type UnresolvedCall } from '../graph/model.js';
import type Database from 'better-sqlite3';
import type { HandbookDatabase } from './open-database.js';
import { bySource, type StoredEdgeRow, type StoredUnresolvedRow, type UnitRows, unitRowsOf } from './unit-rows.js';
import { type PlaceOf, storedEdgeLines, type UnitPlace, unresolvedAnchor } from './stored-lines.js';

/** Per-file facts a later sync needs and the graph does not hold. */
export interface FileDetails {
  declarations: DeclarationDigest;
  callSites: number;
  resolvedCalls: number;
  /** Lines of the resolved call sites: lets a kept-open sync resolve a file's first edit in part. */
  resolvedCallLines?: readonly number[];
}

/** A prepared statement, its parameters given in order. */
export type Statement = Database.Statement<unknown[]>;

/** The statements that write graph rows, prepared once per connection: a sync of one file runs them thousands of times. */
export interface GraphRowStatements {
  insertFile: Statement;
  insertUnit: Statement;
  insertEdge: Statement;
  insertUnresolved: Statement;
  insertSlot: Statement;
}

const prepared = new WeakMap<HandbookDatabase, GraphRowStatements>();

export function graphRowStatements(database: HandbookDatabase): GraphRowStatements {
  let statements = prepared.get(database);
  if (!statements) {
    statements = {
      insertFile: database.prepare<unknown[]>(
        'INSERT INTO files (generation, path, size, hash, lines, test, parse_errors, external_imports, declarations, call_sites, resolved_calls, resolved_call_lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertUnit: database.prepare<unknown[]>(
        'INSERT INTO units (generation, id, kind, file, symbol, start_line, end_line, signature, doc, exported, hash, parent, literals, words, rows_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertEdge: database.prepare<unknown[]>('INSERT INTO edges (generation, kind, source, target, lines, via, resolution) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      insertUnresolved: database.prepare<unknown[]>('INSERT INTO unresolved (generation, source, text, line, reason) VALUES (?, ?, ?, ?, ?)'),
      insertSlot: database.prepare<unknown[]>('INSERT INTO slots (generation, id, kind, file, owner, name, line, type) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    };
    prepared.set(database, statements);
  }
  return statements;
}

/** The columns of a unit row in the order `insertUnit` and the update in place take them, after the generation. */
export function unitColumns(unit: Unit, digest: string): unknown[] {
  return [unit.id, unit.kind, unit.file, unit.symbol, unit.startLine, unit.endLine, unit.signature, unit.doc, unit.exported ? 1 : 0, unit.hash, unit.parent ?? null, unit.literals, unit.words, digest];
}

export function insertFileRow(statements: GraphRowStatements, generation: number, file: SourceFileRecord, details: FileDetails | undefined): void {
  statements.insertFile.run(generation, file.path, file.size, file.hash, file.lines, file.test ? 1 : 0, file.parseErrors, JSON.stringify(file.externalImports),
    JSON.stringify(details?.declarations ?? {}), details?.callSites ?? 0, details?.resolvedCalls ?? 0,
    details?.resolvedCallLines ? JSON.stringify(details.resolvedCallLines) : null);
}

export function insertEdgeRows(statements: GraphRowStatements, generation: number, source: string, rows: readonly StoredEdgeRow[]): void {
  for (const row of rows) statements.insertEdge.run(generation, row.kind, source, row.target, row.lines, row.via, row.resolution);
}

export function insertUnresolvedRows(statements: GraphRowStatements, generation: number, source: string, rows: readonly StoredUnresolvedRow[]): void {
  for (const row of rows) statements.insertUnresolved.run(generation, source, row.text, row.line, row.reason);
}

/** Edges written whole (heritage, or rows of no unit), their lines anchored as everywhere. */
export function insertEdges(statements: GraphRowStatements, generation: number, edges: readonly Edge[], placeOf: PlaceOf): void {
  for (const edge of edges) statements.insertEdge.run(generation, edge.kind, edge.from, edge.to, storedEdgeLines(edge, placeOf), edge.via ?? null, edge.resolution ?? null);
}

/** Unresolved calls written whole (rows of no unit written with the graph's), anchored as everywhere. */
export function insertUnresolved(statements: GraphRowStatements, generation: number, calls: readonly UnresolvedCall[], placeOf: PlaceOf): void {
  for (const call of calls) statements.insertUnresolved.run(generation, call.from, call.text, call.line - unresolvedAnchor(call, placeOf), call.reason);
}

export function insertSlots(statements: GraphRowStatements, generation: number, slots: readonly Slot[]): void {
  for (const slot of slots) statements.insertSlot.run(generation, slot.id, slot.kind, slot.file, slot.owner, slot.name, slot.line, slot.type);
}

/** Where each unit of a list stands: the places lines are anchored to. */
export function placesOf(units: readonly Unit[]): Map<string, UnitPlace> {
  return new Map(units.map((unit) => [unit.id, { file: unit.file, startLine: unit.startLine }]));
}

/** Each unit's outgoing rows (heritage aside) in stored form with its digest, from a graph's edges and unresolved calls, and the rows that leave no unit of `units`. */
export function unitRowsByUnit(
  units: readonly Unit[],
  edges: readonly Edge[],
  unresolved: readonly UnresolvedCall[],
  placeOf: PlaceOf,
): { byUnit: Map<string, UnitRows>; strayEdges: Edge[]; strayUnresolved: UnresolvedCall[] } {
  const edgesBySource = bySource(edges.filter((edge) => !HERITAGE_KINDS.has(edge.kind)));
  const unresolvedBySource = bySource(unresolved);
  const byUnit = new Map<string, UnitRows>();
  for (const unit of units) byUnit.set(unit.id, unitRowsOf(unit, edgesBySource.get(unit.id) ?? [], unresolvedBySource.get(unit.id) ?? [], placeOf));
  // Rows whose source is none of these units: written as they come, as every version has.
  const strayEdges = [...edgesBySource].flatMap(([source, rows]) => (byUnit.has(source) ? [] : rows));
  const strayUnresolved = [...unresolvedBySource].flatMap(([source, rows]) => (byUnit.has(source) ? [] : rows));
  return { byUnit, strayEdges, strayUnresolved };
}

/** Writes a whole graph's rows into a generation being written. */
export function insertGraphRows(database: HandbookDatabase, generation: number, graph: ProgramGraphData, fileDetails: ReadonlyMap<string, FileDetails>): void {
  const statements = graphRowStatements(database);
  for (const file of graph.files) insertFileRow(statements, generation, file, fileDetails.get(file.path));
  const places = placesOf(graph.units);
  const placeOf: PlaceOf = (unit) => places.get(unit);
  const outgoing = unitRowsByUnit(graph.units, graph.edges, graph.unresolved, placeOf);
  for (const unit of graph.units) {
    const rows = outgoing.byUnit.get(unit.id)!;
    statements.insertUnit.run(generation, ...unitColumns(unit, rows.digest));
    insertEdgeRows(statements, generation, unit.id, rows.edges());
    insertUnresolvedRows(statements, generation, unit.id, rows.unresolved());
  }
  insertEdges(statements, generation, [...graph.edges.filter((edge) => HERITAGE_KINDS.has(edge.kind)), ...outgoing.strayEdges], placeOf);
  insertUnresolved(statements, generation, outgoing.strayUnresolved, placeOf);
  insertSlots(statements, generation, graph.slots);
}
