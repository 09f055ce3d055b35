import { readFileSync } from 'node:fs';
import { type DiscoveryOptions, skipReasonOfBytes } from '../analyze/discover-files.js';
import { type FolderVerdicts, pathDiscovery } from '../analyze/discover-path.js';
import type { SkipReason } from '../graph/model.js';

/**
 * One file of the repository as a build would take it now: its bytes, or why it holds no code a
 * build would analyze: gone, or still there and left out (`symlink` when the file itself is a link).
 */
export type LiveSource = { kind: 'source'; bytes: Buffer } | LeftOut;

export type LeftOut = { kind: 'missing' } | { kind: 'skipped'; reason: SkipReason; symlink: boolean };

/** Reads files of one repository by their path from the root. */
export type LiveSourceReader = (file: string) => LiveSource;

/** The build settings files are judged by: a handbook's own, so a reader leaves out exactly what its sync would. */
export type LiveSourceOptions = Pick<DiscoveryOptions, 'include' | 'buildOutputDirectories' | 'maxFileBytes'>;

/**
 * The one way a reader of live code opens a file: judged by discovery's rules (links followed only
 * inside the root, folders and names a build leaves out; a FIFO is never opened, so it cannot
 * block an answer) and then by its bytes (binary, generated, over the size cap, unreadable), so a
 * reader never takes for code what a sync would drop, nor calls a file gone that is still there.
 */
export function liveSourceReader(root: string, options: LiveSourceOptions = {}, folders?: FolderVerdicts): LiveSourceReader {
  const discover = pathDiscovery(root, options, folders);
  return (file) => {
    const found = discover(file);
    if (found.kind === 'absent') return { kind: 'missing' };
    if (found.kind === 'skipped') return found;
    let bytes: Buffer;
    try {
      bytes = readFileSync(found.absolutePath);
    } catch {
      // Still there, as discovery would count it: a file it may not read is left out, not gone.
      return { kind: 'skipped', reason: 'unreadable', symlink: found.symlink };
    }
    const reason = skipReasonOfBytes(file, bytes, options.maxFileBytes);
    return reason ? { kind: 'skipped', reason, symlink: found.symlink } : { kind: 'source', bytes };
  };
}

/** Why a file holds none of its units now, in one line. */
export function leftOutReason(file: string, source: LeftOut): string {
  if (source.kind === 'missing') return `${file} no longer exists`;
  return `${file}${source.symlink ? ' (a symlink)' : ''} is now skipped as ${source.reason}`;
}
