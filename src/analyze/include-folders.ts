import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { HandbookError } from '../errors.js';

/** A folder discovery walks instead of the whole root. */
export interface IncludedFolder {
  absolutePath: string;
  /** From the root, with forward slashes; '' for the root itself. */
  path: string;
}

export type IncludeProblem = 'missing' | 'not-a-folder' | 'outside';

export interface IncludeCheck {
  /** The folders to walk, sorted, none inside another (a nested one would be walked twice). */
  folders: IncludedFolder[];
  /** The entries, as given, that name no folder inside the root. */
  problems: Array<{ entry: string; problem: IncludeProblem }>;
}

const INCLUDE_HINT = '--include takes folders inside the repository, relative to its root';

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function checkEntry(root: string, realRoot: string, entry: string): IncludedFolder | IncludeProblem {
  const absolutePath = path.resolve(root, entry);
  if (!isInside(root, absolutePath)) return 'outside';
  let stats;
  let realPath;
  try {
    stats = statSync(absolutePath);
    realPath = realpathSync(absolutePath);
  } catch {
    return 'missing';
  }
  // A file is refused rather than analyzed alone: the handbook, its stored settings, sync and
  // status all treat an include as a folder to walk, and the file's folder is one word away.
  if (!stats.isDirectory()) return 'not-a-folder';
  // Discovery follows symlinks only inside the root; an included symlink is held to the same rule.
  if (!isInside(realRoot, realPath)) return 'outside';
  return { absolutePath, path: path.relative(root, absolutePath).split(path.sep).join('/') };
}

/** Resolves include entries against the root: the folders to walk, and every entry that names none. */
export function checkIncludeFolders(root: string, include: readonly string[]): IncludeCheck {
  const realRoot = realpathSync(root);
  const found: IncludedFolder[] = [];
  const problems: IncludeCheck['problems'] = [];
  for (const entry of include) {
    const checked = checkEntry(root, realRoot, entry);
    if (typeof checked === 'string') problems.push({ entry, problem: checked });
    else found.push(checked);
  }
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const folders: IncludedFolder[] = [];
  for (const folder of found) {
    const covered = folders.some((kept) => kept.path === '' || folder.path === kept.path || folder.path.startsWith(`${kept.path}/`));
    if (!covered) folders.push(folder);
  }
  return { folders, problems };
}

function describe(root: string, problems: IncludeCheck['problems']): string {
  const named = (problem: IncludeProblem): string =>
    problems
      .filter((entry) => entry.problem === problem)
      .map((entry) => entry.entry)
      .join(', ');
  const parts: string[] = [];
  if (named('missing')) parts.push(`--include ${named('missing')}: no such folder in ${root}`);
  if (named('not-a-folder')) parts.push(`--include ${named('not-a-folder')}: a file, not a folder`);
  if (named('outside')) parts.push(`--include ${named('outside')}: outside ${root}`);
  return parts.join('; ');
}

/** For include folders a sync reads from the stored settings: the user named them at build time. */
export const STORED_INCLUDE_HINT = 'the handbook was built with these folders; run `handbook build` again to choose others';

/** The error for include entries that name no folder inside the root, all of them in one message; none when every entry does. */
export function includeError(root: string, include: readonly string[] | undefined, hint = INCLUDE_HINT): HandbookError | undefined {
  if (!include || include.length === 0) return undefined;
  const { problems } = checkIncludeFolders(root, include);
  if (problems.length === 0) return undefined;
  const forFile = problems.some((entry) => entry.problem === 'not-a-folder') ? '; for one file, include its folder' : '';
  return new HandbookError('INVALID_INPUT', describe(root, problems), `${hint}${forFile}`);
}

/** Refuses bad include entries before any work, so a typo does not narrow the handbook or end in "no files". */
export function assertIncludeFolders(root: string, include: readonly string[] | undefined, hint = INCLUDE_HINT): void {
  const error = includeError(root, include, hint);
  if (error) throw error;
}
