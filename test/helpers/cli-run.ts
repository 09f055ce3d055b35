import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { CLI } from './paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built CLI run as a user runs it, to its end: stdin closed (no terminal to prompt on), output
 * captured. `asUser` runs it under another uid through setpriv, for permission cases root ignores.
 */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeout?: number; asUser?: number } = {}): CliResult {
  const asUser = options.asUser === undefined ? [] : ['setpriv', `--reuid=${options.asUser}`, `--regid=${options.asUser}`, '--clear-groups'];
  const [command, ...prefix] = [...asUser, process.execPath];
  const result = spawnSync(command!, [...prefix, CLI, ...args], { encoding: 'utf8', timeout: options.timeout ?? 60_000, stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A refusal as the CLI promises it: one line on stderr, the given exit code, nothing on stdout, no stack trace. */
export function expectOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}
