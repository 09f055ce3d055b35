import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHandbook, readEventLog } from '../../src/index.js';
import { act, call, copyOfTaskFixture, eventsOnceThere, writeScript } from '../helpers/harness-run.js';
import { CLI, scratchDirectory } from '../helpers/paths.js';
import { syntheticRepository } from '../helpers/synthetic-repo.js';
import { runCli } from '../helpers/cli-run.js';

const LONG = 180_000;

const handbook = (args: string[]) => runCli(args, { timeout: LONG });

/** A build of `repo`, and how long it took: what the interrupted command is timed against. */
function timedBuild(repo: string): number {
  const started = performance.now();
  expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  return performance.now() - started;
}

/** Runs the CLI and sends `signal` after `delayMs`; the exit status is the shell's, 128 + the signal for a process it ended. */
function interrupted(args: string[], signal: NodeJS.Signals, delayMs: number): Promise<{ status: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill(signal), delayMs);
  return new Promise((resolve) =>
    child.on('close', (code, ended) => {
      clearTimeout(timer);
      resolve({ status: code ?? 128 + constants.signals[ended!], stdout, stderr });
    }),
  );
}

// The repository takes seconds to analyze; the signal goes a third of the way into a command
// timed against a build just before: past loading the CLI, long before anything is stored.
describe('stopping build and sync', () => {
  it('ends a build on SIGTERM with 143, reporting nothing, and keeps the previous handbook', async () => {
    const repo = syntheticRepository(200, 20);
    const buildMs = timedBuild(repo);
    const result = await interrupted(['build', repo, '--no-progress'], 'SIGTERM', buildMs / 3);
    expect(result).toEqual({ status: 143, stdout: '', stderr: '' });
    expect(openHandbook(repo).summary.generation).toBe(1);
    expect(handbook(['status', repo]).code).toBe(0);
  }, LONG);

  it('ends a sync on SIGINT with 130, reporting nothing, and the next sync stores the change', async () => {
    const repo = syntheticRepository(200, 20);
    const buildMs = timedBuild(repo);
    // Every file changed: the sync re-analyzes them all, which takes longer than the build.
    for (const file of readdirSync(path.join(repo, 'src'))) {
      const target = path.join(repo, 'src', file);
      writeFileSync(target, `${readFileSync(target, 'utf8')}export const edited = 1;\n`);
    }
    const result = await interrupted(['sync', repo, '--no-progress'], 'SIGINT', buildMs / 3);
    expect(result).toEqual({ status: 130, stdout: '', stderr: '' });
    // A sync updates the generation in place: the handbook still reads, and is stale.
    expect(openHandbook(repo).summary.files).toBe(200);
    expect(handbook(['status', repo]).code).toBe(5);
    expect(handbook(['sync', repo, '--no-progress']).code).toBe(0);
    expect(handbook(['status', repo]).code).toBe(0);
  }, LONG);
});

describe('stopping a run', () => {
  // The journal's lock library installs its own signal handlers as it loads, at the first write;
  // Ctrl-C after that must still stop the run cleanly, with its result, not end the process.
  it('stops a run on SIGINT after it has written a file: the result, the stopped state and exit 8', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    const script = writeScript([act(call('create_file', { path: 'notes.txt', content: 'notes\n' })), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--check', 'node test/redact.test.mjs', '--model', `script:${script}`, '--policy', policy, '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGINT');
    expect(await exited).toBe(8);
    expect(stdout).toMatch(/^FAILED: the run was stopped/);
    expect(readEventLog(path.join(repo, '.handbook', 'runs', runId, 'events.jsonl')).at(-1)).toMatchObject({ type: 'run_finished', state: 'FAILED', reason: { kind: 'aborted' } });
  }, LONG);
});
