import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli-run.js';
import { copyOfTaskFixture } from './harness-run.js';
import { scratchDirectory } from './paths.js';

/** The task fixture with a handbook, an accepted plan for masking secrets, and a policy that lets scripted runs use the shell. */
export function plannedRepository(): { repo: string; plan: string; policy: string } {
  const repo = copyOfTaskFixture();
  expect(runCli(['build', repo, '--no-progress']).code).toBe(0);
  const plan = JSON.parse(runCli(['plan', 'mask secrets in every capture path', '--repo', repo, '--json']).stdout) as { id: string; status: string };
  expect(plan.status).toBe('accepted');
  const policy = path.join(scratchDirectory(), 'policy.json');
  writeFileSync(policy, JSON.stringify({ tools: { run_command: 'auto' } }));
  return { repo, plan: plan.id, policy };
}
