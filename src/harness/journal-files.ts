import type { Workspace } from './workspace.js';

/** The files a rollback reads and restores, by journal path; whoever supplies them decides which paths are allowed. */
export interface JournalFiles {
  /** The file's bytes and permission bits, or null when there is no file. */
  read(path: string): { bytes: Buffer; mode: number } | null;
  /** Replaces the file whole: a reader sees the old content or the new, never a mix. */
  write(path: string, bytes: Buffer, mode: number): void | Promise<void>;
  /** Removes the file; one already gone is not an error. */
  remove(path: string): void | Promise<void>;
}

/**
 * A workspace's files through its gate: a rollback touches only what a write tool could
 * (inside the root, no links, not .git or .handbook, in scope), and restores whatever size it
 * recorded, since the size cap guards what a model writes, not what an undo puts back.
 */
export function workspaceJournalFiles(workspace: Workspace): JournalFiles {
  return {
    read: (requested) => {
      const file = workspace.readFile(requested, 'write');
      return file.status === 'file' ? { bytes: file.bytes, mode: file.mode & 0o777 } : null;
    },
    write: (requested, bytes, mode) => {
      workspace.writeFile(requested, bytes, { mode, maxBytes: Number.POSITIVE_INFINITY });
    },
    remove: (requested) => {
      workspace.remove(requested);
    },
  };
}
