import { EXIT } from './exit-codes.js';

/** What a file-system error code means for the path it names, in a user's words. */
const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'something is already there',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

/** A system call as a user would name what failed; others keep their own name (`cannot open X`). */
const ACTIONS: Record<string, string> = { mkdir: 'create the folder' };

/** A file-system error's meaning in a user's words, when it is one a user can act on. */
export function fileProblemOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? FILE_PROBLEMS[code] : undefined;
}

/**
 * A failure from the system rather than from the tool's logic, as one line and an exit code:
 * a path the user named that cannot be written or read, or an SQLite error from a database that
 * is locked or damaged. Undefined for anything else, which is a bug.
 */
export function describeSystemError(error: unknown): { code: number; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (typeof code === 'string' && typeof path === 'string' && FILE_PROBLEMS[code]) {
    return { code: EXIT.invalidInput, message: `cannot ${(syscall && ACTIONS[syscall]) ?? syscall ?? 'use'} ${path}: ${FILE_PROBLEMS[code]} (check the path and try again)` };
  }
  if (error.name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_'))) {
    if (/SQLITE_BUSY|database is locked/i.test(`${code} ${error.message}`)) {
      return { code: EXIT.database, message: 'the handbook database is locked by another process (wait for it to finish and try again)' };
    }
    // SQLite opens a file it may not write for reading alone, and fails only at the first write.
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) {
      return { code: EXIT.database, message: 'this user may not write the handbook database or its folder (give this user write access to both, or pass --db a path this user can write)' };
    }
    return { code: EXIT.database, message: `the handbook database is damaged: ${error.message.split('\n')[0]} (delete it and run \`handbook build\` again)` };
  }
  return undefined;
}
