import { z } from 'zod';
import { HandbookError } from '../errors.js';
import {
  type Edge,
  edgeSchema,
  type EdgeKind,
  HERITAGE_KINDS,
  type Slot,
  type SourceFileRecord,
  type UnresolvedCall,
  type ProgramGraphData,
  slotSchema,
  sourceFileSchema,
  type Unit,
  unitSchema,
  unresolvedCallSchema,
} from '../graph/model.js';
import { canonicalize, compareText } from '../graph/order.js';
import { type Behavior, type OrganizedHandbook, type Overview, overviewSchema, type Stage, type StageMember, stageSchema, stagerSchema } from '../organize/model.js';
import type { HandbookDatabase } from './open-database.js';
import type { FileAnalysis } from '../analyze/analysis-session.js';
import { type FileDetails, graphRowStatements, insertGraphRows, insertSlots, placesOf } from './graph-rows.js';
import { replaceFileRows, replaceHeritage } from './row-updates.js';
import { type PlaceOf, readEdgeLines, type UnitPlace, unresolvedAnchor } from './stored-lines.js';
import type { DeclarationDigest } from '../analyze/front-end.js';

export interface GenerationInfo {
  id: number;
  createdAt: string;
  root: string;
  commit: string | null;
  summary: unknown;
  /** How the generation was built (options, stages, compiler settings), so a sync repeats it; null before schema 7. */
  settings: unknown;
}

export type { FileDetails } from './graph-rows.js';

/**
 * Writes a whole new generation beside the current one and switches to it, in one transaction
 * that holds the write lock throughout: written in several, a second build's write would delete
 * the `building` generation this one was still filling and take its id, so it waits for the lock
 * instead, or is refused as locked. Readers see the previous generation until the commit; a
 * process killed before it leaves nothing (a `building` generation left by an older version is
 * removed here).
 */
