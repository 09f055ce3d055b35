import { describe, expect, it } from 'vitest';
import { runShellCommand } from '../../src/harness/run-shell-command.js';
import { scratchDirectory } from '../helpers/paths.js';

describe('runShellCommand', () => {
  it('kills what the shell left running when the timeout comes, even after the shell itself exited', async () => {
    const started = Date.now();
    const outcome = await runShellCommand('sleep 30 & echo started', { cwd: scratchDirectory(), timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.output).toContain('started');
  });

  it('settles soon after the shell exits even when a background child keeps the output open', async () => {
    const started = Date.now();
    const outcome = await runShellCommand('sleep 30 & exit 0', { cwd: scratchDirectory(), timeoutMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.exitCode).toBe(0);
  });

  it('reports a timeout as no exit code, and keeps only the tail of long output', async () => {
    const timedOut = await runShellCommand('sleep 5', { cwd: scratchDirectory(), timeoutMs: 200 });
    expect([timedOut.timedOut, timedOut.exitCode]).toEqual([true, null]);
    const long = await runShellCommand("node -e \"process.stdout.write('x'.repeat(100000) + 'END')\"", { cwd: scratchDirectory(), timeoutMs: 10_000, keepBytes: 1_000 });
    expect(long.output.startsWith('[... output cut ...]\n')).toBe(true);
    expect(long.output.endsWith('END')).toBe(true);
  });
});
