import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildHandbook, type BuildOptions } from '../../src/api/build-handbook.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import type { RecordedRequest, ScriptedReply } from '../llm/fake-http-server.js';
import { anthropicError, anthropicStream, startFakeAnthropic } from '../llm/fake-anthropic-server.js';
import { openAiError, openAiToolCallStream, startFakeOpenAi } from '../llm/fake-openai-server.js';
import { FIXTURE, scratchDirectory } from '../helpers/paths.js';
import { EXPECTED_STAGES } from './expected-stages.js';

const EXPECTED = new Map(EXPECTED_STAGES);
const UNIT_COUNT = EXPECTED_STAGES.length;

/** What the fake model answers to one request: the tool it calls and its arguments, or a failure. */
type ModelTurn = { tool: string; arguments: string } | { failure: 'rate-limit' | 'server-error' };
type ModelBehaviour = (request: { tool: string; askedUnits: string[]; index: number; text: string }) => ModelTurn;

function requestText(body: unknown): { tool: string; text: string } {
  const request = body as { tools?: Array<{ name?: string; function?: { name: string } }>; messages: Array<{ role: string; content: unknown }> };
  const tool = request.tools?.[0]?.name ?? request.tools?.[0]?.function?.name ?? '';
  const text = request.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');
  return { tool, text };
}

