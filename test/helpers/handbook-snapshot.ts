import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { buildHandbook, type BuildOptions, LiveHandbook, openHandbook, syncHandbook, type SyncSummary } from '../../src/index.js';
import { scratchDirectory } from './paths.js';

/** What the sync invariant compares: the graph, the stages with their members and summaries, the register, the overview. */
export function handbookContent(repo: string, database: string): { graph: unknown; organized: unknown; register: unknown } {
  const handbook = openHandbook(repo, { database, withSearchTerms: true });
  return { graph: handbook.graph.toData(), organized: handbook.organized, register: { entries: handbook.register, searchTerms: [...handbook.searchTerms] } };
}

/**
 * The graph's rows as the store holds them (lines relative to their unit, each unit's digest of its
 * rows), each table sorted: an update in place writes only the rows that differ, so a row it
 * failed to write, or wrote twice, or a digest it left stale, shows here even where the graph read
 * back hides it (a line stored against the wrong unit and read back against the same one).
 */
export function storedGraphRows(database: string): Record<'units' | 'edges' | 'unresolved', string[]> {
  const connection = new Database(database, { readonly: true });
  try {
    const rows = (sql: string): string[] => connection.prepare(sql).all().map((row) => JSON.stringify(row)).sort();
    return {
      units: rows("SELECT id, kind, file, symbol, start_line, end_line, signature, doc, exported, hash, parent, literals, words, rows_digest FROM units WHERE generation = (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'current_generation')"),
      edges: rows("SELECT kind, source, target, lines, via, resolution FROM edges WHERE generation = (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'current_generation')"),
      unresolved: rows("SELECT source, text, line, reason FROM unresolved WHERE generation = (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'current_generation')"),
    };
  } finally {
    connection.close();
  }
}

/** Builds the same tree cold into a scratch database and checks the synced handbook holds exactly the same, read back and as stored. */
export async function expectSameAsColdBuild(repo: string, syncedDatabase: string, step: string, options: Omit<BuildOptions, 'database'> = {}): Promise<void> {
  const coldDatabase = path.join(scratchDirectory('handbook-cold-'), 'handbook.db');
  let cold: ReturnType<typeof handbookContent>;
  let coldRows: ReturnType<typeof storedGraphRows>;
  try {
    await buildHandbook(repo, { ...options, database: coldDatabase });
    cold = handbookContent(repo, coldDatabase);
    coldRows = storedGraphRows(coldDatabase);
  } finally {
    rmSync(path.dirname(coldDatabase), { recursive: true, force: true });
  }
  const synced = handbookContent(repo, syncedDatabase);
  for (const part of ['graph', 'organized', 'register'] as const) {
    expect(JSON.stringify(synced[part]) === JSON.stringify(cold[part]), `${part} after "${step}" differs from a cold build: ${firstDifference(synced[part], cold[part])}`).toBe(true);
  }
  const syncedRows = storedGraphRows(syncedDatabase);
  for (const table of ['units', 'edges', 'unresolved'] as const) {
    expect(syncedRows[table].join('\n') === coldRows[table].join('\n'), `stored ${table} after "${step}" differ from a cold build's: ${firstDifference(syncedRows[table], coldRows[table])}`).toBe(true);
  }
}

/** Rewrites one file of a test repository through `edit`. */
export function changeFile(repo: string, file: string, edit: (text: string) => string): void {
  writeFileSync(path.join(repo, file), edit(readFileSync(path.join(repo, file), 'utf8')));
}

/**
 * Writes `files` into a new repository, builds it, applies `edit`, syncs (through a handbook kept
 * open, as `watch` does, or as a new `sync` process does) and checks the sync equals a cold build.
 */
export async function expectEditSyncedAsColdBuild(options: { files: Record<string, string>; edit: (repo: string) => void; keepOpen: boolean; step: string }): Promise<SyncSummary> {
  const repo = path.join(scratchDirectory(), 'repo');
  for (const [file, text] of Object.entries(options.files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  const live = options.keepOpen ? await LiveHandbook.open(repo, { database }) : undefined;
  options.edit(repo);
  const summary = await (live ? live.sync() : syncHandbook(repo, { database }));
  live?.close();
  await expectSameAsColdBuild(repo, database, options.step);
  return summary;
}

function firstDifference(a: unknown, b: unknown, where = ''): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return 'none';
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = new Set(a.map((item) => JSON.stringify(item)));
    const right = new Set(b.map((item) => JSON.stringify(item)));
    const onlySynced = [...left].filter((item) => !right.has(item)).slice(0, 2);
    const onlyCold = [...right].filter((item) => !left.has(item)).slice(0, 2);
    return `${where}: only in sync ${onlySynced.join(' ')}; only in cold ${onlyCold.join(' ')}`;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const left = (a as Record<string, unknown>)[key];
      const right = (b as Record<string, unknown>)[key];
      if (JSON.stringify(left) !== JSON.stringify(right)) return firstDifference(left, right, `${where}.${key}`);
    }
  }
  return `${where}: ${JSON.stringify(a)?.slice(0, 200)} vs ${JSON.stringify(b)?.slice(0, 200)}`;
}
