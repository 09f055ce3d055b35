import { spawnSync } from 'node:child_process';
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

/** Runs `rival` right after the first read of a claim, before the reader acts on what it read: the moment two claims meet. */
function rivalAfterFirstClaimRead(rival: () => void): void {
  let fired = false;
  vi.mocked(fs.readFileSync).mockImplementation(((file: fs.PathOrFileDescriptor, options?: never) => {
    const text = realReadFileSync(file, options);
    if (!fired && typeof file === 'string' && path.basename(file) === 'owner.json') {
      fired = true;
      rival();
    }
    return text;
  }) as typeof fs.readFileSync);
}

describe('the claim on a run', () => {
  afterEach(() => vi.mocked(fs.readFileSync).mockImplementation(realReadFileSync));

  // Each cleared the dead claim and made its own, the second clearing the first's, so both resumes ran the run.
  it('goes to exactly one of two claims that both find its owner dead; the other is refused naming the run', async () => {
    const folder = scratchDirectory();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(folder, 'owner.json'), JSON.stringify({ pid: dead, host: hostname() }));
    const claim = (): Promise<unknown> => (async () => claimRun(folder, 'run-1'))();
    let rival: Promise<unknown> | undefined;
    rivalAfterFirstClaimRead(() => {
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
});
