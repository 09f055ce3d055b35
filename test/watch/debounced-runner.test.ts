import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DebouncedRunner } from '../../src/watch/debounced-runner.js';
import { ignoredUnder, isWatchedFile } from '../../src/watch/watched-paths.js';

/** A job that records each run and stays in progress until the test lets it finish. */
function gatedJob() {
  const runs: number[] = [];
  let active = 0;
  let overlapped = false;
  const gates: Array<() => void> = [];
  const started: Array<() => void> = [];
  const job = async (notices: number): Promise<void> => {
    runs.push(notices);
    active += 1;
    overlapped ||= active > 1;
    started.splice(0).forEach((wake) => wake());
    await new Promise<void>((resolve) => gates.push(resolve));
    active -= 1;
  };
  return {
    job,
    runs,
    overlapped: () => overlapped,
    nextStart: () => new Promise<void>((resolve) => started.push(resolve)),
    finish: () => gates.shift()!(),
  };
}

describe('DebouncedRunner', () => {
  it('runs for a wake as for a notice, and counts only the notices', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(20, gated.job);
    const start = gated.nextStart();
    runner.wake();
    runner.notify();
    runner.wake();
    runner.wake();
    await start;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([1]);

    const woken = gated.nextStart();
    runner.wake();
    await woken;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([1, 0]);
  });

  it('runs again after a retry delay asked for during a run, with no notice in between', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(20, gated.job);
    let start = gated.nextStart();
    runner.runNow();
    await start;
    runner.retryIn(30);
    start = gated.nextStart();
    gated.finish();
    await start;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([0, 0]);
    expect(gated.overlapped()).toBe(false);
  });

  it('runs once for a burst of notices', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(20, gated.job);
    const start = gated.nextStart();
    for (let index = 0; index < 500; index += 1) runner.notify();
    await start;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([500]);
  });

  it('runs exactly once more for notices that arrive during a run, never two at once', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(5, gated.job);
    const first = gated.nextStart();
    runner.notify();
    await first;
    const second = gated.nextStart();
    for (let index = 0; index < 3; index += 1) runner.notify();
    gated.finish();
    await second;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([1, 3]);
    expect(gated.overlapped()).toBe(false);
  });

  it('runs at once when asked, with no notice', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(60_000, gated.job);
    const start = gated.nextStart();
    runner.runNow();
    await start;
    gated.finish();
    await runner.idle();
    expect(gated.runs).toEqual([0]);
  });

  it('stops: drops what is owed and waits for the run in progress', async () => {
    const gated = gatedJob();
    const runner = new DebouncedRunner(5, gated.job);
    const start = gated.nextStart();
    runner.notify();
    await start;
    runner.notify();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    gated.finish();
    await stopping;
    runner.notify();
    await runner.idle();
    expect(gated.runs).toEqual([1]);
  });
});

describe('watched paths', () => {
  it('watches sources and compiler settings, not declarations, temporary or swap files', () => {
    for (const file of ['a.ts', 'a.tsx', 'a.mts', 'a.cts', 'a.js', 'a.jsx', 'a.mjs', 'a.cjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) expect(isWatchedFile(`/repo/src/${file}`), file).toBe(true);
    for (const file of ['a.d.ts', 'a.d.mts', 'a.ts.tmp', '.a.ts.swp', 'a.ts~', 'README.md', 'handbook.db', 'handbook.db-wal']) expect(isWatchedFile(`/repo/src/${file}`), file).toBe(false);
    // The overview quotes the root's README only.
    expect(isWatchedFile('/repo/README.md', '/repo')).toBe(true);
    expect(isWatchedFile('/repo/src/README.md', '/repo')).toBe(false);
  });

  it('descends into every folder but node_modules, .git and .handbook', () => {
    const ignored = ignoredUnder('/repo');
    const folder = { isFile: () => false } as Parameters<typeof ignored>[1];
    const file = { isFile: () => true } as Parameters<typeof ignored>[1];
    expect(ignored('/repo', folder)).toBe(false);
    expect(ignored(path.join('/repo', 'src', 'notes.txt'), folder)).toBe(false);
    expect(ignored(path.join('/repo', 'src', 'notes.txt'))).toBe(false);
    expect(ignored(path.join('/repo', 'src', 'notes.txt'), file)).toBe(true);
    expect(ignored(path.join('/repo', 'src', 'a.ts'), file)).toBe(false);
    for (const skipped of ['node_modules', '.git', '.handbook', 'packages/core/node_modules']) expect(ignored(path.join('/repo', skipped, 'a.ts')), skipped).toBe(true);
  });
});
