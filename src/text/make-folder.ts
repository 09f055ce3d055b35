import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What `mkdirSync(directory, { recursive: true })` does, one level at a time. Node's recursive
 * mkdir retries without end where a file system answers ENOENT for a folder it will not create
 * (/proc, /sys): `render --out /proc/x` hung instead of failing. Each level's own error, naming
 * that level, is thrown as mkdir throws it.
 */
export function makeFolder(directory: string): void {
  const absolute = path.resolve(directory);
  if (isFolder(absolute)) return;
  const parent = path.dirname(absolute);
  if (parent !== absolute && !isFolder(parent)) makeFolder(parent);
  try {
    mkdirSync(absolute);
  } catch (error) {
    // Made meanwhile by another process: what was wanted is there.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isFolder(absolute)) throw error;
  }
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
