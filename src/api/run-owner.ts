import { randomUUID } from 'node:crypto';
import { linkSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { readJsonIfValid } from '../text/read-json-input.js';
import { isRunning } from './process-running.js';
import { lockTakeover } from './takeover-lock.js';

const OWNER_FILE = 'owner.json';
const UUID = '[\\da-f]{8}-[\\da-f]{4}-[\\da-f]{4}-[\\da-f]{4}-[\\da-f]{12}';
/** writeClaim's files: the owner file's name, then the writer's process, machine and a random id. */
const WRITTEN_CLAIM = new RegExp(`^owner\\.json\\.(\\d+)\\.(.*)\\.${UUID}$`);
/** The files of earlier versions' writeClaim, named for no writer: the owner file's name and a random id. */
const UNNAMED_CLAIM = new RegExp(`^owner\\.json\\.${UUID}$`);
const ownerSchema = z.object({ pid: z.number().int().positive(), host: z.string() });
type Owner = z.output<typeof ownerSchema>;

/**
 * Claims a run folder for this process while it runs the run, so that `resume` refuses a run
 * still going in another process: two loops on one run would each run the calls the other is
 * running. The claim names a process, not a time: a run killed a moment ago (SIGKILL, a crash)
 * leaves a claim whose process is gone, which the next claim takes over at once. Returns the release.
 */
export async function claimRun(folder: string, runId: string): Promise<() => void> {
  const file = path.join(folder, OWNER_FILE);
  removeDeadWritersClaims(file);
  if (createClaim(file)) return releaseOf(file);
  // Two resumes that both found the owner dead each cleared the claim and made their own, the
  // second clearing the first's, so both ran the run: a takeover happens one process at a time.
  const takeover = await lockTakeover(file, `run ${runId}`);
  if (!takeover) throw claimedMeanwhile(runId);
  try {
    // The owner may have ended and released the run while this process waited for the lock.
    if (createClaim(file)) return releaseOf(file);
    // Read under the lock: a process that took over first has put its own claim here by now.
    const owner = ownerOf(file);
    if (owner && owner.host === hostname() && isRunning(owner.pid)) {
      throw new HandbookError('INVALID_INPUT', `run ${runId} is still running (process ${owner.pid})`, 'wait for it to end, or stop it with Ctrl-C, then resume it');
    }
    takeover.assertHeld();
    // In one step: a new claim made while the dead one was gone would be overwritten unseen.
    renameSync(writeClaim(file), file);
    return releaseOf(file);
  } finally {
    await takeover.release();
  }
}

/**
 * This process's claim in a file of its own, written whole, so that no reader ever finds a claim
 * half-written. Named for its writer: one that a process killed before it linked or removed it left
 * behind is then told from one being linked now.
 */
function writeClaim(file: string): string {
  const written = `${file}.${process.pid}.${hostname()}.${randomUUID()}`;
  writeFileSync(written, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner), { flag: 'wx' });
  return written;
}

/** Makes this process's claim unless there is one already. */
function createClaim(file: string): boolean {
  const written = writeClaim(file);
  try {
    linkSync(written, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(written, { force: true });
  }
}

/** Each claim cut off by a kill between writing its file and linking or removing it would leave one more file in the run folder. */
function removeDeadWritersClaims(file: string): void {
  const folder = path.dirname(file);
  for (const name of readdirSync(folder)) {
    const writer = writerOf(folder, name);
    // Only the dead: a live claimer links or removes its own, and another machine's processes cannot be checked from here.
    if (writer && writer.host === hostname() && !isRunning(writer.pid)) rmSync(path.join(folder, name), { force: true });
  }
}

/** The writer of a claim's own file, when `name` is one (writeClaim's, or an earlier version's). */
function writerOf(folder: string, name: string): Owner | undefined {
  const match = WRITTEN_CLAIM.exec(name);
  if (match) return { pid: Number(match[1]), host: match[2]! };
  // Such a file holds its writer's claim, which names it: judged by it, an earlier version's is removed on the
  // same evidence as this one's. One a kill cut off as it was written names no one and stays: its writer may be writing it now.
  return UNNAMED_CLAIM.test(name) ? readJsonIfValid(path.join(folder, name), ownerSchema) : undefined;
}

function releaseOf(file: string): () => void {
  let released = false;
  // Once only: a second call must not remove a claim another process made since.
  return () => {
    if (!released) rmSync(file, { force: true });
    released = true;
  };
}

function claimedMeanwhile(runId: string): HandbookError {
  return new HandbookError('INVALID_INPUT', `run ${runId} was claimed by another process at the same moment`, 'wait for it to end, then resume it');
}

/** Who claims the run; a claim that cannot be read (one a crash cut off as it was written) is no one's. */
function ownerOf(file: string): Owner | undefined {
  return readJsonIfValid(file, ownerSchema);
}
