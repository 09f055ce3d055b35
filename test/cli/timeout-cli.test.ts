import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sseEvent } from '../llm/fake-anthropic-server.js';
import { startFakeServer } from '../llm/fake-http-server.js';
import { chunk, dataLine } from '../llm/fake-openai-server.js';
import { copyOfTaskFixture } from '../helpers/harness-run.js';
import { CLI, PROJECT_ROOT } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync, type CliResult } from '../helpers/cli-run.js';

/** Tries per request, the first included, and the waits between them (1, 2 and 4 s): the retry policy's defaults. */
const ATTEMPTS = 4;
const BACKOFF_S = 1 + 2 + 4;
const APPLY_SCRIPT = `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`;
/** Starting the CLI and its work besides the model, on a loaded machine. */
const SLACK_S = 15;

/** The CLI run to its end without blocking this process, which serves the hung model meanwhile. */
function handbook(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult & { seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A CLI that hangs outlives the failed test otherwise.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 })));
}

/** A model server that takes every request and never answers it. */
const hungServer = (path: string) => startFakeServer({ method: 'POST', path }, [{ kind: 'hang' }]);
/** A model server that starts every answer's stream with one event, then sends nothing more and keeps the connection open. */
const stalledServer = (path: string, firstEvent: string) => startFakeServer({ method: 'POST', path }, [{ kind: 'stall', frames: [firstEvent] }]);

