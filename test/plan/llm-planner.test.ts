import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acceptanceStatuses,
  buildHandbook,
  loadPlan,
  modelScriptSchema,
  openHandbook,
  planWithModel,
  readEventLog,
  ScriptedProvider,
  type ChatProvider,
  type ChatRequest,
  type HarnessEvent,
  type ModelPlanOptions,
} from '../../src/index.js';
import { resolveLocator } from '../../src/mcp/resolve-locator.js';
import { act, BROKEN_LINE, call, copyOfTaskFixture, FIXED_LINE, TASK_FIXTURE, writeScript } from '../helpers/harness-run.js';
import { scratchDirectory } from '../helpers/paths.js';

const REQUEST = 'mask API keys in captured tool output';
const STALE_HASH = '0000000000000000';
const PLANNER_TOOLS = ['overview', 'stage', 'entry', 'callers', 'callees', 'state', 'read_file', 'list_files', 'search', 'submit_plan', 'task_blocked', 'need_input'];

interface Locator {
  file: string;
  symbol: string;
  line: number;
  endLine: number;
  hash: string;
}

/** A copy of the task fixture with a handbook built, and the locators of its units as the handbook has them. */
async function fixtureWithHandbook(): Promise<{ repo: string; redact: Locator; capture: Locator; generation: number }> {
  const repo = copyOfTaskFixture();
  await buildHandbook(repo, {});
  const handbook = openHandbook(repo);
  const locatorOf = (id: string): Locator => {
    const unit = handbook.graph.getUnitOrThrow(id);
    return { file: unit.file, symbol: unit.symbol, line: unit.startLine, endLine: unit.endLine, hash: unit.hash };
  };
  return { repo, redact: locatorOf('src/redact.js#redact'), capture: locatorOf('src/capture.js#captureToolOutput'), generation: handbook.generation.id };
}

/** The plan a careful model submits for the request, with the locators it copied from entry. */
function submission(redact: Locator, capture: Locator, scope = ['src/redact.js']): Record<string, unknown> {
  return {
    summary: 'redact masks sk- keys, so every tool output the harness captures is masked',
    targets: [{ ...redact, action: 'modify', intent: 'replace sk- keys with sk-***', why: 'captureToolOutput passes every tool output through redact' }],
    context: [{ ...capture, relation: 'caller', why: 'it hands each captured tool output to redact' }],
    scope,
    checks: [{ name: 'test', command: 'node test/redact.test.mjs', reason: 'it tests redact on a key' }],
  };
}

/** A scripted model that keeps every request it was sent. */
function recordingModel(turns: Array<Record<string, unknown>>): { provider: ChatProvider; requests: ChatRequest[] } {
  const script = new ScriptedProvider(modelScriptSchema.parse({ turns }), 'planner');
  const requests: ChatRequest[] = [];
  return {
    requests,
    provider: {
      id: script.id,
      complete: (request) => {
        requests.push({ ...request, messages: [...request.messages] });
        return script.complete(request);
      },
    },
  };
}

async function plan(repo: string, options: ModelPlanOptions) {
  const events: HarnessEvent[] = [];
  const outcome = await planWithModel(repo, REQUEST, { ...options, onEvent: (event) => events.push(event) });
  const of = <T extends HarnessEvent['type']>(type: T) => events.filter((event): event is Extract<HarnessEvent, { type: T }> => event.type === type);
  return { ...outcome, events, of };
}

/** What the model was told in answer to one of its calls. */
function toolResult(requests: readonly ChatRequest[], callId: string): string {
  for (const request of requests) {
    const message = request.messages.find((candidate) => candidate.role === 'tool' && candidate.toolCallId === callId);
    if (message) return message.content;
  }
  throw new Error(`no request carried the result of ${callId}`);
}

