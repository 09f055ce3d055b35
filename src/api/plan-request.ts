import { randomBytes } from 'node:crypto';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import type { EditPlan, PlanDraft } from '../plan/edit-plan.js';
import { planOffline } from '../plan/offline-planner.js';
import { gatePlan, looksLikeTestFile } from '../plan/plan-gate.js';
import { savePlan } from '../plan/plan-store.js';
import { askHandbook, MAX_REQUEST_CHARACTERS } from './ask-handbook.js';
import { openHandbook } from './open-handbook.js';

export interface PlanOptions {
  database?: string;
  /** How many routed sites the planner chooses from (default 40). */
  candidates?: number;
}

export interface PlanResult {
  plan: EditPlan;
  files: { json: string; markdown: string };
}

/**
 * Turns a behavior request into an edit plan with the offline planner, puts it through the
 * plan gate against the live repository, and saves it under .handbook/plans, accepted or
 * rejected with its failures. A rejected plan is never saved as accepted.
 */
export async function planRequest(repo: string, request: string, options: PlanOptions = {}): Promise<PlanResult> {
  const root = assertRepositoryRoot(repo);
  const text = request.trim();
  if (text.length === 0) throw new HandbookError('INVALID_INPUT', 'the request is empty', 'describe a change, e.g. "mask secrets in every capture path"');
  if (text.length > MAX_REQUEST_CHARACTERS) throw new HandbookError('INVALID_INPUT', `the request is ${text.length} characters long`, `describe it in a sentence or two (at most ${MAX_REQUEST_CHARACTERS} characters)`);
  const database = options.database ? { database: options.database } : {};
  const asked = await askHandbook(root, text, { ...database, limit: options.candidates ?? 40 });
  const handbook = openHandbook(root, { ...database, withUnresolved: false });
  const draft = planOffline({
    root: handbook.root,
    request: text,
    sites: asked.locations.map((location) => ({ file: location.file, symbol: location.symbol, score: location.score, why: location.why, stage: location.stage })),
    graph: handbook.graph,
    register: handbook.register,
    generation: handbook.generation.id,
  });
  const testFiles = new Set(handbook.graph.toData().files.filter((file) => file.test).map((file) => file.path));
  const plan = await acceptOrReject(handbook.root, draft, (file) => testFiles.has(file) || looksLikeTestFile(file));
  return { plan, files: await savePlan(handbook.root, plan) };
}

/** Runs the gate on a draft and gives it an id, a time and the status the gate decided. */
export async function acceptOrReject(root: string, draft: PlanDraft, isTestFile: (file: string) => boolean = looksLikeTestFile): Promise<EditPlan> {
  const failures = await gatePlan(root, draft, isTestFile);
  return { id: newPlanId(), createdAt: new Date().toISOString(), ...draft, status: failures.length === 0 ? 'accepted' : 'rejected', failures };
}

function newPlanId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `plan-${stamp}-${randomBytes(3).toString('hex')}`;
}
