import { buildHandbook, planRequest, type EditPlan } from '../../src/index.js';
import { copyOfTaskFixture } from './harness-run.js';

export const CAPTURE_REQUEST = 'mask secrets in every capture path';

/** A copy of the task fixture with a handbook built, and the offline plan for masking secrets in every capture path. */
export async function plannedFixture(): Promise<{ repo: string; plan: EditPlan }> {
  const repo = copyOfTaskFixture();
  await buildHandbook(repo, {});
  const { plan } = await planRequest(repo, CAPTURE_REQUEST);
  return { repo, plan };
}
