import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptanceStatuses, applyPlan, buildHandbook, openHandbook, planRequest } from '../../src/index.js';
import { liveSourceOf } from '../../src/api/live-resolution.js';
import type { PlanDraft } from '../../src/plan/edit-plan.js';
import { gatePlan } from '../../src/plan/plan-gate.js';
import { exitCriteriaSchema } from '../../src/harness/task.js';
import { writeScript } from '../helpers/harness-run.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';
import { CAPTURE_REQUEST, plannedFixture } from '../helpers/plan-fixture.js';

const PACKAGE = 'packages/harness';

/** The task fixture as one package of an npm workspace whose root has no runner and no test script of its own. */
function monorepoFixture(): string {
  const root = path.join(scratchDirectory('handbook-mono-'), 'mono');
  cpSync(path.join(PROJECT_ROOT, 'fixtures/task-repo'), path.join(root, PACKAGE), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }));
  return root;
}

/** The fixture's scripted apply transcript, its paths named from the monorepo's root. */
function scriptInPackage(): string {
  const script = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json'), 'utf8')) as { turns: Array<{ tool_calls?: Array<{ arguments: { path?: string } }> }> };
  for (const turn of script.turns) for (const call of turn.tool_calls ?? []) if (call.arguments.path) call.arguments.path = `${PACKAGE}/${call.arguments.path}`;
  return writeScript(script.turns as Array<Record<string, unknown>>);
}

describe('checks in a monorepo', () => {
  // Run from the root, the root's own runner or script would run every package's tests, or none
  // of them: a package's tests run in the package, with its runner and its config.
  it('plans the tests of a package to run in that package, and apply runs them there to COMPLETE', async () => {
    const repo = monorepoFixture();
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, CAPTURE_REQUEST);
    expect(plan.status).toBe('accepted');
    expect(plan.checks).toEqual([{ name: 'tests', command: 'npm test', cwd: PACKAGE, reason: expect.stringContaining(`${PACKAGE}/test/redact.test.mjs`) }]);
    expect(readFileSync(path.join(repo, `.handbook/plans/${plan.id}.md`), 'utf8')).toContain(`- \`npm test\` in ${PACKAGE}: `);

    const result = await applyPlan(repo, plan.id, { model: `script:${scriptInPackage()}` });
    expect(result.run.state).toBe('COMPLETE');
    expect(result.run.criteria).toContainEqual(expect.objectContaining({ id: 'check:tests', satisfied: true }));
    const record = JSON.parse(readFileSync(result.run.acceptance!.file, 'utf8')) as { checks: Array<{ cwd?: string; exitCode: number }> };
    expect(record.checks).toEqual([expect.objectContaining({ command: 'npm test', cwd: PACKAGE, exitCode: 0 })]);
    expect(acceptanceStatuses(repo)).toEqual([expect.objectContaining({ valid: true })]);
  });

  it('writes one check per package whose tests reach the targets, each run in its package', async () => {
    const repo = monorepoFixture();
    // A second package whose test reaches the harness's redact through a relative import.
    mkdirSync(path.join(repo, 'packages/cli/test'), { recursive: true });
    writeFileSync(path.join(repo, 'packages/cli/package.json'), JSON.stringify({ name: 'cli', private: true, devDependencies: { vitest: '4.1.12' } }));
    writeFileSync(path.join(repo, 'packages/cli/test/mask.test.mjs'), "import { redact } from '../../harness/src/redact.js';\nredact('x');\n");
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, CAPTURE_REQUEST);
    expect(plan.checks.map(({ name, command, cwd }) => ({ name, command, cwd }))).toEqual([
      { name: 'tests:packages.cli', command: 'npx vitest run test/mask.test.mjs', cwd: 'packages/cli' },
      { name: 'tests:packages.harness', command: 'npm test', cwd: PACKAGE },
    ]);
    expect(plan.failures).toEqual([]);
  });
});

