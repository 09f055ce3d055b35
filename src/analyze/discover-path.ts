import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SkipReason } from '../graph/model.js';
import { type DiscoveryOptions, type EntryRules, type EntryVerdict, judgeEntry } from './discover-files.js';
import { checkIncludeFolders } from './include-folders.js';

/**
 * What discovery would make of one path now, short of reading its bytes: a source file to judge
 * by them, a file it skips (`symlink` when the file itself is a link), or nothing it would find.
 */
export type PathVerdict = { kind: 'source'; absolutePath: string; symlink: boolean } | { kind: 'skipped'; reason: SkipReason; symlink: boolean } | { kind: 'absent' };

const ABSENT: PathVerdict = { kind: 'absent' };

type Judged = { verdict: EntryVerdict; symlink: boolean } | undefined;

/**
 * Verdicts on folders by path, kept by a caller that judges many files in one pass and takes the
 * tree as it stood when each folder was first judged: a folder is then judged once, not once for
 * every file under it. Only for a pass that ends; a reader that lives on must judge every time.
 */
export type FolderVerdicts = Map<string, Judged>;

/** The walk's verdict on the entry at this path from the root; undefined when nothing is there. */
function judgeAt(root: string, rules: EntryRules, relativePath: string): Judged {
  const absolutePath = path.join(root, relativePath);
  let stats;
  try {
    stats = lstatSync(absolutePath);
  } catch {
    return undefined;
  }
  const entry = { name: path.posix.basename(relativePath), absolutePath, relativePath, isSymbolicLink: stats.isSymbolicLink(), isDirectory: stats.isDirectory(), isFile: stats.isFile() };
  return { verdict: judgeEntry(entry, rules), symlink: entry.isSymbolicLink };
}

/**
 * Discovery of one path at a time, for readers that must not walk the whole tree to judge a file:
 * every folder from where the walk starts (the root or the include folder) down to the file is
 * judged by the walk's own rule, links followed only inside the root. What this cannot see is the
 * walk's order: a folder reached a second time through another link is skipped by the walk only.
 */
export function pathDiscovery(root: string, options: Pick<DiscoveryOptions, 'include' | 'buildOutputDirectories'> = {}, folders?: FolderVerdicts): (file: string) => PathVerdict {
  const rules: EntryRules = { realRoot: realpathSync(root), buildOutput: new Set(options.buildOutputDirectories ?? []) };
  const judgeFolder = (folder: string): Judged => {
    if (!folders) return judgeAt(root, rules, folder);
    if (!folders.has(folder)) folders.set(folder, judgeAt(root, rules, folder));
    return folders.get(folder);
  };
  const starts = options.include && options.include.length > 0 ? checkIncludeFolders(root, options.include).folders.map((folder) => folder.path) : [''];
  return (file) => {
    // A `..` would be judged as a folder name and lead out of the root.
    if (file === '' || file === '..' || file.startsWith('../') || path.posix.normalize(file) !== file || path.posix.isAbsolute(file)) return ABSENT;
    const start = starts.find((folder) => folder === '' || file.startsWith(`${folder}/`));
    if (start === undefined) return ABSENT;
    const names = file.slice(start === '' ? 0 : start.length + 1).split('/');
    let folder = start;
    for (const name of names.slice(0, -1)) {
      folder = folder === '' ? name : `${folder}/${name}`;
      const judged = judgeFolder(folder);
      if (judged?.verdict.kind === 'skip') return { kind: 'skipped', reason: judged.verdict.reason, symlink: false };
      if (judged?.verdict.kind !== 'folder') return ABSENT;
    }
    const judged = judgeAt(root, rules, file);
    if (judged?.verdict.kind === 'skip') return { kind: 'skipped', reason: judged.verdict.reason, symlink: judged.symlink };
    return judged?.verdict.kind === 'file' ? { kind: 'source', absolutePath: path.join(root, file), symlink: judged.symlink } : ABSENT;
  };
}
