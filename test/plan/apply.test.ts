import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptanceStatuses, applyPlan, buildHandbook, handbookStatus, openHandbook, type HarnessEvent } from '../../src/index.js';
import { liveSourceOf } from '../../src/api/live-resolution.js';
import { liveUnitsOf } from '../../src/locate/live-file-units.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { act, call, writeScript } from '../helpers/harness-run.js';
import { plannedFixture } from '../helpers/plan-fixture.js';

const SCRIPT = path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json');
const turnsOf = (file: string): Array<Record<string, unknown>> => (JSON.parse(readFileSync(file, 'utf8')) as { turns: Array<Record<string, unknown>> }).turns;

async function apply(turns: Array<Record<string, unknown>>, rebuild?: Parameters<typeof buildHandbook>[1]) {
  const { repo, plan } = await plannedFixture();
  if (rebuild) await buildHandbook(repo, rebuild);
  const events: HarnessEvent[] = [];
  const result = await applyPlan(repo, plan.id, { model: `script:${writeScript(turns)}`, onEvent: (event) => events.push(event) });
  return { repo, plan, result, events };
}

describe('handbook apply', () => {
  it('executes an accepted plan to COMPLETE: checks pass, every target changed, a valid acceptance record, and the handbook re-synced', async () => {
    const { repo, plan, result, events } = await apply(turnsOf(SCRIPT));
    expect(result.run.state).toBe('COMPLETE');
    // The script declares completion once after fixing only redact: the harness refuses it, naming the targets still untouched.
    const rejected = events.filter((event) => event.type === 'complete_rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.type === 'complete_rejected' && rejected[0]!.missing).toEqual(
      expect.arrayContaining([expect.stringMatching(/check tests .* exited 1/), 'src/capture.js#captureToolOutput must change and has not', 'src/transcript.js#captureModelTurn must change and has not']),
    );
    expect(result.run.criteria.map((criterion) => [criterion.id, criterion.satisfied])).toEqual([
      ['check:tests', true],
      ['target:src/redact.js#redact', true],
      ['target:src/capture.js#captureToolOutput', true],
      ['target:src/transcript.js#captureModelTurn', true],
      ['typecheck', true],
      ['no-new-frozen', true],
    ]);
    expect(acceptanceStatuses(repo)).toEqual([expect.objectContaining({ runId: result.run.runId, valid: true })]);
    expect(JSON.parse(readFileSync(result.run.acceptance!.file, 'utf8'))).toMatchObject({ planId: plan.id });
    expect(result.sync).toMatchObject({ modified: ['src/capture.js', 'src/redact.js', 'src/transcript.js'], entries: { changed: 6, removed: 0 } });
    const status = await handbookStatus(repo);
    expect([status.fresh, status.counts.frozen]).toEqual([true, 0]);
  });

  it('refuses a write outside the plan scope, and the run goes on', async () => {
    const turns = turnsOf(SCRIPT);
    const { result, events } = await apply([act(call('create_file', { path: 'src/secrets-helper.js', content: 'export {};\n' })), ...turns]);
    expect(events.find((event) => event.type === 'tool_rejected')).toMatchObject({ tool: 'create_file', rule: 'outside-scope' });
    expect(result.run.state).toBe('COMPLETE');
  });

  it('refuses to apply a plan that went stale since it was made', async () => {
    const { repo, plan } = await plannedFixture();
    const file = path.join(repo, 'src/redact.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  return text;', '  return String(text);'));
    await expect(applyPlan(repo, plan.id, { model: `script:${SCRIPT}` })).rejects.toThrow(/went stale since it was made: target src\/redact\.js#redact: its code changed/);
  });

  // apply gates again with the handbook's own verdict on test files, as planning did: a name the
  // handbook counts as a test (src/testing/, __mocks__/) is no target, whoever edited the plan.
  it('refuses a hand-edited plan that targets a file the handbook counts as a test', async () => {
    const { repo, plan } = await plannedFixture();
    mkdirSync(path.join(repo, 'src/testing'));
    writeFileSync(path.join(repo, 'src/testing/fake-redact.js'), 'export function fakeRedact(text) {\n  return text;\n}\n');
    await buildHandbook(repo, {});
    const live = await liveUnitsOf(liveSourceOf(openHandbook(repo, { withUnresolved: false })), 'src/testing/fake-redact.js');
    const unit = 'units' in live ? live.units.get('fakeRedact')! : expect.unreachable();
    const target = { file: 'src/testing/fake-redact.js', symbol: 'fakeRedact', line: unit.startLine, endLine: unit.endLine, hash: unit.hash, action: 'modify' as const, intent: 'x', why: 'x' };
    const edited = path.join(repo, 'edited-plan.json');
    writeFileSync(edited, JSON.stringify({ ...plan, targets: [...plan.targets, target], scope: [...plan.scope, target.file] }));
    await expect(applyPlan(repo, edited, { model: `script:${SCRIPT}` })).rejects.toThrow(/went stale since it was made: target src\/testing\/fake-redact\.js#fakeRedact: it is in a test file/);
  });

  it("counts no target as changed in a file the handbook's build now leaves out, judged by its settings", async () => {
    const turns = turnsOf(SCRIPT);
    const padded = call('edit_file', { path: 'src/redact.js', old_text: '  return text;\n', new_text: `  return text.replace(/sk-[A-Za-z0-9]{8,}/g, 'sk-***');\n${'  // padding\n'.repeat(100)}` });
    // Under discovery's default size cap the padded file is code; under the cap this handbook was built with it is not.
    const { result, events } = await apply([turns[0]!, act(padded), turns[3]!, turns[4]!, act(call('task_blocked', { reason: 'redact is too large now' }))], { maxFileBytes: 1_000 });
    const missing = events.flatMap((event) => (event.type === 'complete_rejected' ? event.missing : []));
    expect(missing).toContain('src/redact.js#redact cannot count as changed: src/redact.js is now skipped as too-large');
    expect(result.run.state).toBe('BLOCKED');
  });

  it('blocks the task when the change loses a handbook entry', async () => {
    const rename = call('edit_file', { path: 'src/transcript.js', old_text: 'export function captureModelTurn(transcript, text) {\n  transcript.push(text);', new_text: 'export function captureTurn(transcript, text) {\n  transcript.push(text);' });
    const { result, events } = await apply([act(call('read_file', { path: 'src/transcript.js' })), act(rename), act(call('task_complete', { summary: 'renamed' })), act(call('task_blocked', { reason: 'cannot rename' }))]);
    const missing = events.flatMap((event) => (event.type === 'complete_rejected' ? event.missing : []));
    expect(missing).toContainEqual(expect.stringMatching(/handbook entries can no longer be found .*src\/transcript\.js#captureModelTurn/));
    expect(result.run.state).toBe('BLOCKED');
    expect(result.sync).toBeUndefined();
  });
});
