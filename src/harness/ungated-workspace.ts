import { existsSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PathRefused, Workspace, type FileBytes, type FileRemoval, type FileText, type ReplaceOptions, type WorkspacePath, type WriteOptions } from './workspace.js';
import { makeFolder } from '../text/make-folder.js';

/**
 * The ablation lab's control for the file gate: the same operations with none of its checks,
 * so the lab can measure what the gate is worth. Paths resolve against the root and go
 * wherever they lead. Never used outside a lab run.
 */
export class UngatedWorkspace extends Workspace {
  override resolve(requested: string): WorkspacePath {
    const absolute = path.resolve(this.root, requested);
    return { absolute, relative: path.relative(this.root, absolute).split(path.sep).join('/') };
  }

  override readFile(requested: string): FileBytes {
    const where = this.resolve(requested);
    if (!existsSync(where.absolute)) return { status: 'missing', path: where };
    const stats = lstatSync(where.absolute);
    if (stats.isDirectory()) return { status: 'folder', path: where };
    return { status: 'file', path: where, bytes: readFileSync(where.absolute), mode: stats.mode & 0o7777 };
  }

  override readText(requested: string): FileText {
    const file = this.readFile(requested);
    if (file.status !== 'file') return file;
    return { status: 'text', path: file.path, text: file.bytes.toString('utf8') };
  }

  override writeText(requested: string, text: string, options: ReplaceOptions = {}): WorkspacePath {
    return this.writeFile(requested, Buffer.from(text, 'utf8'), options);
  }

  override writeFile(requested: string, bytes: Buffer, options: ReplaceOptions = {}): WorkspacePath {
    const where = this.resolve(requested);
    makeFolder(path.dirname(where.absolute));
    writeFileSync(where.absolute, bytes, options.mode === undefined ? {} : { mode: options.mode });
    return where;
  }

  override createText(requested: string, text: string, _options: WriteOptions = {}): WorkspacePath {
    const where = this.resolve(requested);
    if (existsSync(where.absolute)) throw new PathRefused('no-overwrite', `${where.relative} already exists`);
    makeFolder(path.dirname(where.absolute));
    writeFileSync(where.absolute, text);
    return where;
  }

  override remove(requested: string): FileRemoval {
    const where = this.resolve(requested);
    if (!existsSync(where.absolute)) return { status: 'missing', path: where };
    unlinkSync(where.absolute);
    return { status: 'removed', path: where };
  }
}
