import path from 'node:path';
import { HandbookError } from '../errors.js';

/** A lock whose holder stops refreshing it (a killed process) may be taken over after this long. */
export const LOCK_STALE_MS = 10_000;
/** Waiting longer than the stale time means a lock left by a killed process is taken over, not reported. */
export const DEFAULT_LOCK_WAIT_MS = 12_000;
const POLL_MS = 25;

export interface JournalLock {
  /** Throws when the lock was lost (the holder stalled past the stale time and another process took it). */
  assertHeld(): void;
  release(): Promise<void>;
}

/** Takes the journal's lock: one writer at a time, across processes. */
export async function lockJournal(directory: string, waitMs: number): Promise<JournalLock> {
  const lockfilePath = path.join(directory, 'lock');
  let lost: Error | undefined;
  let release: () => Promise<void>;
  // Loaded here, not at import: proper-lockfile's signal-exit takes over every signal as it loads, and
  // its handlers run only once synchronous work yields, so Ctrl-C would wait out a whole build or sync.
  const { default: lockfile } = await import('proper-lockfile');
  try {
    release = await lockfile.lock(directory, {
      lockfilePath,
      stale: LOCK_STALE_MS,
      retries: { retries: Math.ceil(waitMs / POLL_MS), factor: 1, minTimeout: POLL_MS, maxTimeout: POLL_MS },
      // The default throws from a timer, which would end the process; the writer checks instead.
      onCompromised: (error) => {
        lost = error;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new HandbookError('JOURNAL_LOCKED', `another process holds the journal lock ${lockfilePath}`, `wait for it to finish; a lock left by a killed process is taken over after ${LOCK_STALE_MS / 1000} s`);
  }
  return {
    assertHeld: () => {
      if (lost) throw new HandbookError('JOURNAL_LOCKED', `lost the journal lock ${lockfilePath}: ${lost.message}`, 'try again');
    },
    release: async () => {
      if (!lost) await release();
    },
  };
}
