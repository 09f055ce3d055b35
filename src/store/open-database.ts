import { mkdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HandbookError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

export type HandbookDatabase = Database.Database;

export const DEFAULT_DATABASE_PATH = path.join('.handbook', 'handbook.db');

export function databasePathFor(root: string, override?: string): string {
  return override ? path.resolve(override) : path.join(root, DEFAULT_DATABASE_PATH);
}

function corrupt(file: string, cause: unknown): HandbookError {
  return new HandbookError(
    'DATABASE_CORRUPT',
    `the handbook database is not readable: ${file}`,
    'delete it and run `handbook build` again',
    { cause },
  );
}

/**
 * Opens (or, for writing, creates) the handbook database in WAL mode, checks that it is a
 * database this version understands, and runs pending migrations.
 */
export function openDatabase(file: string, options: { create: boolean }): HandbookDatabase {
  // Told to delete a damaged database, a user who passed a folder would delete the folder.
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandbookError('INVALID_INPUT', `the handbook database path ${file} is a folder`, 'pass the path of a database file with --db, e.g. .handbook/handbook.db');
  }
  if (!options.create && !existsSync(file)) {
    throw new HandbookError('NO_HANDBOOK', `no handbook database at ${file}`, 'run `handbook build` in the repository first');
  }
  if (options.create) mkdirSync(path.dirname(file), { recursive: true });
  let database: HandbookDatabase;
  try {
    database = new Database(file, { fileMustExist: !options.create });
  } catch (error) {
    throw corrupt(file, error);
  }
  try {
    database.pragma('busy_timeout = 5000');
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    const version = database.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new HandbookError(
        'DATABASE_TOO_NEW',
        `the handbook database at ${file} has schema ${version}; this version reads up to ${SCHEMA_VERSION}`,
        'upgrade harness-handbook, or delete the database and run `handbook build`',
      );
    }
    // Only a build migrates; a reader of an older database is told to build.
    for (let next = version; options.create && next < SCHEMA_VERSION; next += 1) {
      database.transaction(() => {
        database.exec(MIGRATIONS[next]!);
        database.pragma(`user_version = ${next + 1}`);
      })();
    }
    if ((database.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) {
      throw new HandbookError('NO_HANDBOOK', `the handbook database at ${file} is empty or from an older version`, 'run `handbook build` to write it');
    }
    database.prepare('SELECT count(*) FROM generations').get();
  } catch (error) {
    database.close();
    if (HandbookError.isInstance(error)) throw error;
    if (error instanceof Error && /SQLITE_BUSY|database is locked/i.test(error.message)) {
      throw new HandbookError('DATABASE_LOCKED', `the handbook database at ${file} is locked by another process`, 'wait for the other build to finish and try again', { cause: error });
    }
    throw corrupt(file, error);
  }
  return database;
}
