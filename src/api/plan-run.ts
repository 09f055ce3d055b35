import path from 'node:path';
import { z } from 'zod';
import type { CriterionStatus } from '../harness/exit-criteria.js';
import { handbookStatus } from './handbook-status.js';
import { syncHandbook, type SyncOptions, type SyncSummary } from './live-handbook.js';

/**
 * What a run that carries out an edit plan keeps beside its task: the plan, the handbook it
 * syncs, and the handbook entries that could not be found before it started. Written into the
 * run record, so a resumed run judges "no entry lost" against the same start and re-syncs the
 * handbook when it completes, as `apply` does.
 */
export const planRunSchema = z.object({
  id: z.string().min(1),
  database: z.string().min(1).optional(),
  frozenBefore: z.array(z.string()),
});
export type PlanRun = z.infer<typeof planRunSchema>;

/** The plan run of a plan about to be applied: the handbook's frozen entries now. */
export async function startPlanRun(root: string, id: string, database?: string): Promise<PlanRun> {
  const frozenBefore = (await handbookStatus(root, database ? { database } : {})).frozen.map((entry) => entry.unit);
  // Absolute, so a run resumed from another folder finds the same handbook.
  return { id, ...(database ? { database: path.resolve(database) } : {}), frozenBefore };
}

/** The exit criterion a plan run adds: no handbook entry that was found at the start is lost. */
export function noNewFrozen(root: string, run: PlanRun): () => Promise<CriterionStatus[]> {
  const before = new Set(run.frozenBefore);
  return async () => {
    const lost = (await handbookStatus(root, run.database ? { database: run.database } : {})).frozen.filter((entry) => !before.has(entry.unit));
    return [
      {
        id: 'no-new-frozen',
        satisfied: lost.length === 0,
        detail: lost.length === 0 ? 'no handbook entry was lost' : `handbook entries can no longer be found (renamed or removed?): ${lost.slice(0, 5).map((entry) => `${entry.unit} (${entry.reason})`).join('; ')}`,
      },
    ];
  };
}

/** After a plan run completed: the handbook brought up to date from the change, asking the model it was built with under `provider`'s settings. */
export function syncAfterPlanRun(root: string, run: PlanRun, provider: SyncOptions['provider']): Promise<SyncSummary> {
  return syncHandbook(root, { ...(run.database ? { database: run.database } : {}), ...(provider ? { provider } : {}) });
}
