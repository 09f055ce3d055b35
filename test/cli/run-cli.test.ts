import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { act, call, copyOfTaskFixture, FIX_REDACT, READ_REDACT, writeScript } from '../helpers/harness-run.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync } from '../helpers/cli-run.js';

const handbook = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env });

/** The run folders a repository holds. */
function runFolders(repo: string): string[] {
  const runs = path.join(repo, '.handbook', 'runs');
  return existsSync(runs) ? readdirSync(runs) : [];
}

const WITHOUT_KEYS = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANTHROPIC_') && !name.startsWith('OPENAI_')));

function runArgs(repo: string, script: string, extra: string[] = []): string[] {
  return ['run', '--repo', repo, '--task', 'Mask API keys in captured tool output', '--check', 'node test/redact.test.mjs', '--model', `script:${script}`, ...extra];
}

describe('handbook run', () => {
  it('runs the README script on the task fixture: COMPLETE, exit 0, a live line per event on stderr', () => {
    const repo = copyOfTaskFixture();
    const result = handbook(runArgs(repo, path.join(PROJECT_ROOT, 'fixtures/scripts/fix-redact.json')));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^COMPLETE: every exit criterion passed/);
    expect(result.stdout).toMatch(/✓ check node-test-redact\.test\.mjs/);
    const log = result.stdout.match(/events\s+(\S+)/)![1]!;
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(result.stderr.trim().split('\n')).toHaveLength(lines.length);
    expect(result.stderr).toMatch(/completion rejected: check node-test-redact\.test\.mjs/);
    expect(readFileSync(path.join(repo, 'src/redact.js'), 'utf8')).toContain("'sk-***'");
    expect(runFolders(repo)).toEqual([path.basename(path.dirname(log))]);
    expect(existsSync(path.join(path.dirname(log), 'run.json'))).toBe(true);
  });

  it('prints the result as JSON with --json and exits by the final state: 6 blocked, 7 needs input, 8 failed', () => {
    const repo = copyOfTaskFixture();
    const complete = handbook(runArgs(repo, writeScript([act(READ_REDACT), act(FIX_REDACT), act(call('task_complete', { summary: 'fixed' }))]), ['--json', '--quiet']));
    expect(complete.code).toBe(0);
    expect(complete.stderr).toBe('');
    expect(JSON.parse(complete.stdout)).toMatchObject({ state: 'COMPLETE', changedFiles: ['src/redact.js'], criteria: [{ id: 'check:node-test-redact.test.mjs', satisfied: true }] });

    const blocked = handbook(runArgs(copyOfTaskFixture(), writeScript([act(call('task_blocked', { reason: 'no idea' }))]), ['--json', '--quiet']));
    expect([blocked.code, JSON.parse(blocked.stdout).state]).toEqual([6, 'BLOCKED']);
    const asked = handbook(runArgs(copyOfTaskFixture(), writeScript([act(call('need_input', { question: 'which keys?' }))]), ['--json', '--quiet']));
    expect([asked.code, JSON.parse(asked.stdout).state]).toEqual([7, 'NEEDS_INPUT']);
    const failed = handbook(runArgs(copyOfTaskFixture(), writeScript([act(READ_REDACT)]), ['--json', '--quiet']));
    expect([failed.code, JSON.parse(failed.stdout).reason.detail]).toEqual([8, expect.stringContaining('script exhausted')]);
  });

  describe('answers bad input with one line, no stack trace, exit 2, and leaves no run folder behind', () => {
    // Every case runs the real CLI on a repository of its own, a few at a time (vitest's
    // maxConcurrency): one after another, eighteen Node starts took most of a minute under load.
    let files: { script: string; badScript: string; misspelledPolicy: string };
    beforeAll(() => {
      const misspelledPolicy = path.join(scratchDirectory(), 'policy.json');
      writeFileSync(misspelledPolicy, JSON.stringify({ tools: { run_comand: 'auto' } }));
      const badScript = path.join(scratchDirectory(), 'bad.json');
      writeFileSync(badScript, JSON.stringify({ turns: [{ tool_calls: [{ arguments: {} }] }] }));
      files = { script: writeScript([act(READ_REDACT)]), badScript, misspelledPolicy };
    });
    type Inputs = typeof files & { repo: string };
    const cases: Array<{ refusal: string; args: (inputs: Inputs) => string[]; pattern: RegExp; env?: NodeJS.ProcessEnv }> = [
      { refusal: 'no exit criteria', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--model', `script:${script}`], pattern: /no exit criteria/ },
      { refusal: 'offline model', args: ({ repo }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'offline'], pattern: /a task needs a model/ },
      { refusal: 'missing model script', args: ({ repo }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'script:/no/such/script.json'], pattern: /model script \/no\/such\/script\.json does not exist/ },
      { refusal: 'invalid model script', args: ({ repo, badScript }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${badScript}`], pattern: /is not valid at turns\.0/ },
      { refusal: 'unknown --tool-mode', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--tool-mode', 'xml'], pattern: /invalid option --tool-mode/ },
      { refusal: '--must-change outside the repository', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--must-change', '../elsewhere.js', '--model', `script:${script}`], pattern: /\.\.\/elsewhere\.js must change, but no tool may write it: .* is outside the repository/ },
      { refusal: '--must-change outside the scope', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--must-change', 'README.md', '--scope', 'src/**', '--model', `script:${script}`], pattern: /README\.md must change, but no tool may write it: .* outside the task's scope/ },
      { refusal: '--max-steps 0', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--max-steps', '0'], pattern: /invalid option --max-steps/ },
      { refusal: 'missing repository', args: ({ repo, script }) => ['run', '--repo', path.join(repo, 'nope'), '--task', 'x', '--check', 'true', '--model', `script:${script}`], pattern: /repository not found/ },
      { refusal: 'blank --task', args: ({ repo, script }) => ['run', '--repo', repo, '--task', '   ', '--check', 'true', '--model', `script:${script}`], pattern: /invalid option --task/ },
      { refusal: 'blank --check', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', ' ', '--model', `script:${script}`], pattern: /invalid option --check: a check command is empty \(/ },
      { refusal: 'invalid policy', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', script], pattern: /approval policy .* is not valid/ },
      { refusal: 'missing policy', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', '/no/such/policy.json'], pattern: /approval policy \/no\/such\/policy\.json does not exist/ },
      { refusal: 'misspelled tool in policy', args: ({ repo, script, misspelledPolicy }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', misspelledPolicy], pattern: /approval policy .* is not valid at tools\.run_comand: no tool is named "run_comand" \(the tools are read_file, .*run_command/ },
      { refusal: 'model without provider', args: ({ repo }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'claude-x'], pattern: /model spec "claude-x" names no provider/ },
      { refusal: 'no Anthropic key', args: ({ repo }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'anthropic:claude-x'], pattern: /ANTHROPIC_API_KEY is not set/, env: WITHOUT_KEYS },
      { refusal: 'no OpenAI key for --escalate', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--escalate', 'openai:gpt-x'], pattern: /OPENAI_API_KEY is not set/, env: WITHOUT_KEYS },
      { refusal: 'unknown provider for --escalate', args: ({ repo, script }) => ['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--escalate', 'nope:x'], pattern: /unknown model provider "nope"/ },
    ];
    it.concurrent.for(cases)('$refusal', async ({ args, pattern, env }, { expect }) => {
      const repo = copyOfTaskFixture();
      const argv = args({ ...files, repo });
      const result = await runCliAsync(argv, { env });
      expect({ argv, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ argv, code: 2, lines: 1 });
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
      expect(runFolders(repo)).toEqual([]);
    });
  });

  const pastWhatItHolds: Array<[string[], RegExp]> = [
    [['--max-steps', '99999999999999999999999'], /^handbook: invalid option --max-steps: /],
    // Past a timer's 24 days the deadline fired after 1 ms, and past 49 days Node refused it as a bug.
    [['--wall-clock', '3000000'], /^handbook: invalid option --wall-clock: a whole number of seconds from 1 to 604800 \(a week\) \(/],
    [['--wall-clock', '5000000'], /^handbook: invalid option --wall-clock: /],
  ];
  it.concurrent.for(pastWhatItHolds)('refuses a count or a wall clock past what it can hold, in one line, before a run folder exists: %s', async ([extra, pattern]) => {
    const repo = copyOfTaskFixture();
    const script = writeScript([act(READ_REDACT)]);
    expectOneLineError(await runCliAsync(['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, ...extra]), 2, pattern);
    expect({ extra, runs: runFolders(repo) }).toEqual({ extra, runs: [] });
  });
});
