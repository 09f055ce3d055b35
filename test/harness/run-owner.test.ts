import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimRun } from '../../src/api/run-owner.js';
import { scratchDirectory } from '../helpers/paths.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, readFileSync: vi.fn(actual.readFileSync) };
});

const realReadFileSync = (await vi.importActual<typeof import('node:fs')>('node:fs')).readFileSync;

/** Runs `act` right after the first read of a claim, before the reader acts on what it read: the moment two claims meet. */
function atFirstClaimRead(act: () => void): void {
  let fired = false;
  vi.mocked(fs.readFileSync).mockImplementation(((file: fs.PathOrFileDescriptor, options?: never) => {
    const text = realReadFileSync(file, options);
    if (!fired && typeof file === 'string' && path.basename(file) === 'owner.json') {
      fired = true;
      act();
    }
    return text;
  }) as typeof fs.readFileSync);
}

/** A claim left by a process that has ended, so the next claim takes the run over. */
function deadOwnersClaim(folder: string): void {
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  fs.writeFileSync(path.join(folder, 'owner.json'), JSON.stringify({ pid: dead, host: hostname() }));
}

describe('the claim on a run', () => {
  afterEach(() => {
    vi.mocked(fs.readFileSync).mockImplementation(realReadFileSync);
    vi.restoreAllMocks();
  });

  // Each cleared the dead claim and made its own, the second clearing the first's, so both resumes ran the run.
  it('goes to exactly one of two claims that both find its owner dead; the other is refused naming the run', async () => {
    const folder = scratchDirectory();
    deadOwnersClaim(folder);
    const claim = (): Promise<unknown> => (async () => claimRun(folder, 'run-1'))();
    let rival: Promise<unknown> | undefined;
    atFirstClaimRead(() => {
      rival = claim();
    });
    const first = await Promise.allSettled([claim()]);
    const outcomes = [...first, ...(await Promise.allSettled([rival!]))];
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^run run-1 is still running \(process \d+\)$/) });
    expect(JSON.parse(realReadFileSync(path.join(folder, 'owner.json'), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    expect(fs.readdirSync(folder)).toEqual(['owner.json']);
  });

  // From the stale time on, another process may judge the takeover lock abandoned, take it and claim the run: overwriting its claim would let both run the run.
  it('is not taken over by a takeover that held its lock past the time another process may judge it abandoned', async () => {
    const folder = scratchDirectory();
    deadOwnersClaim(folder);
    const dead = realReadFileSync(path.join(folder, 'owner.json'), 'utf8');
    const now = Date.now.bind(Date);
    // The holder stalls (a loaded machine) between reading the dead claim and replacing it.
    atFirstClaimRead(() => vi.spyOn(Date, 'now').mockImplementation(() => now() + 60_000));
    await expect(claimRun(folder, 'run-1')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^gave up taking over run run-1, as another process may be taking it over too: it waited for and held its lock .*owner\.json\.takeover for \d+ ms/),
    });
    expect(realReadFileSync(path.join(folder, 'owner.json'), 'utf8')).toBe(dead);
    expect(fs.readdirSync(folder)).toEqual(['owner.json']);
  });

  // A holder slowed by a loaded machine stops refreshing its lock for a while; waiting past the stale time took its lock while it worked.
  it('waits for a takeover in progress and then is refused, leaving the takeover its lock', async () => {
    const folder = scratchDirectory();
    deadOwnersClaim(folder);
    fs.mkdirSync(path.join(folder, 'owner.json.takeover'));
    await expect(claimRun(folder, 'run-1')).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'run run-1 was claimed by another process at the same moment' });
    expect(fs.readdirSync(folder).sort()).toEqual(['owner.json', 'owner.json.takeover']);
  }, 20_000);

  // Each claim cut off between writing its own file and linking or removing it left one more in the run folder.
  it("removes the files of claims whose writers died on this machine, and no other's", async () => {
    const folder = scratchDirectory();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const left = `owner.json.${dead}.${hostname()}.${randomUUID()}`;
    const beingLinked = `owner.json.${process.pid}.${hostname()}.${randomUUID()}`;
    const otherMachines = `owner.json.${dead}.elsewhere.example.${randomUUID()}`;
    for (const name of [left, beingLinked, otherMachines]) fs.writeFileSync(path.join(folder, name), '');
    const release = await claimRun(folder, 'run-1');
    expect(fs.readdirSync(folder).sort()).toEqual([beingLinked, otherMachines, 'owner.json'].sort());
    release();
  });

  // Earlier versions named the file for no writer (owner.json.<id>), so those left by a kill were never removed; the claim inside names its writer.
  it("removes an earlier version's claim files whose writers died on this machine, and no other's", async () => {
    const folder = scratchDirectory();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const earlierClaim = (text: string): string => {
      const name = `owner.json.${randomUUID()}`;
      fs.writeFileSync(path.join(folder, name), text);
      return name;
    };
    earlierClaim(JSON.stringify({ pid: dead, host: hostname() }));
    const beingLinked = earlierClaim(JSON.stringify({ pid: process.pid, host: hostname() }));
    const otherMachines = earlierClaim(JSON.stringify({ pid: dead, host: 'elsewhere.example' }));
    const beingWritten = earlierClaim('');
    const release = await claimRun(folder, 'run-1');
    expect(fs.readdirSync(folder).sort()).toEqual([beingLinked, otherMachines, beingWritten, 'owner.json'].sort());
    release();
  });
});
