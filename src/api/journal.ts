import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { Journal, type JournalOptions, type RollbackReport } from '../harness/journal.js';
import { workspaceJournalFiles } from '../harness/journal-files.js';
import type { VerifyReport } from '../harness/journal-verify.js';
import { Workspace } from '../harness/workspace.js';

export interface RollbackOptions extends JournalOptions {
  /** Tags the rollback entries (default: rollback-<time>). */
  runId?: string;
}

/** Checks a repository's journal of writes: every entry authentic, numbered, linked to the one before, and none cut from the end. */
export function verifyJournal(repo: string, options: JournalOptions = {}): VerifyReport {
  return Journal.open(assertRepositoryRoot(repo), options).verify();
}

/**
 * Undoes the last `count` journaled writes of a repository, newest first. Files are restored
 * through the same gate as the harness's write tools: nothing outside the root, through a
 * symlink, or under .git or .handbook, whatever a journal line says.
 */
export async function rollbackJournal(repo: string, count: number, options: RollbackOptions = {}): Promise<RollbackReport> {
  const root = assertRepositoryRoot(repo);
  const { runId = `rollback-${new Date().toISOString()}`, ...journalOptions } = options;
  return Journal.open(root, journalOptions).rollback(count, runId, workspaceJournalFiles(new Workspace(root)));
}

/**
 * Refuses to start a run on a journal that does not verify. A writer checks the whole journal only
 * at its first write, so a run on a broken journal still started: it called the model and ran
 * checks, and only its writes failed, one by one, as tool errors the model was left to work around.
 */
export function assertJournalVerifies(root: string, options: JournalOptions = {}): void {
  const report = Journal.open(root, options).verify();
  if (report.ok) return;
  throw new HandbookError(
    'JOURNAL_BROKEN',
    `the journal of writes failed its check, so the run was not started: ${report.reason}`,
    'run `handbook journal verify` for the first broken link, then restore .handbook/journal from a copy, or move it aside to start a new journal (the writes it holds can then no longer be rolled back)',
  );
}
