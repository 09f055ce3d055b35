import { statSync } from 'node:fs';
import path from 'node:path';
import { HandbookError } from '../errors.js';

/** Checks that a repository path can be analyzed, with an error a user can act on. */
export function assertRepositoryRoot(root: string): string {
  const absolute = path.resolve(root);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new HandbookError('REPO_NOT_FOUND', `repository not found: ${root}`, 'pass the path of an existing folder');
  }
  if (!stats.isDirectory())
    throw new HandbookError('NOT_A_DIRECTORY', `not a folder: ${root}`, 'pass the folder that holds the code, not a file in it');
  return absolute;
}
