import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { locatorId } from '../harness/exit-criteria.js';
import type { TaskSpecInput } from '../harness/task.js';
import type { EditPlan } from '../plan/edit-plan.js';
import { gatePlan } from '../plan/plan-gate.js';
import { loadPlan } from '../plan/plan-store.js';
import type { SyncSummary } from './live-handbook.js';
import { liveSourceOf } from './live-resolution.js';
import { openHandbook } from './open-handbook.js';
import { testFilesOf } from './plan-request.js';
import { startPlanRun } from './plan-run.js';
import { claimPlan } from './plan-claim.js';
import { runTaskAs, type RunTaskOptions, type RunTaskResult } from './run-task.js';
import { stampedId } from './time-stamp.js';

export type ApplyOptions = Omit<RunTaskOptions, 'task' | 'plan' | 'extraCriteria'> & { database?: string };

export interface ApplyResult {
  plan: string;
  run: RunTaskResult;
  /** The handbook brought up to date from the change, when the task completed. */
  sync?: SyncSummary;
}

/**
 * Executes an accepted plan through the harness loop: the plan's scope is the write scope, and
 * the task is complete only when the plan's checks pass, every target changed, the repository
 * type-checks (when it has a tsconfig) and no handbook entry was lost. The plan is checked
 * against the live repository first and refused if it went stale. On COMPLETE the acceptance
 * record is written by the loop and the handbook re-syncs from the diff; a run interrupted and
 * resumed (`handbook resume`) does the same, from the baseline its run record keeps. One run
 * applies a plan at a time: an apply of a plan another process is applying is refused, naming its run.
 */
export async function applyPlan(repo: string, reference: string, options: ApplyOptions): Promise<ApplyResult> {
  const root = assertRepositoryRoot(repo);
  const plan = loadPlan(root, reference);
  if (plan.status !== 'accepted') throw new HandbookError('INVALID_INPUT', `plan ${plan.id} was rejected by the plan gate (${plan.failures[0] ?? 'no reason kept'})`, 'make a new plan with `handbook plan`');
  const runId = stampedId();
  // Claimed before the gate, so that a process let in after another's run judges the plan as that run left it.
  const release = await claimPlan(root, plan.id, runId);
  try {
    return await applyClaimed(root, plan, options, runId);
  } finally {
    await release();
  }
}

async function applyClaimed(root: string, plan: EditPlan, options: ApplyOptions, runId: string): Promise<ApplyResult> {
  const handbook = openHandbook(root, { ...(options.database ? { database: options.database } : {}), withUnresolved: false });
  // Judged as planning judged it, test files by the handbook's own verdict: a plan edited since may not target one.
  const stale = await gatePlan(root, plan, liveSourceOf(handbook), testFilesOf(handbook));
  if (stale.length > 0) throw new HandbookError('INVALID_INPUT', `plan ${plan.id} went stale since it was made: ${stale[0]}${stale.length > 1 ? ` (and ${stale.length - 1} more)` : ''}`, 'make a new plan with `handbook plan`');

  const planRun = await startPlanRun(root, plan.id, options.database);
  const run = await runTaskAs(root, { ...options, task: taskOf(plan), plan: planRun }, runId);
  return { plan: plan.id, run, ...(run.sync ? { sync: run.sync } : {}) };
}

/** The plan as a harness task: its words for the model, its scope and checks as data for the harness. */
export function taskOf(plan: EditPlan): TaskSpecInput {
  const lines = [
    `Carry out edit plan ${plan.id}: ${plan.request}`,
    plan.summary,
    'Targets (change each of them):',
    ...plan.targets.map((target) => `- ${target.action} ${locatorId(target)} (lines ${target.line}-${target.endLine}): ${target.intent}. Why: ${target.why}`),
    ...(plan.context.length > 0 ? ['Context (read, do not edit unless needed):', ...plan.context.map((item) => `- ${locatorId(item)} (lines ${item.line}-${item.endLine}), ${item.relation}: ${item.why}`)] : []),
    ...(plan.risks.length > 0 ? ['Risks:', ...plan.risks.map((risk) => `- ${risk.why}`)] : []),
  ];
  return {
    text: lines.join('\n'),
    planId: plan.id,
    scope: [...plan.scope, ...plan.newFiles],
    exitCriteria: {
      checks: plan.checks.map((check) => ({ name: check.name, command: check.command, ...(check.cwd === undefined ? {} : { cwd: check.cwd }) })),
      targetsMustChange: plan.targets.filter((target) => target.action === 'modify').map((target) => ({ file: target.file, symbol: target.symbol, hash: target.hash })),
      typecheck: plan.typecheck,
    },
  };
}