describe('--timeout', () => {
  // One concurrent test a command: one after another, their CLI starts added up to most of a test's minute under load.
  const withModel: Array<[string[], string]> = [[['build', '.'], '0'], [['ask', 'x'], '-1'], [['run', '--task', 'x', '--model', 'openai:gpt-x'], 'soon'], [['plan', 'x'], '1e3'], [['apply', 'plan-x', '--model', 'openai:gpt-x'], ''], [['resume', 'run-x'], '86401']];
  it.concurrent.for(withModel)('is refused in one line on every command that takes --model when it is not a number of seconds above 0: %s', async ([command, value]) => {
    expectOneLineError(await runCliAsync([...command, '--timeout', value]), 2, /^handbook: invalid option --timeout: a number of seconds above 0, at most 86400 /);
  });

  // They take no --model, but stage again with the model the handbook was built with.
  const withoutModel: Array<[string[], string]> = [[['sync', '.'], '0'], [['watch', '.'], 'soon'], [['serve'], '1e3'], [['mcp'], '86401']];
  it.concurrent.for(withoutModel)('is refused in one line on sync, watch, serve and mcp when it is not a number of seconds above 0: %s', async ([command, value]) => {
    expectOneLineError(await runCliAsync([...command, '--timeout', value]), 2, /^handbook: invalid option --timeout: a number of seconds above 0, at most 86400 /);
  });

  it("bounds a sync of a handbook built with a model on a hung server, which stages the change offline", async () => {
    const server = await hungServer('/v1/chat/completions');
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` };
    const repo = copyOfTaskFixture();
    expect((await handbook(['build', repo, '--model', 'openai:gpt-x', '--timeout', '1', '--no-progress'], env)).code).toBe(0);
    const asked = server.requests.length;
    appendFileSync(path.join(repo, 'src', 'redact.js'), '\nexport function unmask(text) {\n  return text;\n}\n');
    const result = await handbook(['sync', repo, '--timeout', '1', '--no-progress'], env);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/modified +src\/redact\.js/);
    expect(server.requests.length - asked).toBe(ATTEMPTS);
  }, 120_000);

  it("bounds the re-sync after an apply of a handbook built with a model on a hung server", async () => {
    const server = await hungServer('/v1/chat/completions');
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` };
    const repo = copyOfTaskFixture();
    expect((await handbook(['build', repo, '--model', 'openai:gpt-x', '--timeout', '1', '--no-progress'], env)).code).toBe(0);
    const plan = JSON.parse((await handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--json'], env)).stdout) as { id: string; status: string };
    expect(plan.status).toBe('accepted');
    const asked = server.requests.length;
    const result = await handbook(['apply', plan.id, '--repo', repo, '--model', APPLY_SCRIPT, '--timeout', '1', '--yes', '--quiet', '--json'], env);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'COMPLETE', sync: { upToDate: false } });
    expect(server.requests.length - asked).toBe(ATTEMPTS);
  }, 180_000);

  // The SDKs' own default is 10 minutes a request, tried 4 times: a hung server held a run for 40 minutes before it failed.
  it('bounds a run on a hung OpenAI-compatible server to about the timeout per attempt, then fails it saying why', async () => {
    const server = await hungServer('/v1/chat/completions');
    const result = await handbook(['run', '--repo', copyOfTaskFixture(), '--task', 'x', '--check', 'true', '--model', `openai-compatible:m@${server.url}/v1`, '--timeout', '1', '--quiet']);
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/^FAILED: openai-compatible:m@\S+: the provider did not answer in time \(gave up after 4 attempts\)\n/);
    expect(server.requests).toHaveLength(ATTEMPTS);
    expect(result.seconds).toBeLessThan(ATTEMPTS * 1 + BACKOFF_S + SLACK_S);
  }, 60_000);

  it("bounds a build's stager on a hung OpenAI server: after one request's attempts the outage stop asks no more", async () => {
    const server = await hungServer('/v1/chat/completions');
    const result = await handbook(['build', copyOfTaskFixture(), '--model', 'openai:gpt-x', '--timeout', '1', '--no-progress'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` });
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/model +1 calls to openai:gpt-x; .* left to the offline stager/);
    expect(server.requests).toHaveLength(ATTEMPTS);
    expect(result.seconds).toBeLessThan(ATTEMPTS * 1 + BACKOFF_S + SLACK_S);
  }, 60_000);

  it('bounds an ask on a hung Anthropic server, which falls back to the offline answer saying why', async () => {
    const repo = copyOfTaskFixture();
    expect(runCli(['build', repo, '--no-progress']).code).toBe(0);
    const server = await hungServer('/v1/messages');
    const result = await handbook(['ask', 'where are secrets masked?', '--repo', repo, '--model', 'anthropic:claude-x', '--timeout', '1', '--json'], { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toMatchObject({ router: 'offline', note: expect.stringMatching(/did not answer in time \(gave up after 4 attempts\)/) });
    expect(server.requests).toHaveLength(ATTEMPTS);
    expect(result.seconds).toBeLessThan(ATTEMPTS * 1 + BACKOFF_S + SLACK_S);
  }, 60_000);

  // The SDKs' timeout ends when the headers arrive: a stream that stalled after its first event held the run until the server hung up.
  it('bounds a run on an OpenAI-compatible server whose stream stalls after its first event, then fails it saying why', async () => {
    const server = await stalledServer('/v1/chat/completions', dataLine(chunk({ role: 'assistant', content: 'Hel' })));
    const result = await handbook(['run', '--repo', copyOfTaskFixture(), '--task', 'x', '--check', 'true', '--model', `openai-compatible:m@${server.url}/v1`, '--timeout', '1', '--quiet']);
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/^FAILED: openai-compatible:m@\S+: the provider did not answer in time \(gave up after 4 attempts\)\n/);
    expect(server.requests).toHaveLength(ATTEMPTS);
  }, 120_000);

  it('bounds a run on an Anthropic server whose stream stalls after its first event, then fails it saying why', async () => {
    const firstEvent = sseEvent('message_start', { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 25, output_tokens: 1 } } });
    const server = await stalledServer('/v1/messages', firstEvent);
    const result = await handbook(['run', '--repo', copyOfTaskFixture(), '--task', 'x', '--check', 'true', '--model', 'anthropic:claude-x', '--timeout', '1', '--quiet'], { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/^FAILED: anthropic:claude-x: the provider did not answer in time \(gave up after 4 attempts\)\n/);
    expect(server.requests).toHaveLength(ATTEMPTS);
  }, 120_000);
});
