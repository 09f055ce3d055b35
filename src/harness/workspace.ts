import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/** A path a tool may not use, with the rule that refused it; the model gets the message and may try again. */
export class PathRefused extends Error {
  override readonly name = 'PathRefused';
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

export interface WorkspacePath {
  /** Relative to the workspace root, with forward slashes. */
  relative: string;
  absolute: string;
}

/** Folders no tool touches: the repository's history and the handbook's own state. */
const PROTECTED_FOLDERS = ['.git', '.handbook'];

/**
 * The repository a task works in, and the paths its tools may use: inside the root (after
 * following symlinks), outside .git and .handbook, and for writes inside the task's scope.
 */
export class Workspace {
  readonly root: string;
  private readonly inScope: ((relative: string) => boolean) | undefined;

  constructor(root: string, readonly scope: readonly string[] = []) {
    this.root = realpathSync(root);
    this.inScope = scope.length === 0 ? undefined : picomatch([...scope], { dot: true });
  }

  resolve(requested: string, intent: 'read' | 'write'): WorkspacePath {
    if (/[\u0000-\u001f\u007f]/.test(requested)) throw new PathRefused('control-character', `path ${JSON.stringify(requested)} holds a control character`);
    const absolute = path.resolve(this.root, requested);
    const relative = path.relative(this.root, absolute);
    if (relative === '' && intent === 'write') throw new PathRefused('outside-root', `"${requested}" is the repository root itself`);
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new PathRefused('outside-root', `"${requested}" is outside the repository`);
    const posix = relative.split(path.sep).join('/');
    const top = posix.split('/')[0]!;
    if (PROTECTED_FOLDERS.includes(top)) throw new PathRefused('protected-folder', `"${posix}" is inside ${top}/, which tools never touch`);
    this.refuseSymlinkEscape(absolute, posix, intent);
    if (intent === 'write' && this.inScope && !this.inScope(posix)) {
      throw new PathRefused('outside-scope', `"${posix}" is outside the task's scope (${this.scope.join(', ')})`);
    }
    return { relative: posix, absolute };
  }

  /** Whether a write to this relative path would be in scope; for prompts and plans. */
  allowsWrite(relative: string): boolean {
    return this.inScope ? this.inScope(relative) : true;
  }

  private refuseSymlinkEscape(absolute: string, posix: string, intent: 'read' | 'write'): void {
    const finalStat = lstatOrUndefined(absolute);
    if (finalStat?.isSymbolicLink()) {
      if (intent === 'write') throw new PathRefused('symlink', `"${posix}" is a symbolic link; tools write only regular files`);
      if (!this.contains(realpathSync(absolute))) throw new PathRefused('symlink', `"${posix}" links outside the repository`);
    }
    let existing = path.dirname(absolute);
    while (!lstatOrUndefined(existing)) existing = path.dirname(existing);
    if (!this.contains(realpathSync(existing))) throw new PathRefused('symlink', `a folder on the way to "${posix}" links outside the repository`);
  }

  private contains(real: string): boolean {
    const relative = path.relative(this.root, real);
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  }
}

function lstatOrUndefined(absolute: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(absolute);
  } catch {
    return undefined;
  }
}