describe('the tests a plan checks with', () => {
  // Through an index that re-exports everything, every test reaches every target; evals and
  // integration tests need a model or a service. Neither is the change's own test.
  it('are the nearest ones through imports, and not evals or integration tests while unit tests reach the targets', async () => {
    const repo = monorepoFixture();
    const inPackage = (file: string) => path.join(repo, PACKAGE, file);
    writeFileSync(inPackage('src/index.js'), "export * from './capture.js';\nexport * from './redact.js';\nexport * from './transcript.js';\n");
    writeFileSync(inPackage('test/index.test.mjs'), "import * as harness from '../src/index.js';\nconsole.log(Object.keys(harness));\n");
    writeFileSync(inPackage('test/redact.int.test.mjs'), "import { redact } from '../src/redact.js';\nredact('x');\n");
    mkdirSync(inPackage('evals'));
    writeFileSync(inPackage('evals/mask.test.mjs'), "import { redact } from '../src/redact.js';\nredact('x');\n");
    await buildHandbook(repo, {});
    const { plan } = await planRequest(repo, CAPTURE_REQUEST);
    expect(plan.checks).toEqual([expect.objectContaining({ cwd: PACKAGE, reason: `the tests that reach the targets through imports: ${PACKAGE}/test/redact.test.mjs, ${PACKAGE}/test/transcript.test.mjs` })]);
  });
});

describe('the plan gate on the folder a check runs in', () => {
  const gate = (repo: string, plan: PlanDraft) => gatePlan(repo, plan, liveSourceOf(openHandbook(repo, { withUnresolved: false })));

  it('accepts a package folder named from the root, with test files named from that folder', async () => {
    const { repo, plan } = await plannedFixture();
    mkdirSync(path.join(repo, 'tools/test'), { recursive: true });
    writeFileSync(path.join(repo, 'tools/package.json'), JSON.stringify({ name: 'tools', scripts: { test: 'node test/a.test.mjs' } }));
    writeFileSync(path.join(repo, 'tools/test/a.test.mjs'), '');
    const checks = [
      { name: 'script', command: 'npm test', cwd: 'tools', reason: 'x' },
      { name: 'file', command: 'node test/a.test.mjs', cwd: 'tools', reason: 'x' },
    ];
    expect(await gate(repo, { ...plan, checks })).toEqual([]);
  });

  it('refuses a folder outside the repository, not named from its root, missing, not a package, or a test file that leads outside', async () => {
    const { repo, plan } = await plannedFixture();
    mkdirSync(path.join(repo, 'node_modules/dep'), { recursive: true });
    writeFileSync(path.join(repo, 'node_modules/dep/package.json'), '{}');
    writeFileSync(path.join(path.dirname(repo), 'outside.test.mjs'), '');
    const cases: Array<[string | undefined, string, string]> = [
      ['..', 'npm test', 'its folder .. is not a folder of the repository named from its root'],
      ['/tmp', 'npm test', 'its folder /tmp is not a folder of the repository named from its root'],
      ['./src', 'npm test', "its folder ./src is not named from the repository's root: name it src"],
      ['src/', 'npm test', "its folder src/ is not named from the repository's root: name it src"],
      ['node_modules/dep', 'npm test', "its folder node_modules/dep is not the repository's own code"],
      ['lib', 'npm test', 'its folder lib does not exist'],
      ['src', 'npm test', "its folder src is not a package (no package.json): a check runs in the repository's root or in one of its packages"],
      [undefined, 'node ../outside.test.mjs', 'it names test files outside the repository: ../outside.test.mjs'],
    ];
    const checks = cases.map(([cwd, command], index) => ({ name: `c${index}`, command, ...(cwd === undefined ? {} : { cwd }), reason: 'x' }));
    const failures = await gate(repo, { ...plan, checks });
    expect(failures).toEqual(cases.map(([cwd, command, problem], index) => `check c${index} (\`${command}\`${cwd === undefined ? '' : ` in ${cwd}`}): ${problem}`));
  });
});

describe("a task check's folder", () => {
  // A task written by hand (`run --task`) never passes the plan gate: its schema keeps a check inside the repository.
  it('is refused when absolute or leading out of the repository', () => {
    for (const cwd of ['/tmp', '../elsewhere', 'packages/../../elsewhere', 'packages\\harness']) {
      expect(exitCriteriaSchema.safeParse({ checks: [{ name: 'tests', command: 'npm test', cwd }] }).success).toBe(false);
    }
    expect(exitCriteriaSchema.parse({ checks: [{ name: 'tests', command: 'npm test', cwd: PACKAGE }] }).checks[0]).toMatchObject({ cwd: PACKAGE });
  });
});
