import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readEventLog, type HarnessEvent } from '../../src/index.js';
import { act, call, writeScript } from '../helpers/harness-run.js';
import { CLI, PROJECT_ROOT } from '../helpers/paths.js';
import { expectOneLineError, runCli, type CliResult } from '../helpers/cli-run.js';
import { plannedRepository } from '../helpers/planned-repository.js';

const handbook = (args: string[]) => runCli(args);
const APPLY_SCRIPT = `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`;

/** A scripted model that sleeps in a tool call, long enough for a test to act on the run meanwhile. */
function sleepingScript(seconds: number): string {
  return `script:${writeScript([act(call('run_command', { command: `sleep ${seconds}` })), act(call('task_blocked', { reason: 'stopped here' }))])}`;
}

function start(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<CliResult>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, ended };
}

/** Waits for a run not in `known` to log, in its latest session, that it is sleeping; returns its id. */
async function sleepingRun(repo: string, known: readonly string[]): Promise<string> {
  const runs = path.join(repo, '.handbook', 'runs');
  const sleeping = (events: HarnessEvent[]) =>
    events
      .slice(events.findLastIndex((event) => event.type === 'run_started' || event.type === 'run_resumed'))
      .some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep'))
      && events.at(-1)?.type !== 'run_finished';
  for (let waited = 0; waited < 30_000; waited += 50) {
    for (const runId of existsSync(runs) ? readdirSync(runs) : []) {
      const log = path.join(runs, runId, 'events.jsonl');
      if (!known.includes(runId) && existsSync(log) && sleeping(readEventLog(log))) return runId;
    }
    await sleep(50);
  }
  throw new Error('no new run got to its sleep');
}

describe("a plan's claim", () => {
  // Both would edit the plan's files and both would write an acceptance record, as two applies did.
  it('is taken by a resumed apply: a resume beside a new apply of its plan is refused, and a new apply beside a resume', async () => {
    const { repo, plan, policy } = await plannedRepository();
    const first = start(['apply', plan, '--repo', repo, '--model', sleepingScript(30), '--policy', policy, '--yes', '--quiet']);
    const interrupted = await sleepingRun(repo, []);
    first.child.kill('SIGINT');
    expect((await first.ended).code).toBe(8);

    const second = start(['apply', plan, '--repo', repo, '--model', sleepingScript(30), '--policy', policy, '--yes', '--quiet']);
    const applying = await sleepingRun(repo, [interrupted]);
    const refused = handbook(['resume', interrupted, '--repo', repo, '--model', APPLY_SCRIPT, '--quiet']);
    expectOneLineError(refused, 2, new RegExp(`^handbook: plan ${plan} is already being applied by run ${applying} \\(wait for it to end`));
    second.child.kill('SIGINT');
    expect((await second.ended).code).toBe(8);

    const resumed = start(['resume', interrupted, '--repo', repo, '--model', sleepingScript(30), '--policy', policy, '--quiet']);
    await sleepingRun(repo, [applying]);
    const beside = handbook(['apply', plan, '--repo', repo, '--model', APPLY_SCRIPT, '--yes', '--quiet']);
    expectOneLineError(beside, 2, new RegExp(`^handbook: plan ${plan} is already being applied by run ${interrupted} \\(wait for it to end`));
    resumed.child.kill('SIGINT');
    expect((await resumed.ended).code).toBe(8);
  }, 90_000);

  // A SIGKILLed apply cannot release its claim; its process is gone, which is all a new apply needs to know.
  it('left by a killed apply is taken over at once, by one of two applies started together', async () => {
    const { repo, plan, policy } = await plannedRepository();
    const killed = start(['apply', plan, '--repo', repo, '--model', sleepingScript(30), '--policy', policy, '--yes', '--quiet']);
    const killedRun = await sleepingRun(repo, []);
    killed.child.kill('SIGKILL');
    await killed.ended;

    const apply = () => start(['apply', plan, '--repo', repo, '--model', APPLY_SCRIPT, '--yes', '--json', '--quiet']).ended;
    const results = await Promise.all([apply(), apply()]);
    const [applied, refused] = results[0]!.code === 0 ? results : [results[1]!, results[0]!];
    expect([applied!.code, applied!.stderr]).toEqual([0, '']);
    const run = JSON.parse(applied!.stdout) as { runId: string; state: string };
    expect(run.state).toBe('COMPLETE');
    expectOneLineError(refused!, 2, new RegExp(`^handbook: plan ${plan} is already being applied by run ${run.runId} \\(wait for it to end\\)\\n$`));
    expect(readdirSync(path.join(repo, '.handbook', 'acceptance'))).toEqual([`${run.runId}.json`]);
    expect(run.runId).not.toBe(killedRun);
  }, 90_000);
});
