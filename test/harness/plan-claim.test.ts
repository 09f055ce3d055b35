import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile, { type LockOptions } from 'proper-lockfile';
import { describe, expect, it, vi } from 'vitest';
import { claimPlan } from '../../src/api/plan-claim.js';
import { plansFolder } from '../../src/plan/plan-store.js';
import { scratchDirectory } from '../helpers/paths.js';

vi.mock('proper-lockfile', async (importOriginal) => {
  const actual = await importOriginal<{ default: typeof import('proper-lockfile') }>();
  return { default: { ...actual.default, lock: vi.fn(actual.default.lock) } };
});

const realLock = (await vi.importActual<{ default: typeof import('proper-lockfile') }>('proper-lockfile')).default.lock;

/**
 * Another process takes the takeover lock from its holder while the holder waits for the plan's
 * lock (as one that judged it abandoned does); the plan's lock is given once the holder has found out.
 */
function takeoverLockTakenMidway(): void {
  let takeoverLock = '';
  let found!: () => void;
  const foundOut = new Promise<void>((resolve) => (found = resolve));
  vi.mocked(lockfile.lock).mockImplementation(async (file: string, options: LockOptions = {}) => {
    if (file.endsWith('.takeover')) {
      takeoverLock = options.lockfilePath ?? `${file}.lock`;
      // proper-lockfile's own default when none is given: it throws.
      const onCompromised = options.onCompromised ?? ((error: Error) => {
        throw error;
      });
      return realLock(file, {
        ...options,
        onCompromised: (error) => {
          found();
          onCompromised(error);
        },
      });
    }
    if (takeoverLock) {
      fs.rmSync(takeoverLock, { recursive: true });
      fs.mkdirSync(takeoverLock);
      // Set apart from the holder's own time, which a lock made in the same clock tick could share.
      const taken = new Date(Date.now() - 60_000);
      fs.utimesSync(takeoverLock, taken, taken);
      await foundOut;
    }
    return realLock(file, options);
  });
}

describe("a plan's claim", () => {
  // proper-lockfile's default for a lock found taken throws from a timer: the holder crashed mid-takeover.
  it('left by a dead run is taken over by a holder whose takeover lock another process took meanwhile, which leaves that lock alone', async () => {
    const root = scratchDirectory();
    const holder = path.join(plansFolder(root), 'plan-1.run');
    fs.mkdirSync(`${holder}.lock`, { recursive: true });
    fs.writeFileSync(holder, JSON.stringify({ run: 'run-dead', pid: spawnSync(process.execPath, ['-e', '']).pid, host: hostname() }));
    takeoverLockTakenMidway();
    const release = await claimPlan(root, 'plan-1', 'run-1');
    expect(JSON.parse(fs.readFileSync(holder, 'utf8'))).toEqual({ run: 'run-1', pid: process.pid, host: hostname() });
    expect(fs.readdirSync(path.dirname(holder)).sort()).toEqual(['plan-1.run', 'plan-1.run.lock', 'plan-1.run.takeover']);
    await release();
  }, 30_000);
});
