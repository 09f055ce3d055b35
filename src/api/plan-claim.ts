import { rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LockOptions } from 'proper-lockfile';
import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { plansFolder } from '../plan/plan-store.js';
import { makeFolder } from '../text/make-folder.js';
import { readJsonIfValid } from '../text/read-json-input.js';
import { isRunning } from './process-running.js';
import { lockTakeover } from './takeover-lock.js';

/**
 * A claim whose holder cannot be checked (another machine's, or one killed before it wrote its
 * name) lapses after this long. Longer than the journal's lock: the claim is held through a whole
 * run, whose in-process typecheck and sync may keep the holder from refreshing it.
 */
const CLAIM_STALE_MS = 60_000;
/** Ample for a holder to write its name once it holds the lock: it does so next, without waiting on anything. */
const HOLDER_WRITE_MS = 100;

const holderSchema = z.object({ run: z.string().min(1), pid: z.number().int().positive(), host: z.string() });
type Holder = z.output<typeof holderSchema>;
type Lockfile = typeof import('proper-lockfile');
type Release = () => Promise<void>;

/**
 * Claims a plan for one run at a time, across processes, and writes the run, its process and
 * machine into the claimed file: a refused process names the run, and a claim whose process died
 * on this machine (SIGKILL, a crash) is taken over at once instead of refusing every apply until
 * it lapses. Two applies of one plan started together both passed the gate, both edited the files
 * and both wrote an acceptance record. Returns the release.
 */
export async function claimPlan(root: string, planId: string, runId: string): Promise<Release> {
  const folder = plansFolder(root);
  makeFolder(folder);
  const holder = path.join(folder, `${planId}.run`);
  // Loaded here, not at import, for the reason the journal's lock gives (signal-exit takes over every signal as it loads).
  const { default: lockfile } = await import('proper-lockfile');
  let lost = false;
  const options: LockOptions = {
    realpath: false,
    stale: CLAIM_STALE_MS,
    // The default throws from a timer, ending the run mid-write; a holder stalled past the stale time
    // has let another process in, and its own writes stay journaled under the journal's lock.
    onCompromised: () => {
      lost = true;
    },
  };
  const release = (await lockOrRefused(lockfile, holder, options)) ?? (await takeOverDead(lockfile, holder, options, planId));
  if (!release) throw await refusal(holder, planId);
  writeFileSync(holder, `${JSON.stringify({ run: runId, pid: process.pid, host: hostname() } satisfies Holder)}\n`);
  return async () => {
    if (lost) return;
    // Before the lock goes: the next holder writes its own name here.
    rmSync(holder, { force: true });
    await release();
  };
}

/** The lock, or undefined when another process holds it. */
async function lockOrRefused(lockfile: Lockfile, file: string, options: LockOptions): Promise<Release | undefined> {
  try {
    return await lockfile.lock(file, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

/**
 * Takes over a claim whose holder died on this machine, one process at a time: two processes that
 * both found it dead would otherwise each clear the lock, the second clearing the claim the first
 * had just made. Undefined when the holder lives, cannot be checked, or another process took it.
 */
async function takeOverDead(lockfile: Lockfile, holder: string, options: LockOptions, planId: string): Promise<Release | undefined> {
  const dead = await holderOf(holder);
  if (!dead || !diedHere(dead)) return undefined;
  const takeover = await lockTakeover(holder, `plan ${planId}`);
  if (!takeover) return undefined;
  try {
    // Read again under the takeover lock: a process that took over first has written its own name by now.
    const now = readHolder(holder);
    if (now?.run !== dead.run || now.pid !== dead.pid) return undefined;
    takeover.assertHeld();
    // The name first: until the next holder writes its own, no later takeover may read the dead one's and clear a live claim.
    rmSync(holder, { force: true });
    rmSync(`${holder}.lock`, { recursive: true, force: true });
    return await lockOrRefused(lockfile, holder, options);
  } finally {
    await takeover.release();
  }
}

function diedHere(holder: Holder): boolean {
  return holder.host === hostname() && !isRunning(holder.pid);
}

async function refusal(holder: string, planId: string): Promise<HandbookError> {
  const current = await holderOf(holder);
  const lapses = current && current.host === hostname() ? '' : `; a claim left by a killed process lapses after ${CLAIM_STALE_MS / 1000} s`;
  return new HandbookError('INVALID_INPUT', `plan ${planId} is already being applied by ${current ? `run ${current.run}` : 'another run'}`, `wait for it to end${lapses}`);
}

/** The claimed file's holder; two applies started together meet in the moment between the lock and the name written under it. */
async function holderOf(holder: string): Promise<Holder | undefined> {
  return readHolder(holder) ?? (await sleep(HOLDER_WRITE_MS), readHolder(holder));
}

/** None while its holder has yet to write it, or when it cannot be read. */
function readHolder(holder: string): Holder | undefined {
  return readJsonIfValid(holder, holderSchema);
}
