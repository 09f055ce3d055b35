import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Journal, readEventLog } from '../../src/index.js';
import { act, call, copyOfTaskFixture, eventsOnceThere, FIX_REDACT, READ_REDACT, writeScript } from '../helpers/harness-run.js';
import { CLI, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli } from '../helpers/cli-run.js';
import { alive, deadWithin } from '../helpers/process-life.js';

const MIGRATE = call('run_command', { command: 'echo migrated >> effects.log' });
const NOTES = call('create_file', { path: 'notes.txt', content: 'masking notes\n' });

const handbook = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env });

describe('handbook resume', () => {
  it('continues a run killed mid-task without repeating a single completed effect', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    const first = writeScript([act(MIGRATE), act(NOTES), act(READ_REDACT), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Record the migration once, then mask API keys', '--check', 'node test/redact.test.mjs', '--model', `script:${first}`, '--policy', policy, '--quiet'], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGKILL');
    await exited;

    // A fresh model that remembers nothing starts the task over.
    const second = writeScript([act(MIGRATE), act(NOTES), act(READ_REDACT), act(FIX_REDACT), act(call('task_complete', { summary: 'done' }))]);
    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${second}`, '--policy', policy, '--json', '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, state: 'COMPLETE' });

    expect(readFileSync(path.join(repo, 'effects.log'), 'utf8')).toBe('migrated\n');
    expect(Journal.open(repo).entries().filter((entry) => entry.path === 'notes.txt')).toHaveLength(1);
    const events = readEventLog(path.join(repo, '.handbook', 'runs', runId, 'events.jsonl'));
    expect(events.filter((event) => event.type === 'tool_rejected').map((event) => event.type === 'tool_rejected' && event.rule)).toEqual(['already-done', 'already-done']);
    expect(events.find((event) => event.type === 'operation_reconciled')).toMatchObject({ tool: 'run_command', outcome: 'unknown' });
    expect(events.find((event) => event.type === 'run_resumed')).toMatchObject({ runId, stepsTaken: 4 });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));

    const again = handbook(['resume', runId, '--repo', repo, '--model', `script:${second}`]);
    expect([again.code, again.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: run .* already ended COMPLETE/)]);
  });

  it.runIf(existsSync('/proc/self/stat'))('kills the checks a killed run left running before it goes on', async () => {
    const repo = copyOfTaskFixture();
    // The check's shell becomes the sleep, so the pid it writes is its process group's.
    const check = 'echo $$ > check.pid; exec sleep 300';
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--check', check, '--model', `script:${writeScript([act(call('task_complete', { summary: 'done' }))])}`, '--quiet'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = await pidOnceWritten(path.join(repo, 'check.pid'));
    try {
      const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed'));
      child.kill('SIGKILL');
      await exited;
      expect(alive(pid)).toBe(true);
      const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${writeScript([act(call('task_blocked', { reason: 'stop here' }))])}`, '--json', '--quiet']);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, state: 'BLOCKED' });
      expect(await deadWithin(pid, 10_000)).toBe(true);
      expect(readdirSync(path.join(repo, '.handbook', 'runs', runId, 'process-groups'))).toEqual([]);
    } finally {
      killQuietly(-pid);
    }
  });

  it('judges must-change files against the start of the task, not the start of the resumed session', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    const first = writeScript([act(READ_REDACT), act(FIX_REDACT), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--must-change', 'src/redact.js', '--model', `script:${first}`, '--policy', policy, '--quiet'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGKILL');
    await exited;
    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${writeScript([act(call('task_complete', { summary: 'redact was fixed before the crash' }))])}`, '--json', '--quiet']);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ state: 'COMPLETE', changedFiles: ['src/redact.js'], criteria: [{ id: 'changed:src/redact.js', satisfied: true }] });
  });

  it('refuses a run whose logs are damaged, in one line', async () => {
    const repo = copyOfTaskFixture();
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${writeScript([act(READ_REDACT), act(call('run_command', { command: 'sleep 4' }))])}`, '--quiet'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_result'));
    child.kill('SIGKILL');
    await exited;
    const log = path.join(repo, '.handbook', 'runs', runId, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    writeFileSync(log, [lines[0], '{not json', ...lines.slice(1)].join('\n') + '\n');
    const result = handbook(['resume', runId, '--repo', repo, '--model', `script:${writeScript([act(READ_REDACT)])}`]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^handbook: run \S+ cannot be resumed: its logs are damaged \(.*line 2 is not JSON.*\) \(start the task again with `handbook run`\)$/);
  });

  it('a resume refused on its input keeps the interrupted run whole, so a later resume still continues it', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    const first = writeScript([act(READ_REDACT), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--check', 'node test/redact.test.mjs', '--model', `script:${first}`, '--policy', policy, '--quiet'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGKILL');
    await exited;
    const folder = path.join(repo, '.handbook', 'runs', runId);
    const files = readdirSync(folder).sort();
    const events = readFileSync(path.join(folder, 'events.jsonl'), 'utf8');

    const withoutKeys = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANTHROPIC_')));
    const refused = handbook(['resume', runId, '--repo', repo, '--model', 'anthropic:claude-x'], withoutKeys);
    expect([refused.code, refused.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: ANTHROPIC_API_KEY is not set/)]);
    const badPolicy = handbook(['resume', runId, '--repo', repo, '--model', `script:${writeScript([act(READ_REDACT)])}`, '--policy', '/no/such/policy.json']);
    expect([badPolicy.code, badPolicy.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: approval policy \/no\/such\/policy\.json does not exist/)]);
    expect(readdirSync(folder).sort()).toEqual(files);
    expect(readFileSync(path.join(folder, 'events.jsonl'), 'utf8')).toBe(events);

    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${writeScript([act(READ_REDACT), act(FIX_REDACT), act(call('task_complete', { summary: 'done' }))])}`, '--policy', policy, '--json', '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, state: 'COMPLETE' });
  });

  // Ctrl-C is how a person interrupts a run; a run stopped that way must be as resumable as one killed.
  it('continues a run stopped with Ctrl-C, and says how on stopping it', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    const first = writeScript([act(NOTES), act(READ_REDACT), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--check', 'node test/redact.test.mjs', '--model', `script:${first}`, '--policy', policy, '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGINT');
    expect(await exited).toBe(8);
    expect(stdout).toContain(`handbook resume ${runId}`);

    const second = writeScript([act(NOTES), act(READ_REDACT), act(FIX_REDACT), act(call('task_complete', { summary: 'done' }))]);
    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${second}`, '--policy', policy, '--json', '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, state: 'COMPLETE' });
    expect(Journal.open(repo).entries().filter((entry) => entry.path === 'notes.txt')).toHaveLength(1);
    const again = handbook(['resume', runId, '--repo', repo, '--model', `script:${second}`]);
    expect([again.code, again.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: run .* already ended COMPLETE/)]);
  });

  // Two processes on one run would each run what the other is running: a resume waits for the run to stop.
  it('refuses to resume a run that is still running in another process, and runs nothing twice', async () => {
    const repo = copyOfTaskFixture();
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    // The command holds the run until the test has tried to resume it (a minute at most): a fixed sleep let a slow machine finish the run first.
    const script = writeScript([act(call('run_command', { command: 'echo once >> effects.log; for i in $(seq 600); do [ -e release ] && break; sleep 0.1; done' })), act(call('task_blocked', { reason: 'stopped here' }))]);
    const child = spawn(process.execPath, [CLI, 'run', '--repo', repo, '--task', 'Mask API keys', '--check', 'node test/redact.test.mjs', '--model', `script:${script}`, '--policy', policy, '--quiet'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('release')));
    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${script}`, '--policy', policy, '--quiet']);
    writeFileSync(path.join(repo, 'release'), '');
    expect([resumed.code, resumed.stderr.trim()]).toEqual([2, expect.stringMatching(new RegExp(`^handbook: run ${runId} is still running \\(process \\d+\\) \\(wait for it to end`))]);
    expect(await exited).toBe(6);
    expect(readFileSync(path.join(repo, 'effects.log'), 'utf8')).toBe('once\n');
    expect(readdirSync(path.join(repo, '.handbook', 'runs', runId)).sort()).toEqual(['events.jsonl', 'memory.db', 'operations.jsonl', 'process-groups', 'run.json']);
  });

  // What a run killed between writing its record and logging its first event leaves: its record and its dead owner.
  function runStoppedBeforeItsFirstEvent(repo: string, runId: string): string {
    const folder = path.join(repo, '.handbook', 'runs', runId);
    mkdirSync(folder, { recursive: true });
    const task = { text: 'Mask API keys', exitCriteria: { checks: [{ name: 'test', command: 'node test/redact.test.mjs' }] } };
    writeFileSync(path.join(folder, 'run.json'), JSON.stringify({ task, model: 'script:/gone/script.json', toolMode: 'native', toolSet: 'executor' }));
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(path.join(folder, 'owner.json'), JSON.stringify({ pid: dead, host: hostname() }));
    return folder;
  }

  it('starts a run stopped before its first event from the beginning, saying so: it had done nothing', () => {
    const repo = copyOfTaskFixture();
    const folder = runStoppedBeforeItsFirstEvent(repo, '20260101-000000-aaaaaa');
    const resumed = handbook(['resume', '20260101-000000-aaaaaa', '--repo', repo, '--model', `script:${writeScript([act(READ_REDACT), act(FIX_REDACT), act(call('task_complete', { summary: 'done' }))])}`, '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId: '20260101-000000-aaaaaa', state: 'COMPLETE' });
    expect(resumed.stderr.split('\n')[0]).toMatch(/^ +run 20260101-000000-aaaaaa: script:\S+ \(native\) in \S+, started from the beginning: it was stopped before its first event, so it had done nothing$/);
    const events = readEventLog(path.join(folder, 'events.jsonl'));
    expect(events[0]).toMatchObject({ type: 'run_started', byResume: true });
    expect(events.filter((event) => event.type === 'run_resumed')).toEqual([]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  });

  // Each found the owner dead, cleared its claim and made its own, so both ran the run's calls.
  it('lets exactly one of two resumes started together take over a run whose owner died; the other is refused naming the run', async () => {
    const repo = copyOfTaskFixture();
    const runId = '20260101-000000-cccccc';
    runStoppedBeforeItsFirstEvent(repo, runId);
    const policy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
    // The winner holds the run until the loser has been answered (a minute at most), however slowly either starts.
    const script = writeScript([act(call('run_command', { command: 'echo once >> effects.log; for i in $(seq 600); do [ -e release ] && break; sleep 0.1; done' })), act(call('task_blocked', { reason: 'stopped here' }))]);
    const resumes = [0, 1].map(() => {
      const child = spawn(process.execPath, [CLI, 'resume', runId, '--repo', repo, '--model', `script:${script}`, '--policy', policy, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('close', (code) => resolve({ code, stderr })));
    });
    const first = await Promise.race(resumes);
    writeFileSync(path.join(repo, 'release'), '');
    const outcomes = await Promise.all(resumes);
    expect(first.code).toBe(2);
    expect(first.stderr.trim()).toMatch(new RegExp(`^handbook: run ${runId} (is still running \\(process \\d+\\)|was claimed by another process at the same moment) \\(wait for it to end`));
    expect(outcomes.map((outcome) => outcome.code).sort()).toEqual([2, 6]);
    expect(readFileSync(path.join(repo, 'effects.log'), 'utf8')).toBe('once\n');
  }, 120_000);

  it('refuses a run that recorded calls but no event as damaged, in one line', () => {
    const repo = copyOfTaskFixture();
    const folder = runStoppedBeforeItsFirstEvent(repo, '20260101-000000-bbbbbb');
    const started = { type: 'started', opId: 'op-1', callId: 'c1', tool: 'run_command', argumentsDigest: 'x', arguments: { command: 'echo hi' }, step: 1, session: 1 };
    writeFileSync(path.join(folder, 'operations.jsonl'), `${JSON.stringify(started)}\n`);
    const result = handbook(['resume', '20260101-000000-bbbbbb', '--repo', repo, '--model', `script:${writeScript([act(READ_REDACT)])}`]);
    expectOneLineError(result, 2, /^handbook: run 20260101-000000-bbbbbb cannot be resumed: its logs are damaged \(it recorded calls but no event\) \(start the task again with `handbook run`\)$/m);
    expect(existsSync(path.join(folder, 'events.jsonl'))).toBe(false);
  });

  it('refuses a run id that does not exist, in one line', () => {
    const result = handbook(['resume', 'no-such-run', '--repo', copyOfTaskFixture()]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^handbook: no run no-such-run in .*\(pass the id `handbook run` printed\)$/);
  });
});

async function pidOnceWritten(file: string): Promise<number> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const pid = existsSync(file) ? Number.parseInt(readFileSync(file, 'utf8'), 10) : Number.NaN;
    if (pid > 0) return pid;
    await sleep(50);
  }
  throw new Error(`${file} was never written`);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone: what the test wants.
  }
}
