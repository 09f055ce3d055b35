import type { ErrorCode, TaskState } from '../index.js';

/** Documented exit codes: scripts may rely on them. */
export const EXIT = {
  ok: 0,
  internal: 1,
  invalidInput: 2,
  noHandbook: 3,
  database: 4,
  /** `status`: the handbook is stale (entries changed or frozen since the build). */
  stale: 5,
  /** `run`: the task ended BLOCKED (the model or the harness stopped it, e.g. a loop or a refusal). */
  taskBlocked: 6,
  /** `run`: the task ended NEEDS_INPUT (the model asked a question). */
  taskNeedsInput: 7,
  /** `run`: the task ended FAILED (steps, time or the provider ran out). */
  taskFailed: 8,
  /** `journal verify`, `rollback`: the journal of writes does not verify (an entry edited, forged, moved or cut off). */
  journalBroken: 9,
  /** `rollback`: some of the writes were refused (changed since, or their saved content is missing) and left as they are. */
  rollbackIncomplete: 10,
  /** `plan`: the plan gate rejected the plan (it is saved as rejected, with its failures). */
  planRejected: 11,
  /**
   * The reader of stdout or stderr went away (`handbook graph export | head -1`): what a shell
   * reports for `cat` or `git log` ended by SIGPIPE (128 + 13), so `set -o pipefail` treats handbook
   * as any other tool, and output cut short is never reported as complete.
   */
  brokenPipe: 141,
} as const;

/** Only a COMPLETE task, whose exit criteria the harness verified, exits 0. */
export function exitCodeForTask(state: TaskState): number {
  switch (state) {
    case 'COMPLETE':
      return EXIT.ok;
    case 'BLOCKED':
      return EXIT.taskBlocked;
    case 'NEEDS_INPUT':
      return EXIT.taskNeedsInput;
    default:
      return EXIT.taskFailed;
  }
}

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'NO_HANDBOOK':
      return EXIT.noHandbook;
    case 'DATABASE_CORRUPT':
    case 'DATABASE_TOO_NEW':
    case 'DATABASE_LOCKED':
    case 'JOURNAL_LOCKED':
      return EXIT.database;
    case 'JOURNAL_BROKEN':
      return EXIT.journalBroken;
    default:
      return EXIT.invalidInput;
  }
}
