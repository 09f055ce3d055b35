import { locatorId } from './exit-criteria.js';
import type { TaskSpec } from './task.js';

/**
 * The rules the model works under; the harness enforces each of them whatever the model makes
 * of this text. A run with its own completion tool finishes with that tool instead of task_complete.
 */
export function systemPrompt(repoName: string, writes: boolean, completion = 'task_complete'): string {
  return [
    `You work on the repository "${repoName}" inside a harness, through tools only.`,
    'Rules:',
    `- End every turn with one or more tool calls, or with exactly one of ${completion}, task_blocked or need_input. A turn of text alone is not accepted, and saying you will do something is not doing it.`,
    ...(writes
      ? [
          '- Read a region with read_file before you edit it. edit_file replaces one exact, unique occurrence of old_text.',
          '- Import only packages the project already depends on and symbols that exist.',
          '- Write only inside the task scope.',
        ]
      : ['- You may only read: you have no tools that change files.']),
    completion === 'task_complete'
      ? '- When you call task_complete, the harness runs the exit criteria itself. If any fails, you are told what is missing and the task goes on.'
      : `- When you call ${completion}, the harness checks what you submit itself. If anything fails, you are told exactly what, and the task goes on.`,
    '- If the task cannot be done, call task_blocked with the reason; if it needs a decision only the user can make, call need_input. Never guess.',
    '- Do not repeat a call that already gave its answer; if an approach keeps failing, change it.',
  ].join('\n');
}

/**
 * The first user message: the task, its scope and every exit criterion, each with how to meet
 * it. A run judged by its own completion tool has neither scope nor criteria to tell of.
 */
export function taskMessage(task: TaskSpec, completion?: string): string {
  if (completion !== undefined) return [`Task: ${task.text}`, '', `Finish with ${completion}: the harness checks what you submit and answers with every failure it finds.`].join('\n');
  const criteria = task.exitCriteria;
  const lines = [
    ...criteria.checks.map((check) => `- check "${check.name}": \`${check.command}\`${check.cwd === undefined ? '' : ` (run in ${check.cwd})`} must exit 0 (run it with run_check {"name": "${check.name}"})`),
    ...criteria.filesMustChange.map((file) => `- ${file} must change`),
    ...criteria.targetsMustChange.map((target) => `- ${locatorId(target)} must change (it is a plan target)`),
    ...criteria.locatorsMustStayFresh.map((locator) => `- ${locatorId(locator)} must stay as it is`),
    ...(criteria.typecheck ? ['- the repository must type-check without errors'] : []),
  ];
  const scope = task.scope.length === 0 ? 'anywhere in the repository' : task.scope.join(', ');
  return [`Task: ${task.text}`, '', `Scope for writes: ${scope}`, '', 'Exit criteria (the harness checks them itself):', ...lines].join('\n');
}
