import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { isRunning } from './process-running.js';

const OWNER_FILE = 'owner.json';
const ownerSchema = z.object({ pid: z.number().int().positive(), host: z.string() });

/**
 * Claims a run folder for this process while it runs the run, so that `resume` refuses a run
 * still going in another process: two loops on one run would each run the calls the other is
 * running. The claim names a process, not a time: a run killed a moment ago (SIGKILL, a crash)
 * leaves a claim whose process is gone, which the next claim takes over at once. Returns the release.
 */
export function claimRun(folder: string, runId: string): () => void {
  const file = path.join(folder, OWNER_FILE);
  // Twice at most: once to find a dead process's claim and clear it, once to make ours.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, host: hostname() }), { flag: 'wx' });
      let released = false;
      // Once only: a second call must not remove a claim another process made since.
      return () => {
        if (!released) rmSync(file, { force: true });
        released = true;
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = ownerOf(file);
    if (owner && owner.host === hostname() && isRunning(owner.pid)) {
      throw new HandbookError('INVALID_INPUT', `run ${runId} is still running (process ${owner.pid})`, 'wait for it to end, or stop it with Ctrl-C, then resume it');
    }
    rmSync(file, { force: true });
  }
  throw new HandbookError('INVALID_INPUT', `run ${runId} was claimed by another process at the same moment`, 'wait for it to end, then resume it');
}

/** Who claims the run; a claim that cannot be read (cut off as it was written) is no one's. */
function ownerOf(file: string): z.output<typeof ownerSchema> | undefined {
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
