import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/harness/journal-entry.js';
import { workspaceJournalFiles } from '../../src/harness/journal-files.js';
import { Journal } from '../../src/harness/journal.js';
import { Workspace } from '../../src/harness/workspace.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

// The children run the built journal (dist), as the CLI and the harness will: run `npm run build` first.
const DIST = path.join(PROJECT_ROOT, 'dist');
const CHILD = path.join(PROJECT_ROOT, 'test', 'helpers', 'journal-child.mjs');
const VERSIONS = ['A'.repeat(100_000), 'B'.repeat(100_000)];
const NO_ENV = { env: {} };

/** A small seeded generator (mulberry32), so a failing kill schedule can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface Child {
  process: ChildProcess;
  /** Resolves once the child has printed `line` this many times. */
  printed(line: string, times: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function child(args: string[]): Child {
  const started = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  started.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => started.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  const count = (line: string) => stdout.split('\n').filter((printed) => printed === line).length;
  return {
    process: started,
    exited,
    printed: (line, times) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (count(line) >= times) resolve();
          else if (started.exitCode !== null || started.signalCode !== null) reject(new Error(`child exited before printing "${line}" ${times} times: ${stderr}`));
          else setTimeout(check, 2);
        };
        check();
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => {
  if (!existsSync(path.join(DIST, 'harness', 'journal.js'))) throw new Error('dist/harness/journal.js is missing: run `npm run build` first');
});

describe('journal: crash safety', () => {
  it('a writer killed at random points leaves the journal verifiable and every file fully old or fully new', async () => {
    const root = scratchDirectory('journal-crash-');
    const files = ['one.txt', 'two.txt', 'deep/three.txt'];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), VERSIONS[0]!);
    }
    const journal = Journal.open(root, NO_ENV);
    const random = seededRandom(20_260_427);
    let completedSteps = 0;
    // The kill point is counted in the writer's own steps, so it lands as often inside a step on a
    // slow machine as on a fast one: after 0-3 whole steps, then up to 25 ms into the next (the
    // first iteration's first step also makes the key and the first head).
    for (let iteration = 0; iteration < 30; iteration++) {
      const writer = child(['crash-loop', DIST, root, ...files]);
      const steps = Math.floor(random() * 4);
      await writer.printed('ready', 1);
      await writer.printed('step', steps);
      await sleep(Math.floor(random() * 25));
      writer.process.kill('SIGKILL');
      completedSteps += steps;
      const exit = await writer.exited;
      expect(exit, `iteration ${iteration}: the writer died by itself`).toMatchObject({ signal: 'SIGKILL' });

      // A killed holder's lock is taken over once it is 10 s old; age it rather than wait.
      const lock = path.join(journal.directory, 'lock');
      if (existsSync(lock)) utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

      const report = journal.verify();
      expect(report, `iteration ${iteration}`).toMatchObject({ ok: true });
      const entries = journal.entries();
      for (const file of files) {
        const content = readFileSync(path.join(root, file), 'utf8');
        expect(VERSIONS.includes(content), `iteration ${iteration}: ${file} holds ${content.length} bytes starting ${content[0]} ending ${content.at(-1)}`).toBe(true);
        // And it is one the journal knows: the last entry's after (the write was made) or its before (it was not).
        const last = entries.filter((entry) => entry.path === file).at(-1);
        if (last && last.before.exists && last.after.exists) expect([last.before.digest, last.after.digest]).toContain(sha256(Buffer.from(content)));
      }
    }
    // Killed writers' temporaries do not pile up beside the journal: each is overwritten by the next writer.
    expect(readdirSync(journal.directory).filter((name) => !['journal.jsonl', 'head.json', 'blobs', 'lock', '.partial'].includes(name))).toEqual([]);
    expect(readdirSync(path.join(journal.directory, 'blobs')).filter((name) => name !== '.partial' && !/^[0-9a-f]{64}$/.test(name))).toEqual([]);
    const entries = journal.entries();
    expect(entries.length).toBeGreaterThanOrEqual(completedSteps);

    // Every write, made or not, rolls back: the files end where they started.
    const rolledBack = await journal.rollback(entries.length, 'undo-all', workspaceJournalFiles(new Workspace(root)));
    expect(rolledBack.refused).toEqual([]);
    // Some kills fell between journaling a write and making it: the journal knew, and the rollback told them apart.
    expect(rolledBack.restored.some((entry) => entry.alreadyRestored)).toBe(true);
    for (const file of files) expect(readFileSync(path.join(root, file), 'utf8') === VERSIONS[0]).toBe(true);
    expect(journal.verify()).toMatchObject({ ok: true, entries: entries.length * 2 });
  }, 60_000);

  it('keeps the chain whole when two processes record at the same time', async () => {
    const root = scratchDirectory('journal-race-');
    const writers = ['left', 'right'].map((label) => child(['record', DIST, root, label, '25']));
    const exits = await Promise.all(writers.map((writer) => writer.exited));
    for (const exit of exits) expect(exit).toMatchObject({ code: 0, stderr: '' });
    const journal = Journal.open(root, NO_ENV);
    expect(journal.verify()).toEqual({ ok: true, entries: 50, unconfirmed: 0, tornTail: false });
    const runs = journal.entries().map((entry) => entry.runId);
    expect(runs.filter((run) => run === 'left')).toHaveLength(25);
    expect(runs.filter((run) => run === 'right')).toHaveLength(25);
  });
});
