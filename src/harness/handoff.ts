import { execFileSync } from 'node:child_process';
import type { HarnessEvent } from './events.js';
import type { OperationLog } from './operation-log.js';

export interface Handoff {
  stepsTaken: number;
  /** Files the run wrote before it was interrupted, in the order first written. */
  changedFiles: string[];
  /** What the fresh model context is told about the run so far. */
  text: string;
}

/**
 * The progress handoff for a resumed run, from what the run wrote down (its events and its
 * operation log), never from what a model remembers: the branch, the files changed, the last
 * check and its output, and which calls will not run again.
 */
export function buildHandoff(root: string, events: readonly HarnessEvent[], operations: OperationLog): Handoff {
  const stepsTaken = events.reduce((most, event) => Math.max(most, 'step' in event ? event.step : 0), 0);
  const changed = [
    ...new Set(
      events.flatMap((event) => (event.type === 'tool_result' && event.effect === 'write' && event.ok && typeof event.data?.path === 'string' ? [event.data.path] : [])),
    ),
  ];
  const lastCheck = events.filter((event) => event.type === 'check_result').at(-1);
  const done = operations.finished().filter((operation) => operation.ok);
  const lines = [
    `This run was interrupted after step ${stepsTaken} and goes on now with a fresh context. What the harness recorded:`,
    `- branch: ${currentBranch(root) ?? 'not a git checkout'}`,
    `- files changed so far: ${changed.length === 0 ? 'none' : changed.join(', ')}`,
    lastCheck
      ? `- last check: ${lastCheck.name} (\`${lastCheck.command}\`) ${lastCheck.timedOut ? 'timed out' : `exited ${lastCheck.exitCode}`}; its output ended:\n${indent(lastCheck.outputTail)}`
      : '- no check has run yet',
    done.length === 0
      ? '- no side-effecting call has completed yet'
      : `- ${done.length} side-effecting call(s) completed and will not run again (asking again returns the recorded result): ${done.map((operation) => operation.started.tool).join(', ')}`,
  ];
  return { stepsTaken, changedFiles: changed, text: lines.join('\n') };
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function currentBranch(root: string): string | undefined {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}
