import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { PathRefused, quoted } from './file-gate-paths.js';

/*
 * The file system half of the gate: opens, creates, replaces and deletes without following a
 * link in the final component, never blocks on a FIFO, and re-checks the folder right before
 * the step that commits. What stays open: Node has no openat/renameat/unlinkat, so the last
 * check and the rename or unlink that follows it are two calls by path, and a folder swapped
 * for a link in the microseconds between them still redirects that one call. A replace then
 * only moves our own temp file (its random name exists in the pinned folder alone, wherever
 * that folder now is); a delete could remove a file of the same name elsewhere. Missing folders
 * the gate makes for a new file can be made elsewhere the same way, empty. Off Linux (no /proc)
 * the check of where an opened file really is falls back to re-checking its folder by path.
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/** Linux names the file behind a descriptor in /proc; elsewhere only paths can be checked. */
const DESCRIPTOR_PATHS = existsSync('/proc/self/fd');

/** A folder held open by descriptor, to notice when the path stops leading to it. */
interface PinnedFolder {
  fd: number;
  path: string;
  dev: number;
  ino: number;
}

export function lstatOrUndefined(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute);
  } catch {
    return undefined;
  }
}

/** Refuses what a tool may not replace or delete: links, folders, special files, and files with other names. */
export function requireReplaceable(stats: Stats, relative: string): void {
  if (stats.isSymbolicLink()) throw new PathRefused('symlink', `${quoted(relative)} is a symbolic link; tools write only regular files, never through links`);
  requireRegular(stats, relative);
  if (stats.nlink > 1) {
    throw new PathRefused(
      'hard-link',
      `${quoted(relative)} has ${stats.nlink} hard links: its bytes also live under another name, perhaps outside the task's scope or the repository (a package store, a backup). ` +
        'Changing it in place would change that file too and replacing it would silently split them, so tools neither write nor delete hard-linked files',
    );
  }
}

export function requireRegular(stats: Stats, relative: string): void {
  if (!stats.isFile()) throw new PathRefused('not-a-regular-file', `${quoted(relative)} is ${kindOf(stats)}, not a regular file; tools read and write regular files only`);
}

/**
 * Reads a regular file. O_NOFOLLOW refuses a link swapped into the final component, O_NONBLOCK
 * keeps a FIFO swapped in after the caller's lstat from blocking, and fstat judges what was
 * really opened; `allowed` judges where it really is, when the system can say.
 */
