import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { HandbookError } from '../errors.js';
import { DEFAULT_DATABASE_PATH } from './open-database.js';

/**
 * Which repository a handbook database belongs to. Every generation records the absolute root
 * it was built for (schema 1 on), so a database passed with --db for another repository is
 * refused instead of being read as that repository's handbook (every entry frozen) or
 * overwritten by its build or sync.
 *
 * A database in the repository's own `.handbook` folder belongs to it by where it is: moving or
 * copying the folder takes the handbook along, and the next build or sync records the new root.
 * Elsewhere the recorded root decides, compared by real path so that a symlinked path to the
 * same folder matches; a recorded folder that no longer exists (moved away from an outside
 * database) matches nothing, and the hint says how to start over.
 */
export function assertHandbookOf(root: string, databasePath: string, recordedRoot: string): void {
  // Recorded empty (never written by this project, but the column only forbids NULL): nothing to hold against it.
  if (recordedRoot === '' || sameFolder(recordedRoot, root)) return;
  if (path.resolve(databasePath) === path.join(root, DEFAULT_DATABASE_PATH)) return;
  const gone = !existsSync(recordedRoot);
  throw new HandbookError(
    'INVALID_INPUT',
    `the handbook in ${databasePath} was built for ${recordedRoot}, not ${root}`,
    gone
      ? `${recordedRoot} no longer exists: if the repository moved, delete ${databasePath} and build again; otherwise build this repository into a new --db path`
      : "pass --db for that repository's handbook, or build this repository into a new --db path",
  );
}

function sameFolder(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
