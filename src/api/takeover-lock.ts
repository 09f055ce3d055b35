import { HandbookError } from '../errors.js';

/**
 * A takeover lock whose holder stopped refreshing it (killed in the few file operations a takeover
 * takes) keeps other takeovers out this long. Far beyond what those operations take, so that a
 * holder slowed by a loaded machine is not judged dead, and its lock taken, while it works.
 */
const TAKEOVER_STALE_MS = 10_000;
/**
 * A holder goes no further once it has waited and held this long: from TAKEOVER_STALE_MS after its
 * first attempt, another process may judge the lock stale and take it, and file times lag the clock.
 */
const TAKEOVER_HOLD_MS = TAKEOVER_STALE_MS / 2;
/** proper-lockfile's shortest: a working holder's lock stays well inside the stale time, and a holder learns within a second that its lock was taken. */
const TAKEOVER_UPDATE_MS = 1_000;
/**
 * About 2 s: ample for other takeovers to end, and well short of the hold time, which counts the wait,
 * so that a waiter gives up on a slow holder rather than outwaiting the stale time and taking its lock from under it.
 */
const TAKEOVER_WAIT = { retries: 40, factor: 1, minTimeout: 50, maxTimeout: 50 };

export interface TakeoverLock {
  /** Throws unless no other process can have taken the lock yet: call it right before a step two takeovers must not both take. */
  assertHeld(): void;
  release(): Promise<void>;
}

/**
 * Locks `${file}.takeover`, so that processes that all found a claim's holder dead take the claim
 * over one at a time. Undefined when other takeovers held it throughout the wait.
 */
export async function lockTakeover(file: string, claim: string): Promise<TakeoverLock | undefined> {
  const lockfilePath = `${file}.takeover`;
  // Loaded here, not at import, for the reason the journal's lock gives (signal-exit takes over every signal as it loads).
  const { default: lockfile } = await import('proper-lockfile');
  const firstTry = Date.now();
  let lost: Error | undefined;
  let release: () => Promise<void>;
  try {
    // Keyed by the lock's own path, not the claim's: proper-lockfile keeps one lock per key in a process, and the plan's claim locks its file itself.
    release = await lockfile.lock(lockfilePath, {
      realpath: false,
      lockfilePath,
      stale: TAKEOVER_STALE_MS,
      update: TAKEOVER_UPDATE_MS,
      retries: TAKEOVER_WAIT,
      // The default throws from a timer, which ended the process: a holder whose lock was taken is refused by assertHeld instead.
      onCompromised: (error) => {
        lost = error;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
  return {
    assertHeld: () => {
      const reason = lost ? `its lock ${lockfilePath} was taken: ${lost.message}` : heldTooLong(firstTry, lockfilePath);
      if (reason) throw new HandbookError('INVALID_INPUT', `gave up taking over ${claim}, as another process may be taking it over too: ${reason}`, 'try again');
    },
    release: async () => {
      // A lost lock is another process's now.
      if (!lost) await release();
    },
  };
}

function heldTooLong(firstTry: number, lockfilePath: string): string | undefined {
  const held = Date.now() - firstTry;
  return held < TAKEOVER_HOLD_MS ? undefined : `it waited for and held its lock ${lockfilePath} for ${held} ms, long enough for another process to judge it abandoned`;
}