export function readRegularFile(absolute: string, relative: string, allowed: (real: string) => boolean): { bytes: Buffer; mode: number } {
  const fd = openRefusingLinks(absolute, O_RDONLY | O_NONBLOCK, relative);
  try {
    const stats = fstatSync(fd);
    requireRegular(stats, relative);
    const real = pathOfDescriptor(fd);
    if (real !== undefined && !allowed(real)) throw new PathRefused('symlink', `${quoted(relative)} was reached through a folder swapped for a link while it was opened; nothing was read`);
    return { bytes: readFileSync(fd), mode: stats.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces a file atomically: a temp file created exclusively in the same folder, renamed over
 * the target. Rename replaces a link in the target's place instead of following it; the folder
 * is pinned by descriptor and checked again right before the rename. write-file-atomic is not
 * used because it resolves the target's realpath first, following a link swapped in after our check.
 */
export function replaceFile(absolute: string, relative: string, data: Buffer, keep: { previous: Stats | undefined; mode: number | undefined }): void {
  const folder = pinFolder(path.dirname(absolute), relative);
  const temp = path.join(folder.path, `.gate-${randomBytes(8).toString('hex')}.tmp`);
  let fd: number | undefined;
  let renamed = false;
  try {
    fd = openRefusingLinks(temp, O_WRONLY | O_CREAT | O_EXCL, relative, 0o666);
    requirePlaced(fd, temp, folder, relative);
    keepModeAndOwner(fd, keep.mode ?? keep.previous?.mode, keep.previous);
    writeAll(fd, data);
    fsyncSync(fd);
    requirePinned(folder, relative);
    const current = lstatOrUndefined(absolute);
    if (current) requireReplaceable(current, relative);
    renameSync(temp, absolute);
    renamed = true;
  } finally {
    if (fd !== undefined) discard(fd, temp, !renamed);
    closeSync(folder.fd);
  }
}

/** Creates a file that must not exist yet: O_EXCL refuses any name already there, a dangling link included. */
export function createFile(absolute: string, relative: string, data: Buffer): void {
  const folder = pinFolder(path.dirname(absolute), relative);
  let fd: number | undefined;
  let written = false;
  try {
    try {
      fd = openRefusingLinks(absolute, O_WRONLY | O_CREAT | O_EXCL, relative, 0o666);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') throw new PathRefused('no-overwrite', `${quoted(relative)} already exists; creating never overwrites (change it with edit_file)`);
      throw error;
    }
    requirePlaced(fd, absolute, folder, relative);
    writeAll(fd, data);
    fsyncSync(fd);
    written = true;
  } finally {
    if (fd !== undefined) discard(fd, absolute, !written);
    closeSync(folder.fd);
  }
}

/** Deletes a regular file that has no other name, after checking again, with its folder pinned, what the path now names. */
export function removeFile(absolute: string, relative: string): void {
  const folder = pinFolder(path.dirname(absolute), relative);
  try {
    const current = lstatOrUndefined(absolute);
    if (current) requireReplaceable(current, relative);
    requirePinned(folder, relative);
    unlinkSync(absolute);
  } finally {
    closeSync(folder.fd);
  }
}

/** Makes the missing folders from root down to `folder`, one at a time, each checked to be a real folder where it should be. */
export function makeFolders(root: string, folder: string, relative: string): void {
  let current = root;
  for (const part of path.relative(root, folder).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    try {
      mkdirSync(current);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const stats = lstatSync(current);
    if (stats.isSymbolicLink() || realpathOrUndefined(current) !== current) throw new PathRefused('symlink', `a folder on the way to ${quoted(relative)} became a link; nothing was created`);
    if (!stats.isDirectory()) throw new PathRefused('not-a-folder', `${quoted(path.relative(root, current))} is a file, so ${quoted(relative)} cannot be created under it`);
  }
}

function pinFolder(folder: string, relative: string): PinnedFolder {
  let fd: number;
  try {
    fd = openSync(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if (errorCode(error) === 'ELOOP' || errorCode(error) === 'ENOTDIR') throw folderMoved(relative);
    throw error;
  }
  const stats = fstatSync(fd);
  const pinned = { fd, path: folder, dev: stats.dev, ino: stats.ino };
  try {
    requirePinned(pinned, relative);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return pinned;
}

/** The folder's path still leads, through real folders only, to the folder held open. */
function requirePinned(folder: PinnedFolder, relative: string): void {
  const now = lstatOrUndefined(folder.path);
  if (!now || now.isSymbolicLink() || now.dev !== folder.dev || now.ino !== folder.ino) throw folderMoved(relative);
  if ((pathOfDescriptor(folder.fd) ?? folder.path) !== folder.path || realpathOrUndefined(folder.path) !== folder.path) throw folderMoved(relative);
}

/** The file just opened by `expected` is really there: the folder did not change between pinning and opening. */
function requirePlaced(fd: number, expected: string, folder: PinnedFolder, relative: string): void {
  const real = pathOfDescriptor(fd);
  if (real === undefined) requirePinned(folder, relative);
  else if (real !== expected) throw folderMoved(relative);
}

function folderMoved(relative: string): PathRefused {
  return new PathRefused('symlink', `a folder on the way to ${quoted(relative)} was swapped for a link or moved while it was being written; nothing was written through it`);
}

function openRefusingLinks(absolute: string, flags: number, relative: string, mode?: number): number {
  try {
    return openSync(absolute, flags | O_NOFOLLOW, mode);
  } catch (error) {
    if (errorCode(error) === 'ELOOP') throw new PathRefused('symlink', `${quoted(relative)} became a symbolic link while it was being opened; tools never follow links`);
    throw error;
  }
}

/** Closes a file this gate created and, if it is not to be kept, removes it from wherever it really landed. */
function discard(fd: number, fallback: string, remove: boolean): void {
  const real = remove ? (pathOfDescriptor(fd) ?? fallback) : undefined;
  closeSync(fd);
  if (real === undefined) return;
  try {
    unlinkSync(real);
  } catch {
    // Already gone: nothing of ours is left behind.
  }
}

/** A replaced file keeps its permissions (without set-id bits, which no edit should carry over) unless told others, and where allowed its owner. */
function keepModeAndOwner(fd: number, mode: number | undefined, previous: Stats | undefined): void {
  if (mode !== undefined) fchmodSync(fd, mode & 0o777);
  if (!previous) return;
  try {
    fchownSync(fd, previous.uid, previous.gid);
  } catch {
    // Only a privileged process may give a file away; others keep their own ownership, as any editor would.
  }
}

export function realpathOrUndefined(absolute: string): string | undefined {
  try {
    return realpathSync(absolute);
  } catch {
    return undefined;
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
}

function pathOfDescriptor(fd: number): string | undefined {
  if (!DESCRIPTOR_PATHS) return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'an unknown kind of file';
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
