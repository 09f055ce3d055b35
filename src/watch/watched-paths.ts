import type { Stats } from 'node:fs';
import path from 'node:path';
import { isSourceFile } from '../analyze/discover-files.js';

/** Folders never analyzed whose churn (installs, commits, the handbook's own database) must not wake the watcher. */
const IGNORED_FOLDERS = new Set(['node_modules', '.git', '.handbook']);
/** Compiler settings: paths, jsx and outDirs come from these, and the analysis rereads them on every sync. */
const SETTINGS_FILE = /^(tsconfig.*\.json|package\.json)$/;

/** The root's README, whose first paragraph the overview quotes when package.json has no description: an edit there alone is a change. */
const PROJECT_FILE = /^readme\.md$/i;

/** A file whose change can change the handbook; the README only at `root`, the one the overview reads. */
export function isWatchedFile(file: string, root?: string): boolean {
  const name = path.basename(file);
  return isSourceFile(name) || SETTINGS_FILE.test(name) || (root !== undefined && PROJECT_FILE.test(name) && path.dirname(file) === root);
}

/** chokidar's `ignored`: the ignored folders and, once chokidar knows a path is a file, every file that is not watched. */
export function ignoredUnder(root: string): (file: string, stats?: Stats) => boolean {
  return (file, stats) => {
    if (path.relative(root, file).split(path.sep).some((segment) => IGNORED_FOLDERS.has(segment))) return true;
    // Without stats the path may be a folder, which must be descended into whatever its name.
    // JSON is let through: a tsconfig may extend a file of any name, which only the analysis knows.
    return stats?.isFile() === true && !isWatchedFile(file, root) && !file.endsWith('.json');
  };
}
