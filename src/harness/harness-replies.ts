import { findAnnouncedIntent, reconcileMessage } from './intent-reconciler.js';
import type { CriterionStatus } from './exit-criteria.js';
import type { ReconcileOutcome, StartedOperation } from './operation-log.js';

/**
 * What the harness says to the model when it refuses, re-prompts or hands a run over: plain,
 * specific words, so that even a weak model knows what to do next.
 */

/** The words the harness says when a turn has no action; the model gets one and must act. */
function textOnlyReply(completion = 'task_complete'): string {
  return `Your turn ended without a tool call. Every turn must end in tool calls, or in ${completion}, task_blocked or need_input: act now.`;
}

export function missingOf(criteria: readonly CriterionStatus[]): string[] {
  return criteria.filter((criterion) => !criterion.satisfied).map((criterion) => criterion.detail);
}

export function argumentProblem(tool: string, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const list = issues.slice(0, 5).map((issue) => `${issue.path.length === 0 ? 'arguments' : issue.path.map(String).join('.')}: ${issue.message}`);
  return `the arguments of ${tool} are not valid: ${list.join('; ')}`;
}

export function missingActionReply(
  reading: { kind: 'none' } | { kind: 'malformed'; problem: string },
  text: string,
  reconcile: boolean,
  completion: string | undefined,
): { kind: 'text_only' | 'announced' | 'malformed'; detail: string; reply: string } {
  if (reading.kind === 'malformed') return { kind: 'malformed', detail: reading.problem, reply: `Your action could not be read: ${reading.problem}. Write it again, correctly.` };
  const intent = reconcile ? findAnnouncedIntent(text) : undefined;
  if (intent) return { kind: 'announced', detail: intent.sentence, reply: reconcileMessage(intent) };
  return { kind: 'text_only', detail: text.trim().slice(0, 160) || '(empty turn)', reply: textOnlyReply(completion) };
}

export function resumeMessage(handoff: string, cutOff: ReadonlyArray<{ operation: StartedOperation; outcome: ReconcileOutcome; detail: string }>, missing: readonly string[]): string {
  const lines = [handoff];
  for (const { operation, outcome, detail } of cutOff) {
    const verdict = outcome === 'done' ? 'it took effect' : outcome === 'not_done' ? 'it did not take effect' : 'it is unknown whether it took effect: check before running it again';
    lines.push(`- the interruption cut off ${operation.tool} ${JSON.stringify(operation.arguments)}: ${verdict} (${detail})`);
  }
  lines.push(missing.length === 0 ? 'Every exit criterion looks met: verify with task_complete.' : `Still missing:\n${missing.map((line) => `- ${line}`).join('\n')}`);
  return lines.join('\n');
}
