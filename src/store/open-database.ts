import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HandbookError } from '../errors.js';
import { databaseKind, type DatabaseKind, markAsHandbook } from './database-identity.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { makeFolder } from '../text/make-folder.js';

export type HandbookDatabase = Database.Database;

export const DEFAULT_DATABASE_PATH = path.join('.handbook', 'handbook.db');

export function databasePathFor(root: string, override?: string): string {
  return override ? path.resolve(override) : path.join(root, DEFAULT_DATABASE_PATH);
}

const ANOTHER_PATH_HINT = 'pass --db the path of a handbook database, or a new path to build one there';

/** A handbook of ours that no longer reads: deleting it loses nothing a build cannot write again. */
function corrupt(file: string, cause: unknown): HandbookError {
  return new HandbookError(
    'DATABASE_CORRUPT',
    `the handbook database is not readable: ${file}`,
    'delete it and run `handbook build` again',
    { cause },
  );
}

/** A file that does not read as a database, and nothing says it was ours: it may be the user's, so it is never offered for deletion. */
function unreadable(file: string, cause: unknown): HandbookError {
  return new HandbookError('DATABASE_CORRUPT', `${file} is not a readable handbook database`, ANOTHER_PATH_HINT, { cause });
}

/**
 * SQLite needs to write beside a WAL database even to read it: a handbook another user built
 * (with sudo, in a container) fails every command on this, and is neither damaged nor foreign.
 */
function notWritable(file: string, cause: unknown): HandbookError | undefined {
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_READONLY')) return undefined;
  return new HandbookError(
    'DATABASE_CORRUPT',
    `this user may not write the handbook database at ${file} or its folder`,
    'give this user write access to both (a build run with sudo or in a container may own them), or pass --db a path this user can write',
    { cause },
  );
}

function foreign(file: string): HandbookError {
  return new HandbookError('INVALID_INPUT', `${file} is not a handbook database`, ANOTHER_PATH_HINT);
}

/** Nothing a build wrote yet: the read commands, a sync and the servers refuse it in the same words. */
function empty(file: string): HandbookError {
  return new HandbookError('NO_HANDBOOK', `the handbook database at ${file} is empty`, 'run `handbook build` to write it');
}

function locked(file: string, cause: unknown): HandbookError | undefined {
  if (!(cause instanceof Error) || !/SQLITE_BUSY|database is locked/i.test(cause.message)) return undefined;
  return new HandbookError('DATABASE_LOCKED', `the handbook database at ${file} is locked by another process`, 'wait for the other build to finish and try again', { cause });
}

/**
 * What the open file holds, read before anything is written to it: a handbook, or an empty file
 * to make one in. Another application's database is refused, never migrated into.
 */
function identify(database: HandbookDatabase, file: string): Exclude<DatabaseKind, 'foreign'> {
  let kind: DatabaseKind;
  try {
    kind = databaseKind(database);
  } catch (error) {
    throw locked(file, error) ?? notWritable(file, error) ?? unreadable(file, error);
  }
  if (kind === 'foreign') throw foreign(file);
  return kind;
}

/**
 * Reads an existing database file without writing to it, for what a build checks before its
 * analysis, which can take minutes. A file that is not a handbook database is refused. A missing
 * file, a folder, an empty database or a read that fails gives undefined: opening the database
 * for the write reports what is wrong.
 */
export function peekHandbookFile<T>(file: string, read: (database: HandbookDatabase) => T): T | undefined {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  let database: HandbookDatabase;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw notWritable(file, error) ?? unreadable(file, error);
  }
  try {
    if (identify(database, file) === 'empty') return undefined;
    try {
      return read(database);
    } catch {
      return undefined;
    }
  } finally {
    database.close();
  }
}

/**
 * For a missing database at a repository's default place, the nearest folder above that has one,
 * as git finds the repository from a folder inside it.
 */
function handbookAbove(file: string): string | undefined {
  if (!file.endsWith(`${path.sep}${DEFAULT_DATABASE_PATH}`)) return undefined;
  const folder = path.dirname(path.dirname(file));
  for (let current = folder; current !== path.dirname(current); ) {
    current = path.dirname(current);
    if (existsSync(path.join(current, DEFAULT_DATABASE_PATH))) return current;
  }
  return undefined;
}

