import { existsSync, lstatSync, opendirSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { HandbookError } from '../errors.js';
import { makeFolder } from '../text/make-folder.js';
import { PAGE_MANIFEST, pageManifestText, pagesWrittenBefore } from './page-manifest.js';
import type { RenderedPage } from './render-markdown.js';

/**
 * Writes the pages into a folder that is missing, empty or rendered into before, and removes the pages of
 * that earlier render that no longer belong (a stage that is gone). Only files the renderer wrote are ever
 * overwritten or deleted: any other folder is refused before anything is touched, and someone else's file
 * beside the pages (handbook/skeleton.json) is left alone, unless a page would land on it.
 */
export function writePages(outDirectory: string, pages: readonly RenderedPage[]): void {
  assertFolderPath(outDirectory, 'pass --out a folder for the pages: a new or empty one, or one rendered into before');
  const before = pagesWrittenBefore(outDirectory);
  const wanted = pages.map((page) => page.path);
  const inTheWay = before
    ? wanted.filter((file) => !before.includes(file) && lstatSync(path.join(outDirectory, file), { throwIfNoEntry: false }) !== undefined)
    : someFilesUnder(outDirectory, 4);
  if (inTheWay.length > 0) {
    throw new HandbookError('INVALID_INPUT', `${outDirectory} holds files the handbook did not write (${someFilesShown(inTheWay)})`, 'pick an empty folder for the handbook, or remove them');
  }

  const manifest = path.join(outDirectory, PAGE_MANIFEST);
  makeFolder(outDirectory);
  // Claims old and new pages before writing any: a render cut short leaves nothing it wrote unclaimed, so the next one still replaces it.
  writeFileSync(manifest, pageManifestText([...(before ?? []), ...wanted]));
  for (const page of pages) {
    const target = path.join(outDirectory, page.path);
    makeFolder(path.dirname(target));
    writeFileSync(target, page.content.endsWith('\n') ? page.content : `${page.content}\n`);
  }
  for (const file of before ?? []) if (!wanted.includes(file)) rmSync(path.join(outDirectory, file), { force: true });
  writeFileSync(manifest, pageManifestText(wanted));
}

/**
 * Refuses a folder path that is a file or runs through one, before anything looks inside it: the
 * first look would fail on a page's path, naming a file the user never typed.
 */
export function assertFolderPath(directory: string, hint: string): void {
  for (let current = directory; ; current = path.dirname(current)) {
    const stats = statThroughFiles(current);
    if (stats?.isDirectory()) return;
    if (stats) throw new HandbookError('INVALID_INPUT', current === directory ? `${directory} is a file, not a folder` : `${directory}: ${current} is a file, not a folder`, hint);
    if (path.dirname(current) === current) return;
  }
}

/** Undefined for a path that does not exist, also when a part of it is a file (ENOTDIR): the walk up finds that file. */
function statThroughFiles(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** "a, b, c and more": the first few of the files in the way, for a refusal that fits one line. */
export function someFilesShown(files: readonly string[]): string {
  return files.length > 3 ? `${files.slice(0, 3).join(', ')} and more` : files.join(', ');
}

/**
 * Up to `limit` files under the folder (symbolic links included, never followed), sorted; empty folders
 * inside do not count. It stops at the limit, so a mistaken --out ~ is refused without a walk of the disk.
 */
export function someFilesUnder(directory: string, limit: number): string[] {
  if (!existsSync(directory)) return [];
  const found: string[] = [];
  const listing = opendirSync(directory, { recursive: true });
  try {
    for (let entry = listing.readSync(); entry && found.length < limit; entry = listing.readSync()) {
      if (!entry.isDirectory()) found.push(path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    }
  } finally {
    listing.closeSync();
  }
  return found.sort();
}
