import { spawn, spawnSync } from 'node:child_process';
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
export function runCli(args: readonly string[], options: CliOptions = {}): CliResult {
  const [command, ...rest] = commandLine(args, options);
  const result = spawnSync(command!, rest, { encoding: 'utf8', timeout: options.timeout ?? 60_000, stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env, cwd: options.cwd });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * runCli without blocking the worker, so a test can run several CLI processes at once: each one
 * costs a second or more of Node start and module loading, and one after another they add up.
 */
export function runCliAsync(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const [command, ...rest] = commandLine(args, options);
  return new Promise((resolve, reject) => {
    const child = spawn(command!, rest, { timeout: options.timeout ?? 60_000, stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeout?: number;
  asUser?: number;
}

function commandLine(args: readonly string[], options: CliOptions): string[] {
  const asUser = options.asUser === undefined ? [] : ['setpriv', `--reuid=${options.asUser}`, `--regid=${options.asUser}`, '--clear-groups'];
  return [...asUser, process.execPath, CLI, ...args];
}

/** A refusal as the CLI promises it: one line on stderr, the given exit code, nothing on stdout, no stack trace. */
export function expectOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}
