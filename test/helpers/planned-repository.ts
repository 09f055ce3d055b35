import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { plannedFixture } from './plan-fixture.js';
import { scratchDirectory } from './paths.js';

/**
 * The task fixture with a handbook, an accepted plan for masking secrets, and a policy that lets scripted runs use the shell.
 * Built and planned in this process: the tests that use it start the CLI for the apply they are about, and
 * two more CLI starts each ran them close to their timeout on a loaded machine.
 */
export async function plannedRepository(): Promise<{ repo: string; plan: string; policy: string }> {
  const { repo, plan } = await plannedFixture();
  expect(plan.status).toBe('accepted');
  const policy = path.join(scratchDirectory(), 'policy.json');
  writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
  return { repo, plan: plan.id, policy };
}