/**
 * What to do about a missing default database when a folder above holds a handbook: run from a
 * folder inside a built repository, "build first" would make a second handbook of the folder
 * alone. Worded for every command: the read commands take the repository as --repo, `status`,
 * `sync` and `watch` as their argument.
 */
export function handbookAboveHint(file: string): string | undefined {
  const above = handbookAbove(file);
  return above && `${above} has one: run there or pass ${above} as the repository, or \`handbook build\` to build one for this folder alone`;
}

/**
 * A folder never becomes a handbook: a server waiting for one to be built there would wait for
 * ever. Told to delete a damaged database, a user who passed a folder would delete the folder.
 */
function refuseFolderAsDatabase(file: string): void {
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandbookError('INVALID_INPUT', `the handbook database path ${file} is a folder`, 'pass the path of a database file with --db, e.g. .handbook/handbook.db');
  }
}

/**
 * For a server, which starts before a build and waits for one: a database path no build will ever
 * write, refused at once with the read commands' words instead of waited on for ever. That is a
 * folder, another application's SQLite file, or a file that is no SQLite database at all, which a
 * build refuses too (nothing says it was ours, so it is never offered for deletion). An empty file
 * is refused as the read commands refuse it, telling the user to build: a build writes its schema
 * the moment it opens the file, so an empty one was made by hand (touch, mktemp) or by a build
 * killed in that moment, not one a build is writing. Let through is what the server can wait on or
 * follow: no file yet, where the first build writes, an older handbook, and a handbook of ours
 * damaged past its header, whose refusal on every answer says to delete it and build again. A lock
 * or a permission problem is left to the answers too: it can pass while the server runs.
 */
export function refuseUnbuildableDatabase(file: string): void {
  refuseFolderAsDatabase(file);
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return;
  const passing = (error: unknown): boolean => locked(file, error) !== undefined || notWritable(file, error) !== undefined;
  let database: HandbookDatabase;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    if (passing(error)) return;
    throw unreadable(file, error);
  }
  let kind: DatabaseKind;
  try {
    kind = databaseKind(database);
  } catch (error) {
    if (passing(error)) return;
    throw unreadable(file, error);
  } finally {
    database.close();
  }
  if (kind === 'foreign') throw foreign(file);
  if (kind === 'empty') throw empty(file);
}

/**
 * What a caller may do to the database file: read a built handbook; update one (a sync), which
 * migrates an older handbook; or create one (a build), which also writes into a missing or empty
 * file. Only a build makes a handbook of an empty file: a sync (or a server's watcher) that did
 * wrote a schema into a file a user had made, then refused it as holding no build.
 */
export type DatabaseAccess = 'read' | 'update' | 'create';

/**
 * Opens (or, for a build, creates) the handbook database in WAL mode, checks that it is a
 * database this version understands, and runs pending migrations unless only reading. Nothing is
 * written to a file that is not a handbook database.
 */
export function openDatabase(file: string, access: DatabaseAccess): HandbookDatabase {
  refuseFolderAsDatabase(file);
  const create = access === 'create';
  const write = access !== 'read';
  if (!create && !existsSync(file)) {
    throw new HandbookError('NO_HANDBOOK', `no handbook database at ${file}`, handbookAboveHint(file) ?? 'run `handbook build` in the repository first');
  }
  if (create) makeFolder(path.dirname(file));
  let database: HandbookDatabase;
  try {
    database = new Database(file, { fileMustExist: !create });
  } catch (error) {
    throw notWritable(file, error) ?? unreadable(file, error);
  }
  try {
    database.pragma('busy_timeout = 5000');
    if (identify(database, file) === 'empty' && !create) throw empty(file);
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
    // Only a build or a sync migrates; a reader of an older database is told to build.
    for (let next = version; write && next < SCHEMA_VERSION; next += 1) {
      database.transaction(() => {
        database.exec(MIGRATIONS[next]!);
        database.pragma(`user_version = ${next + 1}`);
      })();
    }
    if (write) markAsHandbook(database);
    if ((database.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) {
      throw new HandbookError('NO_HANDBOOK', `the handbook database at ${file} is from an older version`, 'run `handbook build` to write it');
    }
    database.prepare('SELECT count(*) FROM generations').get();
  } catch (error) {
    database.close();
    if (HandbookError.isInstance(error)) throw error;
    // Past identify, the file is a handbook, or was empty and is one now: ours to offer for deletion.
    throw locked(file, error) ?? notWritable(file, error) ?? corrupt(file, error);
  }
  return database;
}
