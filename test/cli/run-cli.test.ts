import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { act, call, copyOfTaskFixture, FIX_REDACT, READ_REDACT, writeScript } from '../helpers/harness-run.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli } from '../helpers/cli-run.js';

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

  it('answers bad input with one line, no stack trace, exit 2, and leaves no run folder behind', () => {
    const repo = copyOfTaskFixture();
    const script = writeScript([act(READ_REDACT)]);
    const misspelledPolicy = path.join(scratchDirectory(), 'policy.json');
    writeFileSync(misspelledPolicy, JSON.stringify({ tools: { run_comand: 'auto' } }));
    const badScript = path.join(scratchDirectory(), 'bad.json');
    writeFileSync(badScript, JSON.stringify({ turns: [{ tool_calls: [{ arguments: {} }] }] }));
    const cases: Array<[string[], RegExp, NodeJS.ProcessEnv?]> = [
      [['run', '--repo', repo, '--task', 'x', '--model', `script:${script}`], /no exit criteria/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'offline'], /a task needs a model/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'script:/no/such/script.json'], /model script \/no\/such\/script\.json does not exist/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${badScript}`], /is not valid at turns\.0/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--tool-mode', 'xml'], /invalid option --tool-mode/],
      [['run', '--repo', repo, '--task', 'x', '--must-change', '../elsewhere.js', '--model', `script:${script}`], /\.\.\/elsewhere\.js must change, but no tool may write it: .* is outside the repository/],
      [['run', '--repo', repo, '--task', 'x', '--must-change', 'README.md', '--scope', 'src/**', '--model', `script:${script}`], /README\.md must change, but no tool may write it: .* outside the task's scope/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--max-steps', '0'], /invalid option --max-steps/],
      [['run', '--repo', path.join(repo, 'nope'), '--task', 'x', '--check', 'true', '--model', `script:${script}`], /repository not found/],
      [['run', '--repo', repo, '--task', '   ', '--check', 'true', '--model', `script:${script}`], /invalid option --task/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', ' ', '--model', `script:${script}`], /invalid option --check: a check command is empty \(/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', script], /approval policy .* is not valid/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', '/no/such/policy.json'], /approval policy \/no\/such\/policy\.json does not exist/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--policy', misspelledPolicy], /approval policy .* is not valid at tools\.run_comand: no tool is named "run_comand" \(the tools are read_file, .*run_command/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'claude-x'], /model spec "claude-x" names no provider/],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', 'anthropic:claude-x'], /ANTHROPIC_API_KEY is not set/, WITHOUT_KEYS],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--escalate', 'openai:gpt-x'], /OPENAI_API_KEY is not set/, WITHOUT_KEYS],
      [['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, '--escalate', 'nope:x'], /unknown model provider "nope"/],
    ];
    for (const [args, pattern, env] of cases) {
      const result = handbook(args, env);
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
      expect({ args, runs: runFolders(repo) }).toEqual({ args, runs: [] });
    }
  });

  it('refuses a count or a wall clock past what it can hold, in one line, before a run folder exists', () => {
    const repo = copyOfTaskFixture();
    const script = writeScript([act(READ_REDACT)]);
    const cases: Array<[string[], RegExp]> = [
      [['--max-steps', '99999999999999999999999'], /^handbook: invalid option --max-steps: /],
      // Past a timer's 24 days the deadline fired after 1 ms, and past 49 days Node refused it as a bug.
      [['--wall-clock', '3000000'], /^handbook: invalid option --wall-clock: a whole number of seconds from 1 to 604800 \(a week\) \(/],
      [['--wall-clock', '5000000'], /^handbook: invalid option --wall-clock: /],
    ];
    for (const [extra, pattern] of cases) {
      expectOneLineError(handbook(['run', '--repo', repo, '--task', 'x', '--check', 'true', '--model', `script:${script}`, ...extra]), 2, pattern);
      expect({ extra, runs: runFolders(repo) }).toEqual({ extra, runs: [] });
    }
  });
});