describe('the llm planner', () => {
  it('navigates with read-only tools, is told the exact failure of a stale locator, resubmits, and saves an accepted plan', async () => {
    const { repo, redact, capture, generation } = await fixtureWithHandbook();
    const stale = submission(redact, { ...capture, hash: STALE_HASH });
    const model = recordingModel([
      act(call('overview')),
      act(call('search', { query: 'where is captured tool output masked?' })),
      act(call('entry', { unit: 'src/redact.js#redact' })),
      act(call('callers', { unit: 'redact' })),
      act(call('submit_plan', stale)),
      act(call('edit_file', { path: 'src/redact.js', old_text: '  return text;\n', new_text: '  return "";\n' })),
      act(call('submit_plan', submission(redact, capture))),
    ]);
    const { plan: saved, files, run, of } = await plan(repo, { provider: model.provider });

    expect(run).toMatchObject({ state: 'COMPLETE', reason: { kind: 'verified' }, steps: 7, changedFiles: [] });
    expect(run.acceptance).toBeUndefined();
    expect(of('tool_result').map((event) => [event.tool, event.ok])).toEqual([
      ['overview', true],
      ['search', true],
      ['entry', true],
      ['callers', true],
    ]);
    // entry hands out the very locator the handbook holds, which is what the plan cites.
    expect(of('tool_result')[2]!.data).toEqual({ locator: redact });
    expect(toolResult(model.requests, 'script_3_1')).toContain(`locator (cite it exactly): ${JSON.stringify(redact)}`);
    expect(toolResult(model.requests, 'script_4_1')).toContain('- src/capture.js#captureToolOutput (src/capture.js:9-11, stage results): calls it at line 10');

    const failure = `context src/capture.js#captureToolOutput: its code changed since it was planned (hash ${STALE_HASH} is now ${capture.hash})`;
    expect(of('complete_rejected')).toEqual([expect.objectContaining({ step: 5, missing: [failure] })]);
    // A first submission is progress for the stall detector, as a newly met exit criterion is for an executor.
    expect(of('progress')).toEqual([expect.objectContaining({ step: 5, missing: [failure] })]);
    expect(toolResult(model.requests, 'script_5_1')).toBe(`Not accepted: the harness checked your submit_plan and found:\n- ${failure}\nFix every one and call submit_plan again.`);

    expect(of('tool_rejected')).toEqual([expect.objectContaining({ step: 6, tool: 'edit_file', rule: 'unknown-tool' })]);
    expect(readFileSync(path.join(repo, 'src/redact.js'), 'utf8')).toBe(readFileSync(path.join(TASK_FIXTURE, 'src/redact.js'), 'utf8'));

    expect(saved).toMatchObject({ status: 'accepted', failures: [], request: REQUEST, planner: { kind: 'llm', model: 'script:planner' }, generation, typecheck: true, scope: ['src/redact.js'], newFiles: [], risks: [] });
    expect(saved.targets).toEqual([expect.objectContaining(redact)]);
    expect(saved.context).toEqual([expect.objectContaining(capture)]);
    expect(loadPlan(repo, saved.id)).toEqual(saved);
    expect(readFileSync(files.markdown, 'utf8')).toContain('by the llm planner (script:planner)');
    // The planner wrote nothing to vouch for: no acceptance record, only the plan and the run's log.
    expect(acceptanceStatuses(repo)).toEqual([]);
    expect(readEventLog(run.eventLog).at(-1)).toMatchObject({ type: 'run_finished', state: 'COMPLETE' });
  });

  it('offers only the read-only planner tools and submit_plan, and refuses task_complete and every write', async () => {
    const { repo, redact, capture } = await fixtureWithHandbook();
    const model = recordingModel([
      act(call('task_complete', { summary: 'planned' })),
      act(call('create_file', { path: 'src/plan.md', content: 'a plan' })),
      act(call('run_command', { command: 'touch src/x.js' })),
      act(call('submit_plan', { summary: 'no targets yet' })),
      act(call('submit_plan', submission(redact, capture))),
    ]);
    const { run, of } = await plan(repo, { provider: model.provider });

    expect(run.state).toBe('COMPLETE');
    for (const request of model.requests) expect(request.tools?.map((tool) => tool.name)).toEqual(PLANNER_TOOLS);
    expect(model.requests[0]!.system).toContain('You may only read');
    expect(model.requests[0]!.system).toContain('exactly one of submit_plan, task_blocked or need_input');
    expect(of('tool_rejected').map((event) => [event.tool, event.rule])).toEqual([
      ['task_complete', 'unknown-tool'],
      ['create_file', 'unknown-tool'],
      ['run_command', 'unknown-tool'],
      ['submit_plan', 'invalid-arguments'],
    ]);
    expect(toolResult(model.requests, 'script_4_1')).toMatch(/^Rejected \(invalid-arguments\): the arguments of submit_plan are not valid: targets: /);
    expect(existsSync(path.join(repo, 'src/plan.md'))).toBe(false);
    expect(existsSync(path.join(repo, 'src/x.js'))).toBe(false);
  });

  it('rejects a plan whose target lies outside its scope, and saves the last submission as rejected when the model gives up', async () => {
    const { repo, redact, capture } = await fixtureWithHandbook();
    const script = writeScript([act(call('submit_plan', submission(redact, capture, ['src/capture.js']))), act(call('task_blocked', { reason: 'the scope cannot be settled' }))]);
    const { plan: saved, files, run, of } = await plan(repo, { model: `script:${script}`, providerOptions: { baseDelayMs: 1, maxDelayMs: 5 } });

    const failures = [
      "target src/redact.js#redact: src/redact.js is outside the plan's scope (src/capture.js)",
      "scope src/capture.js is neither a target's file nor a new file the plan names: the scope is what the plan changes, nothing wider",
    ];
    expect(of('complete_rejected').map((event) => event.missing)).toEqual([failures]);
    expect(run).toMatchObject({ state: 'BLOCKED', reason: { kind: 'model_blocked' } });
    expect(saved).toMatchObject({ status: 'rejected', failures, planner: { kind: 'llm', model: `script:${script}` } });
    expect(loadPlan(repo, saved.id).status).toBe('rejected');
    expect(existsSync(files.json)).toBe(true);
  });

  it('saves nothing when the model never submits a plan', async () => {
    const { repo } = await fixtureWithHandbook();
    const model = recordingModel([act(call('overview')), act(call('task_blocked', { reason: 'the request is unclear' }))]);
    await expect(planWithModel(repo, REQUEST, { provider: model.provider })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'the planner did not produce a plan: the run ended BLOCKED (the request is unclear)',
    });
    expect(existsSync(path.join(repo, '.handbook', 'plans'))).toBe(false);
  });

  it('refuses to start without a handbook (NO_HANDBOOK), before asking the model anything', async () => {
    const repo = copyOfTaskFixture();
    const model = recordingModel([act(call('overview'))]);
    await expect(planWithModel(repo, REQUEST, { provider: model.provider })).rejects.toMatchObject({ code: 'NO_HANDBOOK' });
    expect(model.requests).toEqual([]);
    expect(existsSync(path.join(repo, '.handbook'))).toBe(false);
  });

  it('leaves no run folder behind when it fails before its first event, and keeps the log of a run that started', async () => {
    const { repo } = await fixtureWithHandbook();
    const runs = path.join(repo, '.handbook', 'runs');
    const runFolders = () => (existsSync(runs) ? readdirSync(runs).sort() : []);
    mkdirSync(path.join(runs, 'an-earlier-run'), { recursive: true });
    // Fails at once: the loop reads the provider's id for run_started, its first event.
    const broken: ChatProvider = {
      get id(): string {
        throw new Error('no id');
      },
      complete: () => Promise.reject(new Error('never asked')),
    };
    await expect(planWithModel(repo, REQUEST, { model: 'test:broken', provider: broken })).rejects.toThrow('no id');
    expect(runFolders()).toEqual(['an-earlier-run']);

    const model = recordingModel([act(call('overview'))]);
    await expect(planWithModel(repo, REQUEST, { provider: model.provider, maxSteps: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'maxSteps must be a positive integer up to 9007199254740991, not 0' });
    await expect(planWithModel(repo, REQUEST, { provider: model.provider, maxTokens: 2.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'maxTokens must be a positive integer up to 9007199254740991, not 2.5' });
    // Past the safe range the task schema refused it instead, with a zod dump the CLI called a bug.
    await expect(planWithModel(repo, REQUEST, { provider: model.provider, maxSteps: 2 ** 64 })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'maxSteps must be a positive integer up to 9007199254740991, not 18446744073709552000' });
    expect(model.requests).toHaveLength(0);
    expect(runFolders()).toEqual(['an-earlier-run']);

    const crashing: ChatProvider = { id: 'test:crashing', complete: () => Promise.reject(new TypeError('a bug in the provider')) };
    await expect(planWithModel(repo, REQUEST, { provider: crashing })).rejects.toThrow('a bug in the provider');
    const started = runFolders().filter((folder) => folder !== 'an-earlier-run');
    expect(started).toEqual([expect.stringMatching(/-plan-/)]);
    expect(readEventLog(path.join(runs, started[0]!, 'events.jsonl'))[0]).toMatchObject({ type: 'run_started', runId: started[0] });
  });

  it('navigates stages, files, callees and state, and cites the live code when the handbook is behind it', async () => {
    const { repo, redact } = await fixtureWithHandbook();
    const file = path.join(repo, 'src/redact.js');
    writeFileSync(file, `// moved down a line\n${readFileSync(file, 'utf8')}`);
    const model = recordingModel([
      act(call('stage', { id: 'security' })),
      act(call('stage', { id: 'nowhere' })),
      act(call('entry', { unit: 'src/capture.js' })),
      act(call('entry', { unit: 'redact' })),
      act(call('callees', { unit: 'src/capture.js#captureToolOutput' })),
      act(call('state', { slot: 'Session.secrets' })),
      act(call('entry', { unit: 'mask' })),
      act(call('task_blocked', { reason: 'only looking' })),
    ]);
    await expect(planWithModel(repo, REQUEST, { provider: model.provider })).rejects.toThrow(/did not produce a plan/);

    expect(toolResult(model.requests, 'script_1_1')).toMatch(/^3\. security: Secrets and sandboxing\n[^]*units: 1\n- src\/redact\.js#redact \(function, lines 7-9\)$/);
    expect(toolResult(model.requests, 'script_2_1')).toMatch(/^Rejected \(not-found\): no stage "nowhere" \(stages: agent-loop, results, security, /);
    expect(toolResult(model.requests, 'script_3_1')).toContain('- function {"file":"src/capture.js","symbol":"captureToolOutput","line":9,"endLine":11,"hash":"');
    const moved = { ...redact, line: redact.line + 1, endLine: redact.endLine + 1 };
    expect(toolResult(model.requests, 'script_4_1')).toContain(`the file changed since the handbook was built: the locator below is the live one\nlocator (cite it exactly): ${JSON.stringify(moved)}`);
    expect(toolResult(model.requests, 'script_5_1')).toContain('- src/redact.js#redact (src/redact.js:7-9, stage security): called at line 10');
    expect(toolResult(model.requests, 'script_6_1')).toBe('Rejected (not-found): no state slot named "Session.secrets": the overview lists state shared across stages; entry shows the state a unit touches');
    expect(toolResult(model.requests, 'script_7_1')).toMatch(/^Rejected \(not-found\): no unit named "mask": search and stage list units by id/);
  });

  it('is given by search the hash of the code as it stands now, as ask gives it, and the plan gate takes that locator', async () => {
    const { repo, redact, capture } = await fixtureWithHandbook();
    const file = path.join(repo, 'src/redact.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace(BROKEN_LINE, FIXED_LINE));
    const live = (await resolveLocator(openHandbook(repo), { file: redact.file, symbol: redact.symbol })).hash!;
    expect(live).not.toBe(redact.hash);
    const model = recordingModel([
      act(call('search', { query: 'where is captured tool output masked?' })),
      act(call('submit_plan', submission({ ...redact, hash: live }, capture))),
    ]);
    const { plan: saved } = await plan(repo, { provider: model.provider });

    expect(toolResult(model.requests, 'script_1_1')).toContain(`src/redact.js:6-8 redact (hash ${live}) [security] — `);
    expect(saved).toMatchObject({ status: 'accepted', failures: [] });
  });

  it('is told a file analysis now leaves out has nothing to cite, in the words the plan gate and status use', async () => {
    const { repo, redact, capture } = await fixtureWithHandbook();
    // Still parseable, and its units unmoved: only the build's rules leave these files out now.
    appendFileSync(path.join(repo, 'src/redact.js'), '// @generated by a tool\n');
    const captureFile = path.join(repo, 'src/capture.js');
    const outside = path.join(scratchDirectory(), 'capture.js');
    writeFileSync(outside, readFileSync(captureFile));
    rmSync(captureFile);
    symlinkSync(outside, captureFile);
    const model = recordingModel([
      act(call('entry', { unit: 'redact' })),
      act(call('entry', { unit: 'src/capture.js' })),
      act(call('submit_plan', submission(redact, capture))),
      act(call('task_blocked', { reason: 'the code is no longer analyzed' })),
    ]);
    const { plan: saved } = await plan(repo, { provider: model.provider });

    expect(toolResult(model.requests, 'script_1_1')).toMatch(/\nsrc\/redact\.js is now skipped as generated: a plan cannot cite it$/);
    expect(toolResult(model.requests, 'script_2_1')).toMatch(/\nsrc\/capture\.js \(a symlink\) is now skipped as symlink-outside: a plan cannot cite it$/);
    expect(saved.status).toBe('rejected');
    expect(saved.failures).toEqual(
      expect.arrayContaining(['target src/redact.js#redact: src/redact.js is now skipped as generated', 'context src/capture.js#captureToolOutput: src/capture.js (a symlink) is now skipped as symlink-outside']),
    );
  });
});
