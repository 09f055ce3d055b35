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

describe('plans for Go and Rust harnesses', () => {
  function fixture(name: string): string {
    const repo = path.join(scratchDirectory('handbook-plan-'), name);
    cpSync(path.join(PROJECT_ROOT, 'fixtures', name), repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
    return repo;
  }

  it('check Go with go test on the targets\' own packages and those whose tests reach the targets', async () => {
    const repo = fixture('go-harness');
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, 'mask secrets in every capture path');
    expect(plan.status).toBe('accepted');
    // Targets in internal/model, security and session have no test of their own: go test still compiles them.
    expect(plan.checks).toEqual([{
      name: 'tests',
      command: 'go test ./internal/agent ./internal/model ./internal/security ./internal/session ./internal/tools',
      reason: "the targets' own packages, compiled and tested, and the tests that reach the targets through imports: internal/agent/loop_test.go, internal/tools/registry_test.go",
    }]);
  });

  it('check Rust with cargo test -p on the crate whose tests reach the targets', async () => {
    const repo = fixture('rust-harness');
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, 'mask secrets in every capture path');
    expect(plan.status).toBe('accepted');
    expect(plan.checks).toEqual([{ name: 'tests', command: 'cargo test -p harness-core', reason: expect.stringContaining('crates/core/tests/agent_loop.rs') }]);
  });

  it('takes go test on package folders and cargo test on declared packages, and nothing else', () => {
    const go = fixture('go-harness');
    const rust = fixture('rust-harness');
    const problem = (repo: string, command: string) => checkCommandProblem(repo, { command }, looksLikeTestFile);
    expect(problem(go, 'go test ./internal/tools')).toBeUndefined();
    expect(problem(go, 'go test ./internal/...')).toBeUndefined();
    expect(problem(go, 'go test ./internal/security ./internal/agent')).toBeUndefined();
    // A package without tests: go test compiles it, a check of the build.
    expect(problem(go, 'go test ./internal/logging')).toBeUndefined();
    expect(problem(go, 'go test ./internal')).toMatch(/holds no Go file/);
    expect(problem(go, 'go test ./nowhere')).toMatch(/is not a package folder/);
    expect(problem(go, 'go test ../elsewhere')).toMatch(/is not a package folder/);
    expect(problem(go, 'go test')).toMatch(/names no package/);
    expect(problem(rust, 'cargo test')).toBeUndefined();
    expect(problem(rust, 'cargo test -p harness-core')).toBeUndefined();
    expect(problem(rust, 'cargo test -p serde')).toMatch(/declares the package serde/);
    expect(problem(rust, 'cargo test --release')).toMatch(/takes nothing, or `-p PACKAGE` alone/);
    expect(looksLikeTestFile('internal/agent/loop_test.go')).toBe(true);
  });
});
