import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfTaskFixture } from '../helpers/harness-run.js';
import { CLI, PROJECT_ROOT } from '../helpers/paths.js';

function handbook(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('handbook plan and apply', () => {
  it('plans, applies with a scripted model, and leaves a fresh handbook with a valid acceptance record (the README demo)', () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const planned = handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--json']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as { id: string; status: string; targets: Array<{ file: string; symbol: string; line: number }> };
    expect(plan.status).toBe('accepted');
    expect(plan.targets.length).toBeGreaterThan(0);

    const human = handbook(['plan', 'mask secrets in every capture path', '--repo', repo]);
    expect(human.stdout).toMatch(/^plan plan-\S+: ACCEPTED\n/);

    const refused = handbook(['apply', plan.id, '--repo', repo, '--model', `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`]);
    expect([refused.code, refused.stderr.trim()]).toEqual([2, 'handbook: the plan was not applied: nobody confirmed it (pass --yes to apply without a prompt)']);

    const applied = handbook(['apply', plan.id, '--repo', repo, '--model', `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`, '--yes', '--json', '--quiet']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ plan: plan.id, state: 'COMPLETE', sync: { entries: { removed: 0 } } });

    const status = handbook(['status', repo]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/accepted {3}run \S+: valid/);
  });

  it('exits 11 for a plan the gate rejects, and 2 for a plan that does not exist', () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const nothing = handbook(['plan', 'quantum entanglement of zebras', '--repo', repo]);
    expect(nothing.code).toBe(11);
    expect(nothing.stdout).toMatch(/REJECTED[\s\S]*✗ the plan has no targets/);
    const missing = handbook(['apply', 'plan-nope', '--repo', repo, '--model', 'script:x.json', '--yes']);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: no plan plan-nope/)]);
  });
});