function askedUnits(text: string): string[] {
  return [...text.matchAll(/(?:^|\\n|\n)([^\s\\]+#[^\s\\]+) \(/g)].map((match) => match[1]!);
}

/** A model that knows the fixture: it answers each unit with the stage a maintainer expects. */
const PROPOSAL = {
  refined: [{ id: 'security', name: 'Secrets and redaction', description: 'Masks credentials in whatever the harness captures' }],
  added: [{ id: 'hooks', name: 'Lifecycle hooks', description: 'Callbacks fired around model calls and tool results', hints: ['hook', 'hooks'] }],
};

/** The behaviour ids a naming request shows, in order. */
function askedBehaviors(text: string): string[] {
  return [...text.matchAll(/behaviour (\S+): offline name/g)].map((match) => match[1]!);
}

const knowledgeableModel: ModelBehaviour = ({ tool, askedUnits: units, text }) => {
  if (tool === 'propose_stages') return { tool, arguments: JSON.stringify(PROPOSAL) };
  if (tool === 'name_behaviors') return { tool, arguments: JSON.stringify({ behaviors: askedBehaviors(text).map((id) => ({ id, name: `Model name of ${id}`, summary: 'A model-written line about this behaviour.' })) }) };
  if (tool === 'write_summary') return { tool, arguments: JSON.stringify({ summary: 'A model-written paragraph about this stage of the mini harness and the units that matter in it.' }) };
  return { tool, arguments: JSON.stringify({ assignments: units.map((unit) => ({ unit, stages: [EXPECTED.get(unit)![0]] })) }) };
};

interface ProviderKind {
  name: string;
  start: (respond: (request: RecordedRequest, index: number) => ScriptedReply) => Promise<{ url: string; requests: RecordedRequest[] }>;
  options: (url: string) => BuildOptions;
  reply: (turn: ModelTurn, index: number) => ScriptedReply;
}

const fastRetries = { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 };

const PROVIDERS: ProviderKind[] = [
  {
    name: 'anthropic',
    start: (respond) => startFakeAnthropic(respond),
    options: (url) => ({ model: 'anthropic:claude-test', provider: { env: { ANTHROPIC_API_KEY: 'sk-ant-test' }, baseUrlOverride: url, ...fastRetries } }),
    reply: (turn, index) =>
      'failure' in turn
        ? anthropicError(turn.failure === 'rate-limit' ? 429 : 500, turn.failure === 'rate-limit' ? 'rate_limit_error' : 'api_error', 'try later', turn.failure === 'rate-limit' ? { 'retry-after-ms': '5' } : {})
        : anthropicStream([{ type: 'tool_use', id: `toolu_${index}`, name: turn.tool, jsonPieces: [turn.arguments.slice(0, 10), turn.arguments.slice(10)] }], { stopReason: 'tool_use' }),
  },
  {
    name: 'openai',
    start: (respond) => startFakeOpenAi(respond),
    options: (url) => ({ model: 'openai:gpt-test', provider: { env: { OPENAI_API_KEY: 'sk-test' }, baseUrlOverride: `${url}/v1`, ...fastRetries } }),
    reply: (turn, index) =>
      'failure' in turn
        ? openAiError(turn.failure === 'rate-limit' ? 429 : 500, turn.failure === 'rate-limit' ? 'rate_limit_exceeded' : 'server_error', 'try later', turn.failure === 'rate-limit' ? { 'retry-after-ms': '5' } : {})
        : openAiToolCallStream({ id: `call_${index}`, name: turn.tool, argumentPieces: [turn.arguments.slice(0, 10), turn.arguments.slice(10)] }),
  },
  {
    name: 'openai-compatible',
    start: (respond) => startFakeOpenAi(respond),
    options: (url) => ({ model: `openai-compatible:qwen-test@${url}/v1`, provider: { env: {}, ...fastRetries } }),
    reply: (turn, index) =>
      'failure' in turn
        ? openAiError(turn.failure === 'rate-limit' ? 429 : 500, 'error', 'try later', turn.failure === 'rate-limit' ? { 'retry-after-ms': '5' } : {})
        : openAiToolCallStream({ id: `call_${index}`, name: turn.tool, argumentPieces: [turn.arguments] }),
  },
];

async function serve(kind: ProviderKind, behaviour: ModelBehaviour) {
  return kind.start((request, index) => {
    const { tool, text } = requestText(request.body);
    return kind.reply(behaviour({ tool, askedUnits: askedUnits(text), index, text }), index);
  });
}

function primaryStages(database: string) {
  const handbook = openHandbook(FIXTURE, { database });
  return { handbook, stageOf: new Map(handbook.organized.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => [member.unit, stage.id] as const))) };
}

describe.each(PROVIDERS)('the llm stager through $name', (kind) => {
  it('places every unit as the model says, writes model summaries, and labels the handbook llm', async () => {
    const server = await serve(kind, knowledgeableModel);
    const database = path.join(scratchDirectory(), 'handbook.db');
    const summary = await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    expect(summary.stager).toEqual({ kind: 'llm', model: expect.stringContaining(kind.name === 'openai-compatible' ? 'openai-compatible' : kind.name), fallbackUnits: 0 });
    expect(summary.model).toMatchObject({ fallbackUnits: 0, fallbackSummaries: 0, rejected: [] });
    const { handbook, stageOf } = primaryStages(database);
    const wrong = EXPECTED_STAGES.filter(([unit, stages]) => stageOf.get(unit) !== stages[0]);
    expect(wrong).toEqual([]);
    expect(handbook.organized.stages.find((stage) => stage.id === 'security')!.summary).toMatch(/^A model-written paragraph/);
    // Every behaviour named by the model, under the offline id it keeps.
    const behaviors = handbook.organized.stages.flatMap((stage) => stage.behaviors);
    expect(behaviors.length).toBeGreaterThan(0);
    for (const behavior of behaviors) expect(behavior).toMatchObject({ name: `Model name of ${behavior.id}`, summary: 'A model-written line about this behaviour.' });
    expect(summary.model).toMatchObject({ fallbackBehaviorNames: 0 });
    // The model proposed the stages: one renamed for this harness, one added.
    expect(handbook.organized.stages.find((stage) => stage.id === 'security')!.name).toBe('Secrets and redaction');
    expect(handbook.organized.stages.map((stage) => stage.id)).toContain('hooks');
    expect(JSON.stringify(server.requests[0]!.body)).toContain('propose_stages');
    const assigning = server.requests.map((request) => JSON.stringify(request.body)).filter((body) => body.includes('assign_stages'));
    expect(assigning.length).toBeGreaterThan(0);
    expect(assigning.join('\n')).toContain('src/security/secrets.ts#maskSecrets (function)');
  });

  it('asks again only about what changed: a rebuild is answered from the cache', async () => {
    const server = await serve(kind, knowledgeableModel);
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    const calls = server.requests.length;
    const again = await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    expect(server.requests.length).toBe(calls);
    expect(again.model).toMatchObject({ calls: 0, cachedUnits: UNIT_COUNT, fallbackUnits: 0 });
  });

  it('keeps the offline name of a behaviour the model leaves out or answers for an id it was not shown', async () => {
    const server = await serve(kind, (request) => {
      if (request.tool !== 'name_behaviors') return knowledgeableModel(request);
      const ids = askedBehaviors(request.text);
      const answers = [...ids.filter((_, position) => position % 2 === 0).map((id) => ({ id, name: `Model name of ${id}`, summary: 'A model-written line about this behaviour.' })), { id: 'nowhere/made-up', name: 'Made up', summary: 'A behaviour nobody asked about.' }];
      return { tool: request.tool, arguments: JSON.stringify({ behaviors: answers }) };
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    const summary = await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    const behaviors = openHandbook(FIXTURE, { database }).organized.stages.flatMap((stage) => stage.behaviors);
    const modelNamed = behaviors.filter((behavior) => behavior.name === `Model name of ${behavior.id}`);
    expect(modelNamed.length).toBeGreaterThan(0);
    expect(summary.model!.fallbackBehaviorNames).toBe(behaviors.length - modelNamed.length);
    expect(summary.model!.fallbackBehaviorNames).toBeGreaterThan(0);
    // Those left out keep the offline name: the words of their members, never blank.
    for (const behavior of behaviors.filter((each) => !modelNamed.includes(each))) expect(behavior.name).toMatch(/\w/);
    expect(summary.model!.rejected).toEqual(expect.arrayContaining(['unknown behaviour id: nowhere/made-up']));
  });

  it('rejects unknown unit and stage ids, re-asks for skipped units, and falls back for what stays missing', async () => {
    const server = await serve(kind, ({ tool, askedUnits: units, index, text }) => {
      if (tool !== 'assign_stages') return knowledgeableModel({ tool, askedUnits: units, index, text });
      // Answers half the units each time, invents a unit and a stage, and never answers the hooks type.
      const answered = units.filter((unit, position) => position % 2 === 0 && !unit.endsWith('#Hooks'));
      const assignments = [
        ...answered.map((unit) => ({ unit, stages: [EXPECTED.get(unit)![0]] })),
        { unit: 'src/made/up.ts#nothing', stages: ['startup'] },
        ...(units[0] ? [{ unit: units[0], stages: ['teleportation'] }] : []),
      ];
      return { tool, arguments: JSON.stringify({ assignments }) };
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    const summary = await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    expect(summary.model!.rejected).toEqual(expect.arrayContaining([expect.stringMatching(/^unknown unit id: src\/made\/up\.ts#nothing/), expect.stringMatching(/^unknown stage id: teleportation/)]));
    expect(summary.stager.kind).toBe('llm');
    expect(summary.model!.fallbackUnits).toBeGreaterThan(0);
    expect(summary.model!.fallbackUnits).toBeLessThan(UNIT_COUNT / 4);
    const { stageOf, handbook } = primaryStages(database);
    expect(stageOf.size + handbook.organized.unassigned.length).toBe(UNIT_COUNT);
  });

  it('survives a model that returns garbage: the offline stager places everything and the handbook is whole', async () => {
    const server = await serve(kind, ({ tool }) => ({ tool, arguments: '{"assignments": [ {"unit": ' }));
    const database = path.join(scratchDirectory(), 'handbook.db');
    const summary = await buildHandbook(FIXTURE, { database, ...kind.options(server.url) });
    expect(summary.stager).toMatchObject({ kind: 'llm', fallbackUnits: UNIT_COUNT });
    expect(summary.model!.rejected[0]).toMatch(/^stage proposal: malformed output \(the arguments of the call to propose_stages are not valid JSON/);
    expect(summary.model!.rejected[1]).toMatch(/^malformed output: the arguments of the call to assign_stages are not valid JSON/);
    const offline = path.join(scratchDirectory(), 'offline.db');
    await buildHandbook(FIXTURE, { database: offline });
    expect([...primaryStages(database).stageOf]).toEqual([...primaryStages(offline).stageOf]);
  });

  it('waits out a rate limit and keeps going; gives a batch to the offline stager after repeated server errors', async () => {
    const limited = await serve(kind, (request) => (request.index === 0 ? { failure: 'rate-limit' } : knowledgeableModel(request)));
    const first = await buildHandbook(FIXTURE, { database: path.join(scratchDirectory(), 'a.db'), ...kind.options(limited.url) });
    expect(first.model).toMatchObject({ fallbackUnits: 0, rejected: [] });
    const failing = await serve(kind, (request) => (request.tool === 'assign_stages' ? { failure: 'server-error' } : knowledgeableModel(request)));
    const second = await buildHandbook(FIXTURE, { database: path.join(scratchDirectory(), 'b.db'), ...kind.options(failing.url) });
    expect(second.model!.fallbackUnits).toBe(UNIT_COUNT);
    expect(second.model!.rejected[0]).toMatch(/provider error \(server\)/);
  });

  it('asks no more after a refused key: one request, then the offline stager places every unit and keeps every summary', async () => {
    const refusing = await kind.start(() => (kind.name === 'anthropic' ? anthropicError(401, 'authentication_error', 'invalid x-api-key') : openAiError(401, 'invalid_api_key', 'Incorrect API key provided')));
    const summary = await buildHandbook(FIXTURE, { database: path.join(scratchDirectory(), 'handbook.db'), ...kind.options(refusing.url) });
    expect(refusing.requests).toHaveLength(1);
    expect(summary.model).toMatchObject({ calls: 1, fallbackUnits: UNIT_COUNT, fallbackSummaries: summary.stages.filter((stage) => stage.members > 0).length });
    expect(summary.model!.rejected[0]).toMatch(/^stage proposal: provider error \(auth\)/);
  });
});

describe('a model server that cannot be reached', () => {
  it('costs one call\'s retries, not every batch\'s and every summary\'s: the rest is placed offline without asking', async () => {
    let connections = 0;
    // Accepts, then drops every connection: what a crashed or misconfigured server looks like to the client.
    const server = createServer((request) => {
      connections += 1;
      request.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const summary = await buildHandbook(FIXTURE, { database: path.join(scratchDirectory(), 'handbook.db'), model: `openai-compatible:qwen-test@${url}`, provider: { env: {}, ...fastRetries } });
    expect(connections).toBe(fastRetries.maxAttempts);
    expect(summary.model).toMatchObject({ calls: 1, fallbackUnits: UNIT_COUNT });
    expect(summary.model!.rejected[0]).toMatch(/^stage proposal: provider error \(network\)/);
    expect(summary.model!.rejected[1]).toMatch(/not asked, an earlier call failed/);
  });
});
