import type { Journal } from './journal.js';
import { sameContent, sha256, type FileState } from './journal-entry.js';
import type { ReconcileOutcome, StartedOperation } from './operation-log.js';
import type { Workspace } from './workspace.js';

/**
 * Whether a call that a crash or timeout cut off took effect, from evidence: a file tool's
 * write is journaled before it happens, so the journal names what the file would hold and
 * the disk says whether it does. Commands leave no such record: their outcome is unknown.
 */
export function reconcileFromJournal(journal: Journal | undefined, workspace: Workspace, operation: StartedOperation): { outcome: ReconcileOutcome; detail: string } {
  if (operation.tool === 'run_command') return { outcome: 'unknown', detail: 'a command leaves no record of what it did' };
  if (!journal) return { outcome: 'unknown', detail: 'there is no journal to check it against' };
  const entries = journal.entries().filter((entry) => entry.opId === operation.opId);
  if (entries.length === 0) return { outcome: 'not_done', detail: 'nothing was journaled for it, and every write is journaled before it happens' };
  const last = entries.at(-1)!;
  const now = currentState(workspace, last.path);
  if (sameState(now, last.after)) return { outcome: 'done', detail: `${last.path} holds what the journal says the call wrote` };
  if (sameState(now, last.before)) return { outcome: 'not_done', detail: `${last.path} still holds what it held before the call` };
  return { outcome: 'unknown', detail: `${last.path} holds neither what it held before the call nor what the call would have written` };
}

function currentState(workspace: Workspace, file: string): FileState | undefined {
  try {
    const read = workspace.readFile(file, 'read');
    if (read.status === 'missing') return { exists: false };
    if (read.status !== 'file') return undefined;
    return { exists: true, mode: read.mode & 0o777, size: read.bytes.length, digest: sha256(read.bytes) };
  } catch {
    return undefined;
  }
}

function sameState(now: FileState | undefined, recorded: FileState): boolean {
  return now !== undefined && sameContent(now, recorded);
}
