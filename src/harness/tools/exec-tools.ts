import { z } from 'zod';
import type { ProcessGroupRecorder } from '../process-groups.js';
import { runShellCommand } from '../run-shell-command.js';
import { checkDirectory } from '../task.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolContract } from '../tool-contract.js';

const runCheckInput = z.object({ name: z.string().min(1) }).strict();

export const runCheckTool: ToolContract<z.output<typeof runCheckInput>, ToolContext> = {
  name: 'run_check',
  description: "Run one of the task's named checks (its exit criteria) and see its exit code and output.",
  input: runCheckInput,
  effect: 'exec',
  // A check may write caches or reports, but it is the task's own verification: running it again is expected.
  repeatSafe: true,
  timeoutMs: 600_000,
  retries: 0,
  approval: 'auto',
  run: async (input, context, signal) => {
    const check = context.verifier.checkNamed(input.name);
    if (!check) {
      const names = context.verifier.checkNames;
      return { ok: false, content: `there is no check named "${input.name}"; the task's checks are: ${names.length === 0 ? '(none)' : names.join(', ')}`, rule: 'unknown-check' };
    }
    const version = context.version;
    const outcome = await runShellCommand(check.command, { cwd: checkDirectory(context.workspace.root, check), timeoutMs: check.timeoutMs, signal, ...groupsOf(context) });
    context.verifier.recordCheck(check.name, outcome, version);
    context.onCheck(check, outcome);
    const verdict = outcome.timedOut ? `timed out after ${check.timeoutMs} ms` : `exited ${outcome.exitCode ?? 'by a signal'}`;
    return {
      ok: outcome.exitCode === 0,
      content: `check ${check.name} (\`${check.command}\`${check.cwd === undefined ? '' : ` in ${check.cwd}`}) ${verdict} in ${outcome.durationMs} ms\n${outcome.output}`,
      data: { check: check.name, exitCode: outcome.exitCode, outputDigest: outcome.outputDigest },
    };
  },
};

const runCommandInput = z.object({ command: z.string().trim().min(1) }).strict();

export const runCommandTool: ToolContract<z.output<typeof runCommandInput>, ToolContext> = {
  name: 'run_command',
  description: 'Run a shell command in the repository and see its exit code and output. Needs approval.',
  input: runCommandInput,
  effect: 'exec',
  repeatSafe: false,
  timeoutMs: 600_000,
  retries: 0,
  approval: 'ask',
  run: async (input, context, signal) => {
    const outcome = await runShellCommand(input.command, { cwd: context.workspace.root, timeoutMs: context.commandTimeoutMs, signal, ...groupsOf(context) });
    // Whatever the command did to the files is unknown, so earlier reads and check results no longer count.
    context.noteWrite();
    const verdict = outcome.timedOut ? `timed out after ${context.commandTimeoutMs} ms` : `exited ${outcome.exitCode ?? 'by a signal'}`;
    return {
      ok: outcome.exitCode === 0,
      content: `\`${input.command}\` ${verdict} in ${outcome.durationMs} ms\n${outcome.output}`,
      data: { exitCode: outcome.exitCode, outputDigest: outcome.outputDigest },
      ...(outcome.exitCode === null ? { uncertain: true } : {}),
    };
  },
};

function groupsOf(context: ToolContext): { groups?: ProcessGroupRecorder } {
  return context.processGroups ? { groups: context.processGroups } : {};
}
