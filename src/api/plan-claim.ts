import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HandbookError } from '../errors.js';
import { plansFolder } from '../plan/plan-store.js';

/**
 * A claim left by a killed process lapses after this long. Longer than the journal's lock: the claim
 * is held through a whole run, whose in-process typecheck and sync may keep the holder from refreshing it.
 */
const CLAIM_STALE_MS = 60_000;
/** Ample for a holder to write its run's id once it holds the lock: it does so next, without waiting on anything. */
const HOLDER_WRITE_MS = 100;

/**
 * Claims a plan for one run at a time, across processes, and writes the run's id into the claimed
 * file for a refused process to name. Two applies of one plan started together both passed the
 * gate, both edited the files and both wrote an acceptance record. Returns the release.
 */
export async function claimPlan(root: string, planId: string, runId: string): Promise<() => Promise<void>> {
  const folder = plansFolder(root);
  mkdirSync(folder, { recursive: true });
  const holder = path.join(folder, `${planId}.run`);
  // Loaded here, not at import, for the reason the journal's lock gives (signal-exit takes over every signal as it loads).
  const { default: lockfile } = await import('proper-lockfile');
  let lost = false;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(holder, {
      realpath: false,
      stale: CLAIM_STALE_MS,
      // The default throws from a timer, ending the run mid-write; a holder stalled past the stale time
      // has let another process in, and its own writes stay journaled under the journal's lock.
      onCompromised: () => {
        lost = true;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    // Two applies started together meet in the moment between the lock and the id written under it.
    const run = runOf(holder) ?? (await sleep(HOLDER_WRITE_MS), runOf(holder));
    throw new HandbookError('INVALID_INPUT', `plan ${planId} is already being applied by ${run ? `run ${run}` : 'another run'}`, `wait for it to end; a claim left by a killed process lapses after ${CLAIM_STALE_MS / 1000} s`);
  }
  writeFileSync(holder, `${runId}\n`);
  return async () => {
    if (lost) return;
    // Before the lock goes: the next holder writes its own run here.
    rmSync(holder, { force: true });
    await release();
  };
}

/** The run the claimed file names; none while its holder has yet to write it. */
function runOf(holder: string): string | undefined {
  try {
    return readFileSync(holder, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
