import { appendFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handbookStatus } from '../../src/api/handbook-status.js';
import { liveSourceOf } from '../../src/api/live-resolution.js';
import { buildHandbook, loadPlan, openHandbook, planRequest } from '../../src/index.js';
import type { PlanDraft } from '../../src/plan/edit-plan.js';
import { gatePlan } from '../../src/plan/plan-gate.js';
import { copyOfTaskFixture } from '../helpers/harness-run.js';
import { CAPTURE_REQUEST, plannedFixture } from '../helpers/plan-fixture.js';
import { scratchDirectory } from '../helpers/paths.js';

/** The gate as apply runs it: files read as the repository's handbook was built to read them. */
function gate(repo: string, plan: PlanDraft): Promise<string[]> {
  return gatePlan(repo, plan, liveSourceOf(openHandbook(repo, { withUnresolved: false })));
}

describe('the offline planner and the plan gate', () => {
  it('plans every capture path: targets, scope, checks that reach them through imports, and a typecheck; accepted and saved', async () => {
    const { repo, plan } = await plannedFixture();
    expect(plan.status).toBe('accepted');
    expect(plan.failures).toEqual([]);
    expect(plan.planner).toEqual({ kind: 'offline' });
    expect(plan.targets.map((target) => `${target.file}#${target.symbol}`).sort()).toEqual(['src/capture.js#captureToolOutput', 'src/redact.js#redact', 'src/transcript.js#captureModelTurn']);
    expect(plan.scope).toEqual(['src/capture.js', 'src/redact.js', 'src/transcript.js']);
    expect(plan.checks).toEqual([expect.objectContaining({ name: 'tests', command: 'npm test', reason: expect.stringContaining('test/redact.test.mjs, test/transcript.test.mjs') })]);
    expect(plan.typecheck).toBe(true);
    expect(loadPlan(repo, plan.id)).toEqual(plan);
    expect(readFileSync(path.join(repo, '.handbook', 'plans', `${plan.id}.md`), 'utf8')).toMatch(/^# Plan plan-.*: accepted/);
  });

  it('rejects a plan whose locator no longer resolves: code changed or moved since planning', async () => {
    const { repo, plan } = await plannedFixture();
    const file = path.join(repo, 'src/redact.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  return text;', '  return text.trim();'));
    const transcript = path.join(repo, 'src/transcript.js');
    writeFileSync(transcript, `// moved down\n${readFileSync(transcript, 'utf8')}`);
    const failures = await gate(repo, plan);
    expect(failures).toContainEqual(expect.stringMatching(/^target src\/redact\.js#redact: its code changed since it was planned/));
    expect(failures).toContainEqual(expect.stringMatching(/^target src\/transcript\.js#captureModelTurn: it moved from lines 7-10 to 8-11/));
  });

  it('rejects a target outside the scope, a test-file target, an external boundary, a missing symbol and a plan with nothing to check', async () => {
    const { repo, plan } = await plannedFixture();
    const [first] = plan.targets;
    const failures = await gate(repo, {
      ...plan,
      scope: plan.scope.filter((file) => file !== first!.file),
      targets: [
        first!,
        { ...first!, file: 'test/redact.test.mjs', symbol: 'key' },
        { ...first!, file: 'node_modules/left-pad/index.js', symbol: 'leftPad' },
        { ...first!, symbol: 'nowhere' },
      ],
      checks: [],
      typecheck: false,
    });
    expect(failures).toContainEqual(`target ${first!.file}#${first!.symbol}: ${first!.file} is outside the plan's scope (${plan.scope.filter((file) => file !== first!.file).join(', ')})`);
    expect(failures).toContainEqual(expect.stringMatching(/^target test\/redact\.test\.mjs#key: it is in a test file/));
    expect(failures).toContainEqual(expect.stringMatching(/^target node_modules\/left-pad\/index\.js#leftPad: it is outside the repository's own code/));
    expect(failures).toContainEqual(`target ${first!.file}#nowhere: the symbol is no longer in ${first!.file}`);
    expect(failures).toContainEqual(expect.stringMatching(/^the plan has no check/));
  });

  it('rejects targets that apply could not verify: units to add or delete', async () => {
    const { repo, plan } = await plannedFixture();
    const [first] = plan.targets;
    const failures = await gate(repo, { ...plan, targets: [{ ...first!, action: 'delete' }, { ...first!, symbol: 'maskAll', action: 'add' }] });
    expect(failures).toEqual([
      `target ${first!.file}#${first!.symbol}: apply can verify only targets it modifies, not ones it would delete; plan the change as a modification of the enclosing unit, or as a new file`,
      `target ${first!.file}#maskAll: apply can verify only targets it modifies, not ones it would add; plan the change as a modification of the enclosing unit, or as a new file`,
      ...plan.scope.filter((file) => file !== first!.file).map((file) => `scope ${file} is neither a target's file nor a new file the plan names: the scope is what the plan changes, nothing wider`),
    ]);
  });

  it('rejects checks that test nothing real, a typecheck without a tsconfig, and a scope wider than the plan', async () => {
    const { repo, plan } = await plannedFixture();
    rmSync(path.join(repo, 'tsconfig.json'));
    const failures = await gate(repo, {
      ...plan,
      scope: [...plan.scope, 'src/**'],
      checks: [
        { name: 'always', command: 'true', reason: 'x' },
        { name: 'sneaky', command: 'node test/redact.test.mjs; curl example.com', reason: 'x' },
        { name: 'ghost', command: 'node test/ghost.test.mjs', reason: 'x' },
        { name: 'real', command: 'node test/redact.test.mjs && node test/transcript.test.mjs', reason: 'x' },
      ],
    });
    expect(failures).toEqual([
      "scope src/** is neither a target's file nor a new file the plan names: the scope is what the plan changes, nothing wider",
      'the plan asks for a typecheck, but the repository has no tsconfig.json to type-check with',
      'check always (`true`): it names no test file: a check runs the tests that reach the targets, or `npm test`',
      'check sneaky (`node test/redact.test.mjs; curl example.com`): a check is a test command, not a shell program',
      'check ghost (`node test/ghost.test.mjs`): it names test files that do not exist: test/ghost.test.mjs',
    ]);
  });

  it('rejects a locator in a file analysis now leaves out, in the words status uses for its entry', async () => {
    const { repo, plan } = await plannedFixture();
    // Built again with a size cap: the gate judges files by the handbook's settings, not discovery's defaults.
    await buildHandbook(repo, { maxFileBytes: 1_000 });
    appendFileSync(path.join(repo, 'src/redact.js'), '// @generated by a tool\n');
    appendFileSync(path.join(repo, 'src/transcript.js'), '// padding\n'.repeat(100));
    const capture = path.join(repo, 'src/capture.js');
    const outside = path.join(scratchDirectory(), 'capture.js');
    writeFileSync(outside, readFileSync(capture));
    rmSync(capture);
    symlinkSync(outside, capture);

    const failures = await gate(repo, plan);
    const frozen = new Map((await handbookStatus(repo)).frozen.map((entry) => [entry.unit, entry.reason]));
    const expected = [
      ['src/redact.js#redact', 'src/redact.js is now skipped as generated'],
      ['src/transcript.js#captureModelTurn', 'src/transcript.js is now skipped as too-large'],
      ['src/capture.js#captureToolOutput', 'src/capture.js (a symlink) is now skipped as symlink-outside'],
    ];
    for (const [unit, reason] of expected) {
      expect(failures).toContain(`target ${unit}: ${reason}`);
      expect(frozen.get(unit!)).toBe(reason);
    }
  });
});

describe('the plan gate on check commands', () => {
  // apply runs a plan's checks as shell commands without asking: a check that merely names a test
  // file anywhere would let a hand-edited or model-written plan run anything, or pass unchecked.
  it('rejects a command that names a test file but does not run it with a test runner', async () => {
    const { repo, plan } = await plannedFixture();
    const commands = ['true test/redact.test.mjs', 'rm -rf src test/redact.test.mjs', 'node test/redact.test.mjs && rm -rf src', 'node -e process.exit test/redact.test.mjs', 'npm test && curl example.com'];
    const failures = await gate(repo, { ...plan, checks: commands.map((command, index) => ({ name: `c${index}`, command, reason: 'x' })) });
    expect(failures).toHaveLength(commands.length);
    for (const [index, command] of commands.entries()) expect(failures[index]).toMatch(new RegExp(`^check c${index} \\(\`${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\\): `));
  });

  it('accepts the test runners the offline planner writes, alone or chained with &&', async () => {
    const { repo, plan } = await plannedFixture();
    const commands = ['npm test', 'node test/redact.test.mjs && node test/transcript.test.mjs', "node --test 'test/redact.test.mjs'", 'npx vitest run test/redact.test.mjs test/transcript.test.mjs', 'npx jest test/redact.test.mjs', 'npx mocha test/redact.test.mjs'];
    expect(await gate(repo, { ...plan, checks: commands.map((command, index) => ({ name: `c${index}`, command, reason: 'x' })) })).toEqual([]);
  });
});

describe('the plan gate on new files', () => {
  // A new file apply could never write (the file gate refuses it) would make a plan accepted that can never complete.
  it('rejects a new file outside the repository, in a folder tools never touch, in node_modules or not named from the root', async () => {
    const { repo, plan } = await plannedFixture();
    const newFiles = ['../evil.js', '.handbook/notes.js', '.git/hooks/pre-commit', 'node_modules/left-pad/extra.js', './src/mask.js'];
    const failures = await gate(repo, { ...plan, scope: [...plan.scope, ...newFiles], newFiles });
    for (const file of newFiles) expect(failures).toContainEqual(expect.stringMatching(new RegExp(`^new file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `)));
    expect(failures).toHaveLength(newFiles.length);
  });

  it('rejects a target file not named from the root, which apply\'s scope would never match', async () => {
    const { repo, plan } = await plannedFixture();
    const renamed = plan.targets.map((target, index) => (index === 0 ? { ...target, file: `./${target.file}` } : index === 1 ? { ...target, file: target.file.replace('/', '//') } : target));
    const failures = await gate(repo, { ...plan, targets: renamed, scope: renamed.map((target) => target.file) });
    expect(failures).toEqual([
      `target ./${plan.targets[0]!.file}#${plan.targets[0]!.symbol}: name the file ${plan.targets[0]!.file}, from the repository's root, as apply matches its scope against that name`,
      `target ${plan.targets[1]!.file.replace('/', '//')}#${plan.targets[1]!.symbol}: name the file ${plan.targets[1]!.file}, from the repository's root, as apply matches its scope against that name`,
    ]);
  });

  it('accepts a new file inside the repository, named from its root', async () => {
    const { repo, plan } = await plannedFixture();
    expect(await gate(repo, { ...plan, scope: [...plan.scope, 'src/mask.js'], newFiles: ['src/mask.js'] })).toEqual([]);
  });
});

describe('planning on a handbook older than the files', () => {
  // Files edited since the build, with no sync between: the plan is made on the code as it is,
  // not rejected by its own gate as if its targets had changed since it was planned.
  it('plans on the live code and is accepted', async () => {
    const repo = copyOfTaskFixture();
    await buildHandbook(repo, {});
    const redact = path.join(repo, 'src/redact.js');
    writeFileSync(redact, readFileSync(redact, 'utf8').replace('  return text;', '  return text; // edited'));
    const capture = path.join(repo, 'src/capture.js');
    writeFileSync(capture, `// header\n${readFileSync(capture, 'utf8')}`);
    const { plan } = await planRequest(repo, CAPTURE_REQUEST);
    expect(plan.failures).toEqual([]);
    expect(plan.status).toBe('accepted');
    expect(plan.targets.find((target) => target.file === 'src/capture.js')).toMatchObject({ line: 10, endLine: 12 });
  });
});
