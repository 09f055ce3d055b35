import { z } from 'zod';

/**
 * An edit plan: what to change for a behavior request, grounded in locators the plan gate
 * checks against the live repository. A plan writes no code; `apply` hands it to the harness.
 */

const locatorFields = {
  file: z.string().min(1),
  symbol: z.string().min(1),
  line: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** The unit's content hash when it was planned on: the gate checks the live unit still has it. */
  hash: z.string().min(1),
};

export const planTargetSchema = z.object({
  ...locatorFields,
  action: z.enum(['modify', 'add', 'delete']),
  /** What to do there, in a sentence. */
  intent: z.string().min(1),
  /** Why this site: how it implements the behavior. */
  why: z.string().min(1),
});
export type PlanTarget = z.output<typeof planTargetSchema>;

export const planContextSchema = z.object({
  ...locatorFields,
  /** How it relates to the targets: caller, callee, state-reader, state-writer, sibling. */
  relation: z.string().min(1),
  why: z.string().min(1),
});
export type PlanContext = z.output<typeof planContextSchema>;

export const planCheckSchema = z.object({
  name: z.string().min(1).regex(/^[\w.:-]+$/),
  command: z.string().min(1),
  /**
   * The package folder, from the repository root, the command runs in: a monorepo's package
   * runs its tests with its own runner and config. The root when absent.
   */
  cwd: z.string().min(1).optional(),
  /** Why this check: which targets it reaches, or that it is the typecheck. */
  reason: z.string().min(1),
});
export type PlanCheck = z.output<typeof planCheckSchema>;

export const planRiskSchema = z.object({
  /** The shared state a change couples to, when the risk is a slot. */
  slot: z.string().optional(),
  stages: z.array(z.string()),
  why: z.string().min(1),
});
export type PlanRisk = z.output<typeof planRiskSchema>;

export const plannerSchema = z.discriminatedUnion('kind', [z.object({ kind: z.literal('offline') }), z.object({ kind: z.literal('llm'), model: z.string() })]);

export const editPlanSchema = z.object({
  id: z.string().regex(/^plan-[\w-]+$/),
  request: z.string().min(1),
  summary: z.string().min(1),
  targets: z.array(planTargetSchema),
  context: z.array(planContextSchema),
  /** Files the executor may write: the targets' files and any new file named explicitly. */
  scope: z.array(z.string().min(1)),
  newFiles: z.array(z.string().min(1)),
  checks: z.array(planCheckSchema),
  /** Whether the repository must also type-check (it has a tsconfig.json); the harness runs the typecheck in process. */
  typecheck: z.boolean(),
  risks: z.array(planRiskSchema),
  /** The handbook generation the plan was made on. */
  generation: z.number().int(),
  planner: plannerSchema,
  createdAt: z.string(),
  /** Accepted only when the plan gate found nothing wrong; a rejected plan keeps its failures. */
  status: z.enum(['accepted', 'rejected']),
  failures: z.array(z.string()),
});
export type EditPlan = z.output<typeof editPlanSchema>;

/** What a planner proposes, before the gate decides its status. */
export type PlanDraft = Omit<EditPlan, 'id' | 'status' | 'failures' | 'createdAt'>;
