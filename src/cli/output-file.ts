import { accessSync, constants, realpathSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { HandbookError } from '../index.js';
import { fileProblemOf } from './system-errors.js';

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    // A part of the path is a file (ENOTDIR): nothing can be written there.
    return undefined;
  }
}

/**
 * Refuses a file named by an option that cannot be written, before the work whose result goes
 * there: a plan that cannot be saved where asked is refused before it is made and stored, not
 * after.
 */
export function assertWritableFile(option: string, file: string, handbook?: { root: string; database?: string }): void {
  const absolute = path.resolve(file);
  if (handbook && isHandbookFile(absolute, handbook)) throw new HandbookError('INVALID_INPUT', `${option} ${file}: a file of the handbook itself`, 'name a file outside .handbook and apart from the database');
  const stats = statOrUndefined(absolute);
  if (stats?.isDirectory()) throw new HandbookError('INVALID_INPUT', `${option} ${file}: a folder, not a file`, 'name a file to write');
  const folder = path.dirname(absolute);
  if (!statOrUndefined(folder)?.isDirectory()) throw new HandbookError('INVALID_INPUT', `${option} ${file}: there is no folder ${folder}`, 'create the folder first, or name a file in one that exists');
  try {
    accessSync(stats ? absolute : folder, constants.W_OK);
  } catch {
    throw new HandbookError('INVALID_INPUT', `${option} ${file}: not writable`, 'name a file you may write');
  }
}

/**
 * The handbook's own files: its folder in the repository, and the database wherever --db puts it
 * with the files SQLite and the routing snapshot keep beside it. Writing output over one of them
 * destroys the handbook the command just read. Compared by real path, so a link to one is one.
 */
function isHandbookFile(absolute: string, handbook: { root: string; database?: string }): boolean {
  const target = realPathOf(absolute);
  const folder = realPathOf(path.join(path.resolve(handbook.root), '.handbook'));
  if (target === folder || target.startsWith(`${folder}${path.sep}`)) return true;
  const database = realPathOf(path.resolve(handbook.database ?? path.join(handbook.root, '.handbook', 'handbook.db')));
  return ['', '-wal', '-shm', '-journal', '.routing'].some((suffix) => target === `${database}${suffix}`);
}

/** A path with every link resolved as far as it exists: the file need not exist yet, its folder may. */
function realPathOf(absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realPathOf(parent), path.basename(absolute));
  }
}

/**
 * Writes a file named by an option, after the work whose result it holds: a failure then (a full
 * disk, a device that refuses writes) is the system's, said in one line with what was kept
 * (`kept`: where the result is saved anyway), not reported as a bug.
 */
export function writeOutputFile(option: string, file: string, text: string, kept?: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    const problem = fileProblemOf(error);
    if (problem === undefined) throw error;
    throw new HandbookError('INVALID_INPUT', `${option} ${file}: cannot write it (${problem})${kept ? `; ${kept}` : ''}`, 'name a file you can write');
  }
}