export function writeGeneration(
  database: HandbookDatabase,
  graph: ProgramGraphData,
  organized: OrganizedHandbook,
  /** Each searchable unit's search terms, serialized by the caller: what `ask` reads instead of re-tokenizing. */
  searchTerms: ReadonlyMap<string, string>,
  details: {
    root: string;
    commit: string | null;
    createdAt: string;
    settings: unknown;
    files: ReadonlyMap<string, FileDetails>;
    summary: (generation: number) => unknown;
    /** Each stage's behaviour key (a hash of what its behaviours were grouped from), so a later process can keep them. */
    behaviorKeys?: ReadonlyMap<string, string>;
  },
): WrittenGeneration {
  return database.transaction((): WrittenGeneration => {
    database.prepare("DELETE FROM generations WHERE status = 'building'").run();
    removeOrphanRows(database);
    const generation = Number(
      database
        .prepare("INSERT INTO generations (status, created_at, root, commit_sha, settings) VALUES ('building', ?, ?, ?, ?)")
        .run(details.createdAt, details.root, details.commit, JSON.stringify(details.settings)).lastInsertRowid,
    );
    insertGraphRows(database, generation, graph, details.files);
    writeStageRows(database, generation, organized, details.behaviorKeys);
    writeHandbookRow(database, generation, organized);
    writeMemberRows(database, generation, organized);
    const insertTerms = database.prepare('INSERT INTO search_terms VALUES (?, ?, ?)');
    for (const [unit, terms] of searchTerms) insertTerms.run(generation, unit, terms);
    database
      .prepare("UPDATE generations SET status = 'complete', summary = ? WHERE id = ?")
      .run(JSON.stringify(details.summary(generation)), generation);
    database.prepare("INSERT INTO meta (key, value) VALUES ('current_generation', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(String(generation));
    database.prepare('DELETE FROM generations WHERE id <> ?').run(generation);
    removeOrphanRows(database);
    return { generation, foreignWrites: foreignWrites(database) };
  }).immediate();
}

/**
 * A generation as written, with SQLite's count of other connections' commits read inside the
 * writing transaction: the store holds exactly what was written until that count moves.
 */
export interface WrittenGeneration {
  generation: number;
  foreignWrites: number;
}

export interface GenerationUpdate {
  /** Files whose rows (the file, its units, their edges and unresolved calls) are replaced: all others are unchanged. */
  replaceFiles: ReadonlySet<string>;
  /** Units whose search terms are replaced: added, changed or removed. */
  replaceTerms: ReadonlySet<string>;
  /** The replaced files' rows (heritage edges aside) and every heritage edge, in canonical order. */
  rows: { files: SourceFileRecord[]; units: Unit[]; edges: Edge[]; unresolved: UnresolvedCall[]; heritage: Edge[] };
  /**
   * What the generation's whole-tree rows (slots, heritage edges, stage members) hold now, when
   * the caller knows it (it wrote them last and nobody wrote since): only the rows that differ
   * are rewritten, instead of reading the members back and rewriting every slot.
   */
  stored?: StoredRows;
  /**
   * Other connections' commits (data_version) when the caller read the generation it updates: an
   * update holds only the files the caller saw change, so over a generation another process
   * wrote since it would mix that process's rows with whole-tree rows (stages, overview) computed
   * without them. A different count inside the write refuses it with OvertakenUpdateError.
   */
  readAt?: number;
}

/** The generation changed under an update since its caller read it; nothing was written. */
export class OvertakenUpdateError extends Error {
  constructor() {
    super('another process wrote the handbook after this sync read it');
    this.name = 'OvertakenUpdateError';
  }
}

/** The rows of a generation that every sync recomputes for the whole tree, as last written. */
export interface StoredRows {
  slots: readonly Slot[];
  heritage: readonly Edge[];
  organized: OrganizedHandbook;
}


/**
 * Brings the current generation up to date in place, in one transaction: the rows of the named
 * files, all heritage edges, slots, stages and the overview are replaced, of the graph's rows
 * only those that differ from what the store holds (row-updates.ts); readers see the old content
 * or the new, never a mix. What a sync writes after a small change: a new generation would copy
 * every row for the sake of a few.
 */
export function updateGeneration(
  database: HandbookDatabase,
  generation: number,
  graph: ProgramGraphData,
  organized: OrganizedHandbook,
  searchTerms: ReadonlyMap<string, string>,
  update: GenerationUpdate,
  details: { root: string; commit: string | null; createdAt: string; settings: unknown; files: ReadonlyMap<string, FileDetails>; summary: (generation: number) => unknown; behaviorKeys?: ReadonlyMap<string, string> },
): WrittenGeneration {
  let writes = 0;
  const rows = update.rows;
  const statement = {
    deleteTerms: database.prepare('DELETE FROM search_terms WHERE generation = ? AND unit = ?'),
    insertTerms: database.prepare('INSERT INTO search_terms VALUES (?, ?, ?)'),
  };
  const stored = update.stored;
  const slots = stored ? rowChanges(stored.slots, graph.slots, (slot) => slot.id, slotRowKey) : undefined;
  const replacedPlaces = placesOf(rows.units);
  let otherPlaces: Map<string, UnitPlace> | undefined;
  // Where each unit stands once written: the replaced files' units as given, the rest as the whole graph holds them
  // (indexed only when a line must be anchored to one of those: seldom, and it takes milliseconds).
  const placeOf: PlaceOf = (unit) => replacedPlaces.get(unit) ?? (otherPlaces ??= placesOf(graph.units)).get(unit);
  // Immediate: the write lock is taken before the count is read, so no commit lands between the check and the write.
  database.transaction(() => {
    if (update.readAt !== undefined && foreignWrites(database) !== update.readAt) throw new OvertakenUpdateError();
    const before = replaceFileRows(database, generation, update.replaceFiles, rows, details.files, placeOf);
    // Where units stood when the heritage edges were last written: as read above for the replaced files' units, as now for the rest.
    const placeBefore: PlaceOf = (unit) => before.get(unit) ?? (replacedPlaces.has(unit) ? undefined : placeOf(unit));
    const moved = (unit: string): boolean => {
      const was = before.get(unit);
      const now = replacedPlaces.get(unit);
      return (was !== undefined || now !== undefined) && was?.startLine !== now?.startLine;
    };
    replaceHeritage(database, generation, rows.heritage, placeOf, stored ? { edges: stored.heritage, placeOf: placeBefore, moved } : undefined);
    if (slots) {
      const removeSlot = database.prepare('DELETE FROM slots WHERE generation = ? AND id = ?');
      for (const id of slots.removed) removeSlot.run(generation, id);
    }
    // Stages kept whole since the last write (the organizer hands back the very same list) keep their rows; the overview is new.
    const stagesKept = stored !== undefined && stored.organized.stages === organized.stages;
    for (const table of [...(slots ? [] : ['slots']), ...(stagesKept ? [] : ['stages']), 'handbooks']) database.prepare(`DELETE FROM ${table} WHERE generation = ?`).run(generation);
    insertSlots(graphRowStatements(database), generation, slots ? slots.written : graph.slots);
    if (!stagesKept) writeStageRows(database, generation, organized, details.behaviorKeys);
    writeHandbookRow(database, generation, organized);
    updateMemberRows(database, generation, organized, stored?.organized);
    for (const unit of update.replaceTerms) {
      statement.deleteTerms.run(generation, unit);
      const terms = searchTerms.get(unit);
      if (terms !== undefined) statement.insertTerms.run(generation, unit, terms);
    }
    // The root too: a handbook that moved with its repository records where it is now.
    database
      .prepare('UPDATE generations SET created_at = ?, root = ?, commit_sha = ?, settings = ?, summary = ? WHERE id = ?')
      .run(details.createdAt, details.root, details.commit, JSON.stringify(details.settings), JSON.stringify(details.summary(generation)), generation);
    writes = foreignWrites(database);
  }).immediate();
  return { generation, foreignWrites: writes };
}

function writeStageRows(database: HandbookDatabase, generation: number, organized: OrganizedHandbook, behaviorKeys: ReadonlyMap<string, string> | undefined): void {
  const insertStage = database.prepare('INSERT INTO stages (generation, id, name, description, summary, position, entry_points, exits, behaviors, behaviors_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  for (const stage of organized.stages) {
    insertStage.run(generation, stage.id, stage.name, stage.description, stage.summary, stage.position, JSON.stringify(stage.entryPoints), JSON.stringify(stage.exits), JSON.stringify(stage.behaviors), behaviorKeys?.get(stage.id) ?? '');
  }
}

function writeHandbookRow(database: HandbookDatabase, generation: number, organized: OrganizedHandbook): void {
  database.prepare('INSERT INTO handbooks VALUES (?, ?, ?, ?)').run(generation, JSON.stringify(organized.stager), JSON.stringify(organized.overview), JSON.stringify(organized.unassigned));
}

const slotRowKey = (slot: Slot): string => `${slot.id}\u0000${slot.kind}\u0000${slot.file}\u0000${slot.owner}\u0000${slot.name}\u0000${slot.line}\u0000${slot.type}`;

/** Rows to delete (by id) and to write (new or different) to turn `before` into `after`. The same row object is the same row: a sync keeps unchanged files' records. */
function rowChanges<T>(before: readonly T[], after: readonly T[], id: (row: T) => string, key: (row: T) => string): { removed: string[]; written: T[] } {
  const previous = new Map(before.map((row) => [id(row), row]));
  const removed: string[] = [];
  const written: T[] = [];
  const present = new Set<string>();
  for (const row of after) {
    const rowId = id(row);
    present.add(rowId);
    const was = previous.get(rowId);
    if (was === row || (was !== undefined && key(was) === key(row))) continue;
    if (was !== undefined) removed.push(rowId);
    written.push(row);
  }
  for (const rowId of previous.keys()) if (!present.has(rowId)) removed.push(rowId);
  return { removed, written };
}

/** Stage members change little between syncs; rewriting only the rows that differ is most of a sync's write saved. */
function updateMemberRows(database: HandbookDatabase, generation: number, organized: OrganizedHandbook, before?: OrganizedHandbook): void {
  // Stages kept whole from the last write (nothing they hold moved) have nothing to rewrite.
  if (before?.stages === organized.stages) return;
  const remove = database.prepare('DELETE FROM stage_members WHERE generation = ? AND stage = ? AND unit = ?');
  const insert = database.prepare('INSERT INTO stage_members VALUES (?, ?, ?, ?, ?)');
  const previous = new Map<string, StageMember[]>();
  if (before) for (const stage of before.stages) previous.set(stage.id, stage.members);
  else {
    const rows = database.prepare('SELECT stage, unit, score, is_primary FROM stage_members WHERE generation = ?').all(generation) as Array<{ stage: string; unit: string; score: number; is_primary: number }>;
    for (const row of rows) {
      const list = previous.get(row.stage);
      const member = { unit: row.unit, score: row.score, primary: row.is_primary === 1 };
      if (list) list.push(member);
      else previous.set(row.stage, [member]);
    }
    // SQLite orders by UTF-8 bytes; the walk below needs the members' own (UTF-16) order.
    for (const list of previous.values()) list.sort((a, b) => compareText(a.unit, b.unit));
  }
  // Both lists are in unit order (members are sorted by unit, rows read so): one walk over each finds what differs.
  const stageIds = new Set([...previous.keys(), ...organized.stages.map((stage) => stage.id)]);
  const current = new Map(organized.stages.map((stage) => [stage.id, stage.members]));
  for (const stage of stageIds) {
    const old = previous.get(stage) ?? [];
    const now = current.get(stage) ?? [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < now.length) {
      const a = old[i];
      const b = now[j];
      const order = a === undefined ? 1 : b === undefined ? -1 : compareText(a.unit, b.unit);
      if (order < 0) {
        remove.run(generation, stage, a!.unit);
        i += 1;
      } else if (order > 0) {
        insert.run(generation, stage, b!.unit, b!.score, b!.primary ? 1 : 0);
        j += 1;
      } else {
        if (a!.score !== b!.score || a!.primary !== b!.primary) {
          remove.run(generation, stage, a!.unit);
          insert.run(generation, stage, b!.unit, b!.score, b!.primary ? 1 : 0);
        }
        i += 1;
        j += 1;
      }
    }
  }
}

function writeMemberRows(database: HandbookDatabase, generation: number, organized: OrganizedHandbook): void {
  const insertMember = database.prepare('INSERT INTO stage_members VALUES (?, ?, ?, ?, ?)');
  const members = organized.stages.flatMap((stage) => stage.members.map((member) => ({ stage: stage.id, ...member })));
  for (const member of members) insertMember.run(generation, member.stage, member.unit, member.score, member.primary ? 1 : 0);
}

/** Reads the stages, overview and unassigned list of a generation. */
export function readOrganized(database: HandbookDatabase, generation: number): OrganizedHandbook {
  const row = database.prepare('SELECT stager, overview, unassigned FROM handbooks WHERE generation = ?').get(generation) as { stager: string; overview: string; unassigned: string } | undefined;
  if (!row) throw new HandbookError('NO_HANDBOOK', 'this handbook has a program graph but no stages', 'run `handbook build` again');
  const members = database.prepare('SELECT stage, unit, score, is_primary FROM stage_members WHERE generation = ? ORDER BY stage, unit').all(generation) as Array<{ stage: string; unit: string; score: number; is_primary: number }>;
  const byStage = new Map<string, Stage['members']>();
  for (const member of members) {
    const list = byStage.get(member.stage) ?? [];
    list.push({ unit: member.unit, score: member.score, primary: member.is_primary === 1 });
    byStage.set(member.stage, list);
  }
  const stages = database.prepare('SELECT * FROM stages WHERE generation = ? ORDER BY position').all(generation) as Array<Record<string, unknown>>;
  try {
    return {
      stager: stagerSchema.parse(JSON.parse(row.stager)),
      overview: overviewSchema.parse(JSON.parse(row.overview)),
      unassigned: z.array(z.string()).parse(JSON.parse(row.unassigned)),
      stages: stages.map((stage) => stageSchema.parse({
        id: stage.id, name: stage.name, description: stage.description, summary: stage.summary, position: stage.position,
        entryPoints: JSON.parse(String(stage.entry_points)), exits: JSON.parse(String(stage.exits)),
        behaviors: JSON.parse(String(stage.behaviors ?? '[]')),
        members: byStage.get(String(stage.id)) ?? [],
      })),
    };
  } catch (error) {
    throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds stages this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
  }
}

/** Each stage's behaviours as stored, with the key they were grouped under ('' when none was stored). */
export function readStoredBehaviors(database: HandbookDatabase, generation: number, organized: OrganizedHandbook): Map<string, { key: string; behaviors: Behavior[] }> {
  const rows = database.prepare('SELECT id, behaviors_key FROM stages WHERE generation = ?').all(generation) as Array<{ id: string; behaviors_key: string }>;
  const keys = new Map(rows.map((row) => [row.id, row.behaviors_key]));
  return new Map(organized.stages.flatMap((stage) => {
    const key = keys.get(stage.id);
    return key ? [[stage.id, { key, behaviors: stage.behaviors }] as const] : [];
  }));
}

/** The overview of a generation alone, for a reader that needs none of its stages. */
export function readOverview(database: HandbookDatabase, generation: number): Overview {
  const row = database.prepare('SELECT overview FROM handbooks WHERE generation = ?').get(generation) as { overview: string } | undefined;
  if (!row) throw new HandbookError('NO_HANDBOOK', 'this handbook has a program graph but no stages', 'run `handbook build` again');
  try {
    return overviewSchema.parse(JSON.parse(row.overview));
  } catch (error) {
    throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds stages this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
  }
}

function removeOrphanRows(database: HandbookDatabase): void {
  database.transaction(() => {
    for (const table of ['files', 'units', 'edges', 'slots', 'unresolved', 'stages', 'stage_members', 'handbooks', 'search_terms'])
      database.prepare(`DELETE FROM ${table} WHERE generation NOT IN (SELECT id FROM generations)`).run();
  })();
}

const generationRowSchema = z.object({
  id: z.number(),
  created_at: z.string(),
  root: z.string(),
  commit_sha: z.string().nullable(),
  summary: z.string().nullable(),
  settings: z.string().nullable(),
});

/**
 * The generation readers see. One statement, so one snapshot: read apart, the pointer could name
 * a generation that a build switching away from it has deleted since.
 */
export function currentGeneration(database: HandbookDatabase): GenerationInfo | undefined {
  const row = database
    .prepare(
      "SELECT generations.id AS id, created_at, root, commit_sha, summary, settings FROM meta JOIN generations ON generations.id = CAST(meta.value AS INTEGER) WHERE meta.key = 'current_generation' AND generations.status = 'complete'",
    )
    .get();
  if (!row) return undefined;
  const parsed = generationRowSchema.parse(row);
  return {
    id: parsed.id,
    createdAt: parsed.created_at,
    root: parsed.root,
    commit: parsed.commit_sha,
    summary: parsed.summary ? JSON.parse(parsed.summary) : null,
    settings: parsed.settings ? JSON.parse(parsed.settings) : null,
  };
}

/**
 * Records that a generation describes the tree at another commit or root (a sync that found no
 * file changed, of a repository that may have moved with its handbook), with the summary that
 * says so: readers show the summary's root and commit. With `settings`, also how it was built, when
 * only what the compiler settings were read from changed (a tsconfig that reads to the same settings).
 */
export function setGenerationSource(database: HandbookDatabase, generation: number, source: { root: string; commit: string | null; summary: unknown; settings?: unknown }): void {
  const settings = source.settings === undefined ? null : JSON.stringify(source.settings);
  database
    .prepare('UPDATE generations SET root = ?, commit_sha = ?, summary = ?, settings = coalesce(?, settings) WHERE id = ?')
    .run(source.root, source.commit, JSON.stringify(source.summary), settings, generation);
}

export function currentGenerationOrThrow(database: HandbookDatabase): GenerationInfo {
  const generation = currentGeneration(database);
  if (!generation) throw new HandbookError('NO_HANDBOOK', 'the handbook database holds no complete build', 'run `handbook build` first');
  return generation;
}

/** Reads a generation back into the same plain form analysis produced, validated at the boundary. */
export function readGraph(database: HandbookDatabase, generation: number, parts: { unresolved?: boolean; edgeKinds?: readonly EdgeKind[] } = {}): ProgramGraphData {
  const files = database.prepare('SELECT path, size, hash, lines, test, parse_errors, external_imports FROM files WHERE generation = ?').all(generation) as Array<Record<string, unknown>>;
  const units = database.prepare('SELECT * FROM units WHERE generation = ?').all(generation) as Array<Record<string, unknown>>;
  // Edges' and unresolved calls' lines are stored relative to a unit's first line (stored-lines.ts).
  const places = new Map(units.map((row) => [row.id, { file: row.file, startLine: row.start_line }] as [string, UnitPlace]));
  const placeOf: PlaceOf = (unit) => places.get(unit);
  // A reader that follows only some relations (routing) need not read the rest: edges are the largest table it reads.
  const kinds = parts.edgeKinds;
  const edges = (kinds
    ? database.prepare(`SELECT kind, source, target, lines, via, resolution FROM edges WHERE generation = ? AND kind IN (${kinds.map(() => '?').join(', ')})`).all(generation, ...kinds)
    : database.prepare('SELECT kind, source, target, lines, via, resolution FROM edges WHERE generation = ?').all(generation)) as Array<Record<string, unknown>>;
  const slots = database.prepare('SELECT * FROM slots WHERE generation = ?').all(generation) as Array<Record<string, unknown>>;
  // Unresolved calls are the largest table and only the graph export needs them.
  const unresolved = parts.unresolved === false ? [] : (database.prepare('SELECT source, text, line, reason FROM unresolved WHERE generation = ?').all(generation) as Array<Record<string, unknown>>);
  try {
    return canonicalize({
      files: files.map((row) => sourceFileSchema.parse({ path: row.path, size: row.size, hash: row.hash, lines: row.lines, test: row.test === 1, parseErrors: row.parse_errors, externalImports: JSON.parse(String(row.external_imports)) })),
      units: units.map((row) => unitSchema.parse({
        id: row.id, kind: row.kind, file: row.file, symbol: row.symbol, startLine: row.start_line, endLine: row.end_line,
        signature: row.signature, doc: row.doc, exported: row.exported === 1, hash: row.hash, literals: row.literals, words: row.words,
        ...(row.parent === null ? {} : { parent: row.parent }),
      })),
      edges: edges.map((row) => edgeSchema.parse({
        kind: row.kind, from: row.source, to: row.target, lines: storedLines(row, placeOf),
        ...(row.via === null ? {} : { via: row.via }),
        ...(row.resolution === null ? {} : { resolution: row.resolution }),
      })),
      slots: slots.map((row) => slotSchema.parse({ id: row.id, kind: row.kind, file: row.file, owner: row.owner, name: row.name, line: row.line, type: row.type })),
      unresolved: unresolved.map((row) => unresolvedCallSchema.parse({ from: row.source, text: row.text, line: (row.line as number) + unresolvedAnchor({ from: row.source as string }, placeOf), reason: row.reason })),
    });
  } catch (error) {
    throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds rows this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
  }
}

/** An edge row's lines as analysis gave them; a row that is no list is left for the schema to refuse. */
function storedLines(row: Record<string, unknown>, placeOf: PlaceOf): unknown {
  const lines: unknown = JSON.parse(String(row.lines));
  return Array.isArray(lines) ? readEdgeLines(lines, { kind: row.kind as Edge['kind'], from: row.source as string, to: row.target as string }, placeOf) : lines;
}

/** Serialized search terms of a generation, by unit id; parsing them is the reader's business. */
export function readSearchTerms(database: HandbookDatabase, generation: number): Map<string, string> {
  const rows = database.prepare('SELECT unit, terms FROM search_terms WHERE generation = ?').all(generation) as Array<{ unit: string; terms: string }>;
  return new Map(rows.map((row) => [row.unit, row.terms]));
}

/**
 * A generation read back as per-file analyses, what a sync compares the live tree against:
 * each file's units, its edges (heritage aside, which a sync recomputes whole), unresolved
 * calls, the slots it touches, and its declaration digest.
 */
export function readPriorAnalysis(database: HandbookDatabase, generation: number): { files: Map<string, FileAnalysis>; heritage: Edge[] } {
  const graph = readGraph(database, generation);
  const rows = database.prepare('SELECT path, declarations, call_sites, resolved_calls, resolved_call_lines FROM files WHERE generation = ?').all(generation) as Array<{
    path: string; declarations: string; call_sites: number; resolved_calls: number; resolved_call_lines: string | null;
  }>;
  const detailsOf = new Map(rows.map((row) => [row.path, row]));
  const fileOfUnit = new Map(graph.units.map((unit) => [unit.id, unit.file]));
  const slotById = new Map(graph.slots.map((slot) => [slot.id, slot]));
  const analyses = new Map<string, FileAnalysis>();
  for (const record of graph.files) {
    const row = detailsOf.get(record.path)!;
    let declarations: DeclarationDigest;
    let resolvedCallLines: number[] | undefined;
    try {
      declarations = z.record(z.string(), z.string()).parse(JSON.parse(row.declarations));
      if (row.resolved_call_lines !== null) resolvedCallLines = z.array(z.number().int()).parse(JSON.parse(row.resolved_call_lines));
    } catch (error) {
      throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds file rows this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
    }
    analyses.set(record.path, {
      record,
      units: [],
      digest: declarations,
      resolution: {
        edges: [], unresolved: [], slots: [], externalImports: record.externalImports, callSites: row.call_sites, resolvedCalls: row.resolved_calls,
        ...(resolvedCallLines ? { resolvedCallLines } : {}),
      },
    });
  }
  const analysisOfUnit = (unitId: string): FileAnalysis | undefined => {
    const file = fileOfUnit.get(unitId);
    return file === undefined ? undefined : analyses.get(file);
  };
  for (const unit of graph.units) (analyses.get(unit.file)?.units as Unit[] | undefined)?.push(unit);
  const touched = new Map<FileAnalysis, Set<string>>();
  const heritage: Edge[] = [];
  for (const edge of graph.edges) {
    if (HERITAGE_KINDS.has(edge.kind)) {
      heritage.push(edge);
      continue;
    }
    const analysis = analysisOfUnit(edge.from);
    if (!analysis) continue;
    analysis.resolution.edges.push(edge);
    if ((edge.kind === 'reads' || edge.kind === 'writes') && slotById.has(edge.to)) {
      let slots = touched.get(analysis);
      if (!slots) touched.set(analysis, (slots = new Set()));
      slots.add(edge.to);
    }
  }
  for (const [analysis, slots] of touched) analysis.resolution.slots = [...slots].map((id) => slotById.get(id)!);
  for (const call of graph.unresolved) analysisOfUnit(call.from)?.resolution.unresolved.push(call);
  return { files: analyses, heritage };
}

/**
 * SQLite's count of commits by other connections to this database: unchanged since a write of
 * ours means the rows are still what we wrote.
 */
export function foreignWrites(database: HandbookDatabase): number {
  return Number(database.pragma('data_version', { simple: true }));
}
