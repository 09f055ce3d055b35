import { assertRepositoryRoot } from '../analyze/repository-root.js';
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
