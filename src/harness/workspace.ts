import { realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import { createFile, lstatOrUndefined, makeFolders, readRegularFile, realpathOrUndefined, removeFile, replaceFile, requireRegular, requireReplaceable } from './file-gate-io.js';
import { holdsControlCharacter, PathRefused, protectedFolderOf, quoted } from './file-gate-paths.js';

export { PathRefused } from './file-gate-paths.js';

export interface WorkspacePath {
  /** Relative to the workspace root, with forward slashes. */
  relative: string;
  absolute: string;
}

export type FileBytes = { status: 'file'; path: WorkspacePath; bytes: Buffer; mode: number } | { status: 'missing' | 'folder'; path: WorkspacePath };

export type FileText = { status: 'text'; path: WorkspacePath; text: string } | { status: 'missing' | 'folder' | 'binary'; path: WorkspacePath };

export type FolderListing = { status: 'listed'; path: WorkspacePath; files: string[] } | { status: 'missing' | 'not-a-folder'; path: WorkspacePath };

export type FileRemoval = { status: 'removed' | 'missing'; path: WorkspacePath };

export interface WorkspaceOptions {
  /** The largest file one write may produce (default 2 MB). */
  maxWriteBytes?: number;
}

export interface WriteOptions {
  /** Overrides the workspace's size cap for this write. */
  maxBytes?: number;
}

export interface ReplaceOptions extends WriteOptions {
  /** Permission bits for the file; by default a replaced file keeps its own. */
  mode?: number;
}

export const DEFAULT_MAX_WRITE_BYTES = 2_000_000;

/** A path judged by the gate: where it is by name, where it really leads, and what is there now. */
interface Located extends WorkspacePath {
  /** The path to open: `absolute` itself, or for a read through a link inside the root, the link's target. */
  real: string;
  /** lstat of `absolute`; absent when nothing is there. */
  stats: Stats | undefined;
}

/**
 * The repository a task works in, and the one gate every file tool goes through. Paths must
 * stay inside the root (after following links, judged by realpath and, on Linux, by the
 * opened descriptor), outside .git and .handbook at any depth, free of control characters,
 * and name regular files; writes must stay inside the task's scope, go through real folders
 * only, never follow or replace a link, never touch a hard-linked file, and stay under the
 * size cap. Prefix checks on the requested text are never the whole answer: every operation
 * judges the file system again right before it commits (see file-gate-io.ts for what remains).
 */
export class Workspace {
  readonly root: string;
  readonly maxWriteBytes: number;
  private readonly inScope: ((relative: string) => boolean) | undefined;

  constructor(
    root: string,
    readonly scope: readonly string[] = [],
    options: WorkspaceOptions = {},
  ) {
    this.root = realpathSync(root);
    this.maxWriteBytes = options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES;
    this.inScope = scope.length === 0 ? undefined : picomatch([...scope], { dot: true });
  }

  /** Judges a path for reading or writing; throws PathRefused naming the rule and the path. */
  resolve(requested: string, intent: 'read' | 'write'): WorkspacePath {
    const { relative, absolute } = this.locate(requested, intent);
    return { relative, absolute };
  }


  /** A file's bytes and permission bits; with intent `write`, judged as the file about to be changed (scope, links, hard links). */
  readFile(requested: string, intent: 'read' | 'write' = 'read'): FileBytes {
    const target = this.locate(requested, intent);
    const where = { relative: target.relative, absolute: target.absolute };
    const stats = target.real === target.absolute ? target.stats : lstatOrUndefined(target.real);
    if (!stats) return { status: 'missing', path: where };
    if (intent === 'write') requireReplaceable(stats, target.relative);
    if (stats.isDirectory()) return { status: 'folder', path: where };
    requireRegular(stats, target.relative);
    return { status: 'file', path: where, ...readRegularFile(target.real, target.relative, (real) => this.mayRead(real)) };
  }

  /** A file's text, as readFile judges it; a file holding a NUL byte is binary. */
  readText(requested: string, intent: 'read' | 'write' = 'read'): FileText {
    const file = this.readFile(requested, intent);
    if (file.status !== 'file') return file;
    const text = file.bytes.toString('utf8');
    return text.includes('\u0000') ? { status: 'binary', path: file.path } : { status: 'text', path: file.path, text };
  }

  /** Files under a folder matching a glob, as root-relative paths; protected folders and unprintable names are left out. */
  async listFiles(requested = '.', pattern = '**/*'): Promise<FolderListing> {
    const folder = this.locate(requested, 'read');
    if (holdsControlCharacter(pattern)) throw new PathRefused('control-character', `pattern ${quoted(pattern)} holds a control character`);
    if (pattern.includes('..') || path.isAbsolute(pattern)) throw new PathRefused('outside-root', `pattern ${quoted(pattern)} may not climb out of ${quoted(folder.relative || '.')}`);
    const where = { relative: folder.relative, absolute: folder.absolute };
    const stats = folder.real === folder.absolute ? folder.stats : lstatOrUndefined(folder.real);
    if (!stats) return { status: 'missing', path: where };
    if (!stats.isDirectory()) return { status: 'not-a-folder', path: where };
    const found = await glob(pattern, {
      cwd: folder.real,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: ['**/node_modules/**', '**/.git/**', '**/.handbook/**'],
    });
    const prefix = folder.relative === '' ? '' : `${folder.relative}/`;
    const files = found.map((file) => prefix + file).filter((file) => !protectedFolderOf(file) && !holdsControlCharacter(file));
    return { status: 'listed', path: where, files: files.sort() };
  }

  /** Refuses text over the size cap; the write methods check it too, tools call it first to fail cheaply. */
  checkSize(relative: string, data: string | Buffer, options: WriteOptions = {}): void {
    const limit = options.maxBytes ?? this.maxWriteBytes;
    const bytes = Buffer.byteLength(data);
    if (bytes > limit) throw new PathRefused('size-cap', `${quoted(relative)} would be ${bytes} bytes, over the ${limit}-byte limit for one write`);
  }

  /** Replaces a file's text atomically, or writes a new file (making its folders). */
  writeText(requested: string, text: string, options: ReplaceOptions = {}): WorkspacePath {
    return this.writeFile(requested, Buffer.from(text, 'utf8'), options);
  }

  /** Replaces a file's bytes atomically, or writes a new file (making its folders); what a rollback restores with. */
  writeFile(requested: string, bytes: Buffer, options: ReplaceOptions = {}): WorkspacePath {
    const target = this.locate(requested, 'write');
    this.checkSize(target.relative, bytes, options);
    if (target.stats) requireReplaceable(target.stats, target.relative);
    else makeFolders(this.root, path.dirname(target.absolute), target.relative);
    replaceFile(target.absolute, target.relative, bytes, { previous: target.stats, mode: options.mode });
    return { relative: target.relative, absolute: target.absolute };
  }

  /** Creates a file that does not exist yet, with any missing folders; never overwrites. */
  createText(requested: string, text: string, options: WriteOptions = {}): WorkspacePath {
    const target = this.locate(requested, 'write');
    this.checkSize(target.relative, text, options);
    if (target.stats) throw new PathRefused('no-overwrite', `${quoted(target.relative)} already exists; creating never overwrites (change it with edit_file)`);
    makeFolders(this.root, path.dirname(target.absolute), target.relative);
    createFile(target.absolute, target.relative, Buffer.from(text, 'utf8'));
    return { relative: target.relative, absolute: target.absolute };
  }

  /** Deletes a regular file. */
  remove(requested: string): FileRemoval {
    const target = this.locate(requested, 'write');
    const where = { relative: target.relative, absolute: target.absolute };
    if (!target.stats) return { status: 'missing', path: where };
    requireReplaceable(target.stats, target.relative);
    removeFile(target.absolute, target.relative);
    return { status: 'removed', path: where };
  }

  /**
   * Judges a path by its name alone (printable, inside the root, outside .git and .handbook) and
   * follows no link: for a reader that judges links itself, as discovery does, before opening anything.
   */
  name(requested: string): WorkspacePath {
    return this.named(requested, 'read');
  }

  private named(requested: string, intent: 'read' | 'write'): WorkspacePath {
    if (holdsControlCharacter(requested)) throw new PathRefused('control-character', `path ${quoted(requested)} holds a control character`);
    const absolute = path.resolve(this.root, requested);
    const relative = path.relative(this.root, absolute).split(path.sep).join('/');
    if (!insideRoot(relative)) throw new PathRefused('outside-root', `${quoted(requested)} is outside the repository`);
    if (relative === '' && intent === 'write') throw new PathRefused('outside-root', `${quoted(requested)} is the repository root itself`);
    this.refuseProtected(relative, relative);
    return { relative, absolute };
  }

  private locate(requested: string, intent: 'read' | 'write'): Located {
    const { relative, absolute } = this.named(requested, intent);
    const stats = lstatOrUndefined(absolute);
    const real = this.realLocation(absolute, relative, stats, intent);
    if (intent === 'write' && this.inScope && !this.inScope(relative)) {
      throw new PathRefused('outside-scope', `${quoted(relative)} is outside the task's scope (${this.scope.join(', ')})`);
    }
    return { relative, absolute, real, stats };
  }

  /** Where the path really leads, judged by realpath: a link may lead elsewhere inside the root for reads, never for writes. */
  private realLocation(absolute: string, relative: string, stats: Stats | undefined, intent: 'read' | 'write'): string {
    if (stats?.isSymbolicLink()) {
      if (intent === 'write') throw new PathRefused('symlink', `${quoted(relative)} is a symbolic link; tools write only regular files, never through links`);
      const target = realpathOrUndefined(absolute);
      if (target === undefined) throw new PathRefused('symlink', `${quoted(relative)} is a symbolic link to nothing`);
      if (!this.contains(target)) throw new PathRefused('symlink', `${quoted(relative)} links outside the repository`);
      this.refuseProtected(this.relativeOf(target), relative);
      return target;
    }
    let existing = absolute;
    while (!lstatOrUndefined(existing)) existing = path.dirname(existing);
    const real = path.join(realpathSync(existing), path.relative(existing, absolute));
    if (!this.contains(real)) throw new PathRefused('symlink', `a folder on the way to ${quoted(relative)} links outside the repository`);
    // A linked folder inside the root could carry a write past the scope or into .git under another name.
    if (intent === 'write' && real !== absolute) throw new PathRefused('symlink', `a folder on the way to ${quoted(relative)} is a symbolic link; tools write only through real folders`);
    this.refuseProtected(this.relativeOf(real), relative);
    return real;
  }

  private refuseProtected(judged: string, requested: string): void {
    const folder = protectedFolderOf(judged);
    if (folder === undefined) return;
    const through = judged === requested ? '' : ` (it leads to ${quoted(judged)})`;
    throw new PathRefused('protected-folder', `${quoted(requested)} is inside ${folder}/, which tools never touch${through}`);
  }

  /** Whether a file opened for reading really is inside the root and outside the protected folders. */
  private mayRead(real: string): boolean {
    return this.contains(real) && protectedFolderOf(this.relativeOf(real)) === undefined;
  }

  private contains(real: string): boolean {
    return !path.isAbsolute(path.relative(this.root, real)) && insideRoot(this.relativeOf(real));
  }

  private relativeOf(real: string): string {
    return path.relative(this.root, real).split(path.sep).join('/');
  }
}

/** Whether a root-relative posix path stays inside; `..foo` is a name, `../foo` is not. */
function insideRoot(relative: string): boolean {
  return relative !== '..' && !relative.startsWith('../') && !path.posix.isAbsolute(relative);
}

