import { cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, planRequest } from '../../src/index.js';
import { checkCommandProblem } from '../../src/plan/check-command.js';
import { looksLikeTestFile } from '../../src/plan/plan-gate.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

function pythonFixture(): string {
  const repo = path.join(scratchDirectory('handbook-py-plan-'), 'py-harness');
  cpSync(path.join(PROJECT_ROOT, 'fixtures/py-harness'), repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
  return repo;
}

describe('plans for a Python harness', () => {
  it('check with pytest on the tests that reach the targets through Python imports, and pass the gate', async () => {
    const repo = pythonFixture();
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, 'hide secrets in every place that captures tool output');
    expect(plan.status).toBe('accepted');
    expect(plan.targets.map((target) => `${target.file}#${target.symbol}`)).toContain('src/pyharness/tools/shell.py#run_bash');
    // test_tools.py imports the shell tool; test_security.py the masking helper: both reach a target.
    expect(plan.checks).toEqual([{ name: 'tests', command: 'python -m pytest tests/test_security.py tests/test_tools.py', reason: expect.stringContaining('tests/test_tools.py') }]);
  });

  it('takes pytest, python -m pytest and uv run pytest on test files, and nothing else', () => {
    const repo = pythonFixture();
    const problem = (command: string) => checkCommandProblem(repo, { command }, looksLikeTestFile);
    expect(problem('pytest tests/test_tools.py')).toBeUndefined();
    expect(problem('python -m pytest tests/test_tools.py && python3 -m pytest tests/test_agent.py')).toBeUndefined();
    expect(problem('uv run pytest tests/test_session.py')).toBeUndefined();
    expect(problem('pytest src/pyharness/cli.py')).toMatch(/names no test file/);
    expect(problem('pytest tests/test_tools.py src/pyharness/cli.py')).toMatch(/not a test runner on test files/);
    expect(problem('python -m pytest tests/test_gone.py')).toMatch(/do not exist: tests\/test_gone.py/);
    expect(problem('pytest tests/test_tools.py; rm -rf src')).toMatch(/not a shell program/);
  });

  it('knows pytest test files by name outside a tests folder', () => {
    expect(looksLikeTestFile('pkg/test_loop.py')).toBe(true);
    expect(looksLikeTestFile('pkg/loop_test.py')).toBe(true);
    expect(looksLikeTestFile('conftest.py')).toBe(true);
    expect(looksLikeTestFile('pkg/testing_helpers.py')).toBe(false);
  });
});
