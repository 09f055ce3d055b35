import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventLog, resumeTask, runTask, type ChatProvider, type RunTaskOptions } from '../../src/index.js';
import { act, COMPLETE, copyOfTaskFixture, FIX_REDACT, FIXTURE_CHECK, READ_REDACT, runScripted, writeScript } from '../helpers/harness-run.js';

const TASK = { text: 'Mask API keys in captured tool output.', exitCriteria: { checks: [FIXTURE_CHECK] } };

function runFolders(repo: string): string[] {
  const runs = path.join(repo, '.handbook', 'runs');
  return existsSync(runs) ? readdirSync(runs).sort() : [];
}

describe('the run folder', () => {
  it('is made by a run that starts, and holds its record and events', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    expect(run.result.state).toBe('COMPLETE');
    expect(runFolders(run.repo)).toEqual([run.result.runId]);
    expect(readdirSync(path.dirname(run.result.eventLog))).toEqual(expect.arrayContaining(['run.json', 'events.jsonl']));
  });

  it('is never made for a run refused on its input: model spec, key, script, escalation model, policy, tool set, max tokens', async () => {
    const repo = copyOfTaskFixture();
    const script = `script:${writeScript([act(READ_REDACT)])}`;
    const noKeys = { providerOptions: { env: {} } };
    const refusals: Array<[Partial<RunTaskOptions>, RegExp]> = [
      [{ model: 'claude-x' }, /model spec "claude-x" names no provider/],
      [{ model: 'offline' }, /a task needs a model/],
      [{ model: 'anthropic:claude-x', ...noKeys }, /ANTHROPIC_API_KEY is not set/],
      [{ model: 'script:/no/such/script.json' }, /model script \/no\/such\/script\.json does not exist/],
      [{ model: script, escalate: 'openai:gpt-x', ...noKeys }, /OPENAI_API_KEY is not set/],
      [{ model: script, providerOptions: { maxAttempts: 0 } }, /provider option maxAttempts is not valid/],
      [{ model: script, policy: '/no/such/policy.json' }, /approval policy \/no\/such\/policy\.json does not exist/],
      [{ model: script, toolSet: 'reviewer' as never }, /unknown tool set "reviewer"/],
      [{ model: script, maxTokens: 1.5 }, /maxTokens must be a positive integer/],
      [{ model: script, task: { ...TASK, limits: { wallClockMs: 3_000_000_000 } } }, /the task is not valid at limits\.wallClockMs: at most 2147483647 ms/],
    ];
    for (const [options, message] of refusals) {
      await expect(runTask(repo, { task: TASK, model: script, ...options })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(message) });
      expect({ options, runs: runFolders(repo) }).toEqual({ options, runs: [] });
    }
  });

  it('is removed, and no other with it, when the run fails after the folder is made but before its first event', async () => {
    const repo = copyOfTaskFixture();
    const other = path.join(repo, '.handbook', 'runs', 'an-earlier-run');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'run.json'), '{}\n');
    // Stands in for any failure between the folder and the run's first event: the loop reads the id for run_started.
    const provider: ChatProvider = {
      get id(): string {
        throw new Error('no id');
      },
      complete: () => Promise.reject(new Error('never asked')),
    };
    await expect(runTask(repo, { task: TASK, model: 'test:broken', provider })).rejects.toThrow('no id');
    expect(runFolders(repo)).toEqual(['an-earlier-run']);
  });

  it('is kept when a run that started then throws, so it can be resumed', async () => {
    const repo = copyOfTaskFixture();
    const provider: ChatProvider = { id: 'test:crashing', complete: () => Promise.reject(new TypeError('a bug in the provider')) };
    await expect(runTask(repo, { task: TASK, model: `script:${writeScript([])}`, provider })).rejects.toThrow('a bug in the provider');
    const [runId] = runFolders(repo);
    expect(runId).toBeDefined();
    expect(readEventLog(path.join(repo, '.handbook', 'runs', runId!, 'events.jsonl'))[0]).toMatchObject({ type: 'run_started', runId });

    const resumed = await resumeTask(repo, runId!, { model: `script:${writeScript([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)])}` });
    expect(resumed).toMatchObject({ runId, state: 'COMPLETE' });
  });
});
