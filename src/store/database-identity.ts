import type Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/**
 * SQLite's `application_id` of a handbook database ("HNDB"), set when the database is created:
 * the mark that tells a handbook from any other SQLite file before anything is written to it.
 */
export const HANDBOOK_APPLICATION_ID = 0x484e4442;

/**
 * What a SQLite file holds: a handbook, nothing yet (a new or zero-length file), or another
 * application's data, which a build must never migrate into.
 */
export type DatabaseKind = 'handbook' | 'empty' | 'foreign';

/** The tables the first `version` migrations create. */
function tablesOfVersion(version: number): string[] {
  return MIGRATIONS.slice(0, version).flatMap((migration) => [...migration.matchAll(/CREATE TABLE (\w+)/g)].map((match) => match[1]!));
}

/**
 * Tells what an open SQLite file holds, reading only. Handbooks written before the mark carry
 * none: they are known by a schema version this project wrote and every table it implies.
 * Throws SQLite's error for a file that is not a database at all.
 */
export function databaseKind(database: Database.Database): DatabaseKind {
  const applicationId = database.pragma('application_id', { simple: true }) as number;
  if (applicationId === HANDBOOK_APPLICATION_ID) return 'handbook';
  if (applicationId !== 0) return 'foreign';
  const version = database.pragma('user_version', { simple: true }) as number;
  const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((row) => row.name));
  const objects = (database.prepare('SELECT count(*) AS count FROM sqlite_master').get() as { count: number }).count;
  if (version === 0 && objects === 0) return 'empty';
  // A newer release's handbook from before the mark still holds every table this one knows.
  if (version >= 1 && tablesOfVersion(Math.min(version, SCHEMA_VERSION)).every((table) => tables.has(table))) return 'handbook';
  return 'foreign';
}

/** Marks a handbook database as one: at creation, and on a handbook from before the mark when a build or sync first opens it. */
export function markAsHandbook(database: Database.Database): void {
  // Read first: setting it is a write, which every other connection would see as a change.
  if (database.pragma('application_id', { simple: true }) !== HANDBOOK_APPLICATION_ID) database.pragma(`application_id = ${HANDBOOK_APPLICATION_ID}`);
}
