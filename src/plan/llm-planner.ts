import { z } from 'zod';
import type { CompletionTool } from '../harness/tools/completion-tool.js';
import { planCheckSchema, planContextSchema, planRiskSchema, planTargetSchema, type EditPlan, type PlanDraft } from './edit-plan.js';

/**
 * The llm planner's side of the harness: what the model is asked, and submit_plan, the tool it
 * finishes with. The model only proposes; the plan gate decides, and a rejected plan goes back
 * to the model with every failure until it is accepted or the run ends.
 */

export const SUBMIT_PLAN = 'submit_plan';

/** A plan as the model hands it in: the draft without what the harness fills in (request, generation, planner). */
export const planSubmissionSchema = z
  .object({
    summary: z.string().trim().min(1).describe('the change in two or three sentences'),
    targets: z.array(planTargetSchema).describe('the units to change, each cited with the locator entry gives for it, copied exactly'),
    context: z.array(planContextSchema).default([]).describe('units to read but not change (callers, callees, state readers or writers), each cited with its locator'),
    scope: z.array(z.string().min(1)).describe("the files the change may write (globs allowed): every target's file"),
    newFiles: z.array(z.string().min(1)).default([]).describe('files the change creates; each must also be in the scope'),
    checks: z.array(planCheckSchema).describe('commands that test the change, each exiting 0 when it holds; in a monorepo, cwd names the package folder (from the root) a command runs in, and its test files are named from that folder'),
    typecheck: z.boolean().optional().describe('whether the repository must also type-check (default: whether it has a tsconfig.json)'),
    risks: z.array(planRiskSchema).default([]).describe('shared state the change couples to, with the stages it touches'),
  })
  .strict();
export type PlanSubmission = z.output<typeof planSubmissionSchema>;

/** What the planner is told: the request, how to find the code, and how to cite it so the gate can check it. */
export function plannerTaskText(request: string): string {
  return [
    `Plan this change to the repository; do not make it: ${request}`,
    '',
    'Find where the behavior is implemented with overview, stage, search and entry; see what calls it and what it calls with callers and callees, and the state it shares with state. read_file shows the code.',
    `Then call ${SUBMIT_PLAN} with the targets to change, the context to read, the scope the change may write, the checks that test it and the risks it runs.`,
    'Cite every target and context unit with the locator entry gives for it (file, symbol, line, endLine, hash), copied exactly: the harness checks each one against the live code.',
    'A target may not be in a test file, and every target must lie inside the scope.',
    `If the plan is rejected you are told every failure: fix them all and call ${SUBMIT_PLAN} again.`,
  ].join('\n');
}

/** The planner's draft, completed with what only the harness knows. */
export function draftOf(submission: PlanSubmission, fixed: { request: string; generation: number; model: string; typecheck: boolean }): PlanDraft {
  const { typecheck, ...plan } = submission;
  return { request: fixed.request, ...plan, typecheck: typecheck ?? fixed.typecheck, generation: fixed.generation, planner: { kind: 'llm', model: fixed.model } };
}

/** submit_plan: `judge` puts the submission through the plan gate; its failures are what the model is told. */
export function submitPlanTool(judge: (submission: PlanSubmission) => Promise<EditPlan>): CompletionTool<PlanSubmission> {
  return {
    name: SUBMIT_PLAN,
    description:
      'Submit the edit plan. The harness checks it against the live repository: every locator must match the code as it is now, every target must lie in the scope and outside the tests, and there must be a check. Accepted ends the task; otherwise you are told every failure.',
    input: planSubmissionSchema,
    async verify(submission) {
      const plan = await judge(submission);
      return plan.status === 'accepted' ? { accepted: true, summary: plan.summary } : { missing: plan.failures };
    },
  };
}
