import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runTask, type CreateProviderOptions, type HarnessEvent, type RunTaskResult, type ToolMode } from '../../src/index.js';
import { COMPLETE, copyOfTaskFixture, FIX_REDACT, FIXED_LINE, FIXTURE_CHECK, READ_REDACT } from '../helpers/harness-run.js';
import { anthropicError, anthropicFrames, anthropicStream, sseEvent, startFakeAnthropic } from '../llm/fake-anthropic-server.js';
import type { FakeServer, ScriptedReply } from '../llm/fake-http-server.js';
import { chunk, dataLine, openAiError, openAiFrames, openAiTextStream, openAiToolCallStream, startFakeOpenAi } from '../llm/fake-openai-server.js';

/**
 * The harness loop driven through each real SDK (@anthropic-ai/sdk, openai) against a local
 * server that speaks the provider's streaming protocol: every model turn is a scripted SSE
 * reply, and every request the loop sent is recorded, so the tests see both sides of the wire.
 */

const ENV = { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef', OPENAI_API_KEY: 'sk-proj-test-0123456789abcdef' };
const FAST: CreateProviderOptions = { baseDelayMs: 1, maxDelayMs: 5 };
const TASK = { text: 'Mask API keys in captured tool output.', exitCriteria: { checks: [FIXTURE_CHECK] } };

type Call = typeof READ_REDACT;
type Wire = 'anthropic' | 'openai' | 'compatible';

// ---------------------------------------------------------------------------------------------
// Turns, as each protocol streams them
// ---------------------------------------------------------------------------------------------

/** Cuts text into `parts` pieces of (nearly) equal length, so that JSON breaks mid-token. */
function splitInto(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** An Anthropic turn: a short text block, then a tool_use block whose input arrives as input_json_delta pieces. */
function anthropicToolTurn(id: string, call: Call): ScriptedReply {
  return anthropicStream([
    { type: 'text', pieces: ['Working on ', 'it.'] },
    { type: 'tool_use', id, name: call.name, jsonPieces: splitInto(JSON.stringify(call.arguments), 4) },
  ]);
}

/** An OpenAI turn: one tool call whose arguments arrive in several tool_calls deltas. */
function openAiToolTurn(id: string, call: Call): ScriptedReply {
  return openAiToolCallStream({ id, name: call.name, argumentPieces: splitInto(JSON.stringify(call.arguments), 4) });
}

/** A json_text action as a model writes it: prose, then a fenced ```json block. */
function jsonTextAction(call: Call): string {
  return `I will use ${call.name}.\n\`\`\`json\n${JSON.stringify({ tool: call.name, arguments: call.arguments })}\n\`\`\`\n`;
}

/** The json_constrained answer: `{"actions":[{"tool":..., "arguments":"<JSON string>"}]}`. */
function constrainedAnswer(call: Call): string {
  return JSON.stringify({ actions: [{ tool: call.name, arguments: JSON.stringify(call.arguments) }] });
}

/** What a server answers once the script is spent: a 400, which is never retried, so a test that runs long fails fast. */
function exhausted(wire: Wire): ScriptedReply {
  return wire === 'anthropic'
    ? anthropicError(400, 'invalid_request_error', 'the fake server has no more turns')
    : openAiError(400, 'invalid_request_error', 'the fake server has no more turns');
}

// ---------------------------------------------------------------------------------------------
// Running a task against a fake server
// ---------------------------------------------------------------------------------------------

/** A fake server of the given protocol answering request n with turn n. */
function startWire(wire: Wire, turns: ScriptedReply[]): Promise<FakeServer> {
  const reply = (_request: unknown, index: number): ScriptedReply => turns[index] ?? exhausted(wire);
  return wire === 'anthropic' ? startFakeAnthropic(reply) : startFakeOpenAi(reply, '/v1');
}

/** The model spec and provider options that point the real SDK at the server. */
function modelAt(wire: Wire, server: FakeServer): { model: string; providerOptions: CreateProviderOptions } {
  switch (wire) {
    case 'anthropic':
      return { model: 'anthropic:claude-test', providerOptions: { ...FAST, env: ENV, baseUrlOverride: server.url } };
    case 'openai':
      return { model: 'openai:gpt-test', providerOptions: { ...FAST, env: ENV, baseUrlOverride: `${server.url}/v1` } };
    case 'compatible':
      // The URL travels in the spec, as `--model openai-compatible:MODEL@URL` has it; no key is set.
      return { model: `openai-compatible:qwen2.5-coder:7b@${server.url}/v1`, providerOptions: { ...FAST, env: {} } };
  }
}

interface WireRun {
  result: RunTaskResult;
  events: HarnessEvent[];
  repo: string;
  server: FakeServer;
  of<T extends HarnessEvent['type']>(type: T): Array<Extract<HarnessEvent, { type: T }>>;
}

async function runOnWire(
  wire: Wire,
  turns: ScriptedReply[],
  options: { toolMode?: ToolMode; providerOptions?: CreateProviderOptions } = {},
): Promise<WireRun> {
  const server = await startWire(wire, turns);
  const { model, providerOptions } = modelAt(wire, server);
  const repo = copyOfTaskFixture();
  const events: HarnessEvent[] = [];
  const result = await runTask(repo, {
    task: TASK,
    model,
    toolMode: options.toolMode ?? 'native',
    providerOptions: { ...providerOptions, ...options.providerOptions },
    onEvent: (event) => events.push(event),
  });
  return {
    result,
    events,
    repo,
    server,
    of: <T extends HarnessEvent['type']>(type: T) => events.filter((event): event is Extract<HarnessEvent, { type: T }> => event.type === type),
  };
}

/**
 * An SSE server whose first reply drops the connection once its frames have reached the client;
 * later requests get whole streams. The shared fake's `cut` reply cannot do this: it destroys the
 * socket in the same tick as it writes, before the frames leave, so the client sees a connection
 * that failed before any response rather than a stream that broke off.
 */
async function startDroppingServer(route: string, replies: string[][]): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (piece: Buffer) => chunks.push(piece));
    request.on('end', () => {
      const index = bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) - 1;
      if (request.url !== route) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frames = replies[index] ?? [];
      if (index > 0) {
        for (const frame of frames) response.write(frame);
        response.end();
        return;
      }
      response.write(frames.join(''), () => setTimeout(() => response.socket?.destroy(), 5));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

function expectRedactFixed(run: WireRun): void {
  expect(run.result.state).toBe('COMPLETE');
  expect(run.result.reason.kind).toBe('verified');
  expect(run.result.changedFiles).toEqual(['src/redact.js']);
  expect(readFileSync(path.join(run.repo, 'src/redact.js'), 'utf8')).toContain(FIXED_LINE);
  expect(run.of('check_result').map((event) => [event.name, event.exitCode])).toEqual([['test', 0]]);
}

// ---------------------------------------------------------------------------------------------
// The request bodies, as far as the tests read them
// ---------------------------------------------------------------------------------------------

interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string;
  is_error?: boolean;
}
interface AnthropicBody {
  model: string;
  stream: boolean;
  system?: string;
  messages: Array<{ role: string; content: AnthropicBlock[] }>;
  tools?: Array<{ name: string; input_schema: Record<string, unknown> }>;
  tool_choice?: unknown;
  output_config?: { format: { type: string; schema: ConstrainedSchema } };
}

interface OpenAiMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
}
interface OpenAiBody {
  model: string;
  stream: boolean;
  messages: OpenAiMessage[];
  tools?: Array<{ type: string; function: { name: string } }>;
  tool_choice?: unknown;
  response_format?: { type: string; json_schema: { name: string; strict: boolean; schema: ConstrainedSchema } };
}

interface ConstrainedSchema {
  properties: { actions: { type: string; items: { properties: { tool: { enum: string[] }; arguments: { type: string } }; required: string[] } } };
}

function anthropicBodies(server: FakeServer): AnthropicBody[] {
  return server.requests.map((request) => request.body as AnthropicBody);
}

function openAiBodies(server: FakeServer): OpenAiBody[] {
  return server.requests.map((request) => request.body as OpenAiBody);
}

// ---------------------------------------------------------------------------------------------

describe('the harness loop through the real SDKs, at the wire', () => {
  describe('native tool calling', () => {
    it('Anthropic: streamed tool_use blocks drive read → edit → complete, and each tool_result answers its tool_use id', async () => {
      const run = await runOnWire('anthropic', [
        anthropicToolTurn('toolu_read', READ_REDACT),
        anthropicToolTurn('toolu_edit', FIX_REDACT),
        anthropicToolTurn('toolu_done', COMPLETE),
      ]);
      expectRedactFixed(run);
      expect(run.result.modelWords).toBe(COMPLETE.arguments.summary);
      expect(run.result.steps).toBe(3);
      // 25 input and 12 output tokens per turn, as message_start and message_delta report them.
      expect(run.result.usage).toEqual({ inputTokens: 75, outputTokens: 36 });
      expect(run.of('tool_proposed').map((event) => [event.callId, event.tool, event.arguments])).toEqual([
        ['toolu_read', 'read_file', READ_REDACT.arguments],
        ['toolu_edit', 'edit_file', FIX_REDACT.arguments],
        ['toolu_done', 'task_complete', COMPLETE.arguments],
      ]);
      expect(run.of('tool_result').map((event) => [event.callId, event.ok])).toEqual([
        ['toolu_read', true],
        ['toolu_edit', true],
      ]);

      const bodies = anthropicBodies(run.server);
      expect(bodies).toHaveLength(3);
      const [first, second, third] = bodies as [AnthropicBody, AnthropicBody, AnthropicBody];
      expect(run.server.requests.every((request) => request.path === '/v1/messages')).toBe(true);
      expect(first).toMatchObject({ model: 'claude-test', stream: true, tool_choice: { type: 'auto' } });
      expect(first.output_config).toBeUndefined();
      expect(first.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'task_complete']));
      expect(first.messages).toHaveLength(1);
      expect(first.messages[0]?.content[0]?.text).toContain(FIXTURE_CHECK.command);

      // The assistant turn goes back as text + tool_use, and its result is the next user turn.
      expect(second.messages).toHaveLength(3);
      expect(second.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Working on it.' },
          { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: READ_REDACT.arguments },
        ],
      });
      const readResult = second.messages[2]!;
      expect(readResult.role).toBe('user');
      expect(readResult.content).toHaveLength(1);
      expect(readResult.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_read' });
      expect(readResult.content[0]?.is_error).toBeUndefined();
      expect(readResult.content[0]?.content).toContain('return text;');

      expect(third.messages).toHaveLength(5);
      expect(third.messages[3]?.content.at(-1)).toMatchObject({ type: 'tool_use', id: 'toolu_edit', input: FIX_REDACT.arguments });
      expect(third.messages[4]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_edit' });
    });

    it('OpenAI: streamed tool_calls drive read → edit → complete, and each tool message answers its tool_call id', async () => {
      const run = await runOnWire('openai', [openAiToolTurn('call_read', READ_REDACT), openAiToolTurn('call_edit', FIX_REDACT), openAiToolTurn('call_done', COMPLETE)]);
      expectRedactFixed(run);
      expect(run.result.usage).toEqual({ inputTokens: 75, outputTokens: 36 });
      expect(run.of('tool_proposed').map((event) => [event.callId, event.tool])).toEqual([
        ['call_read', 'read_file'],
        ['call_edit', 'edit_file'],
        ['call_done', 'task_complete'],
      ]);

      const bodies = openAiBodies(run.server);
      expect(bodies).toHaveLength(3);
      const [first, second, third] = bodies as [OpenAiBody, OpenAiBody, OpenAiBody];
      expect(run.server.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
      expect(first).toMatchObject({ model: 'gpt-test', stream: true, tool_choice: 'auto' });
      expect(first.response_format).toBeUndefined();
      expect(first.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'task_complete']));
      expect(first.messages.map((message) => message.role)).toEqual(['system', 'user']);

      // The assistant turn carries the call with its arguments re-serialised; the tool message answers its id.
      expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
      const [, , assistant, tool] = second.messages as [OpenAiMessage, OpenAiMessage, OpenAiMessage, OpenAiMessage];
      expect(assistant.content).toBeNull();
      expect(assistant.tool_calls).toEqual([{ id: 'call_read', type: 'function', function: { name: 'read_file', arguments: JSON.stringify(READ_REDACT.arguments) } }]);
      expect(tool.tool_call_id).toBe('call_read');
      expect(tool.content).toContain('return text;');

      expect(third.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
      expect(third.messages[4]?.tool_calls?.[0]).toMatchObject({ id: 'call_edit', function: { name: 'edit_file' } });
      expect(JSON.parse(third.messages[4]!.tool_calls![0]!.function.arguments)).toEqual(FIX_REDACT.arguments);
      expect(third.messages[5]?.tool_call_id).toBe('call_edit');
    });
  });

  describe('JSON tool modes', () => {
    it('json_text on an OpenAI-compatible server: ```json blocks in streamed text, one split across SSE chunks, complete the task', async () => {
      const edit = jsonTextAction(FIX_REDACT);
      const fence = edit.indexOf('```json');
      // The edit's block is cut inside the fence tag, inside a key and inside the escaped new_text.
      const editPieces = [edit.slice(0, fence + 5), edit.slice(fence + 5, fence + 20), ...splitInto(edit.slice(fence + 20), 5)];
      const run = await runOnWire(
        'compatible',
        [openAiTextStream([jsonTextAction(READ_REDACT)]), openAiTextStream(editPieces), openAiTextStream(splitInto(jsonTextAction(COMPLETE), 3))],
        { toolMode: 'json_text' },
      );
      expectRedactFixed(run);
      expect(run.of('action_missing')).toEqual([]);
      // The harness makes up the call ids in the JSON modes.
      expect(run.of('tool_proposed').map((event) => [event.callId, event.tool])).toEqual([
        ['call_1_1', 'read_file'],
        ['call_2_1', 'edit_file'],
        ['call_3_1', 'task_complete'],
      ]);
      expect(run.of('run_started')[0]).toMatchObject({ toolMode: 'json_text', model: `openai-compatible:qwen2.5-coder:7b@${run.server.url}/v1` });

      const bodies = openAiBodies(run.server);
      expect(bodies).toHaveLength(3);
      expect(run.server.requests[0]?.headers.authorization).toBe('Bearer no-key-needed');
      for (const body of bodies) {
        expect(body.model).toBe('qwen2.5-coder:7b');
        expect(body).not.toHaveProperty('tools');
        expect(body).not.toHaveProperty('tool_choice');
        expect(body).not.toHaveProperty('response_format');
        expect(body).toHaveProperty('max_tokens');
        expect(body.messages[0]?.role).toBe('system');
      }
      const system = bodies[0]!.messages[0]!.content!;
      expect(system).toContain('# How to act');
      expect(system).toContain('{"tool": "NAME", "arguments": {...}}');
      expect(system).toMatch(/- task_complete: /);
      expect(system).toMatch(/- edit_file: /);

      // No tool messages: the assistant text goes back as is, the results as one user message.
      const second = bodies[1]!;
      expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(second.messages[2]?.content).toBe(jsonTextAction(READ_REDACT));
      expect(second.messages[3]?.content).toMatch(/^Result of read_file \(call_1_1\):\n/);
      expect(bodies[2]!.messages[4]?.content).toBe(edit);
    });

    it('json_constrained on OpenAI: a strict json_schema response_format, answered by a JSON object streamed as text', async () => {
      const run = await runOnWire(
        'openai',
        [READ_REDACT, FIX_REDACT, COMPLETE].map((call) => openAiTextStream(splitInto(constrainedAnswer(call), 4))),
        { toolMode: 'json_constrained' },
      );
      expectRedactFixed(run);
      expect(run.of('action_missing')).toEqual([]);
      expect(run.of('tool_proposed').map((event) => event.tool)).toEqual(['read_file', 'edit_file', 'task_complete']);

      const bodies = openAiBodies(run.server);
      expect(bodies).toHaveLength(3);
      for (const body of bodies) {
        expect(body).not.toHaveProperty('tools');
        expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'actions', strict: true } });
      }
      const schema = bodies[0]!.response_format!.json_schema.schema;
      expect(schema.properties.actions.type).toBe('array');
      expect(schema.properties.actions.items.properties.tool.enum).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'task_complete']));
      expect(schema.properties.actions.items.properties.arguments.type).toBe('string');
      expect(bodies[0]!.messages[0]?.content).toContain('Answer only with a JSON object {"actions"');
      expect(bodies[1]!.messages[2]).toEqual({ role: 'assistant', content: constrainedAnswer(READ_REDACT) });
      expect(bodies[1]!.messages[3]?.content).toMatch(/^Result of read_file \(call_1_1\):\n/);
    });

    it('json_constrained on Anthropic: the schema travels as output_config.format, and the streamed JSON answer completes the task', async () => {
      const run = await runOnWire(
        'anthropic',
        [READ_REDACT, FIX_REDACT, COMPLETE].map((call) => anthropicStream([{ type: 'text', pieces: splitInto(constrainedAnswer(call), 4) }])),
        { toolMode: 'json_constrained' },
      );
      expectRedactFixed(run);
      expect(run.of('action_missing')).toEqual([]);

      const bodies = anthropicBodies(run.server);
      expect(bodies).toHaveLength(3);
      for (const body of bodies) {
        expect(body).not.toHaveProperty('tools');
        expect(body).not.toHaveProperty('tool_choice');
        expect(body.output_config?.format.type).toBe('json_schema');
      }
      const schema = bodies[0]!.output_config!.format.schema;
      expect(schema.properties.actions.items.properties.tool.enum).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'task_complete']));
      expect(schema.properties.actions.items.required).toEqual(['tool', 'arguments']);
      expect(bodies[0]!.system).toContain('Answer only with a JSON object {"actions"');
      // The results go back as a plain user text block, not as tool_result blocks.
      expect(bodies[1]!.messages[2]?.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Result of read_file \(call_1_1\):\n/) }]);
    });
  });

  describe('provider failures at the wire', () => {
    it('OpenAI 429 with retry-after: one model_retry, the same request again, then COMPLETE', async () => {
      const run = await runOnWire('openai', [
        openAiError(429, 'requests', 'Rate limit reached for gpt-test', { 'retry-after': '1' }),
        openAiToolTurn('call_read', READ_REDACT),
        openAiToolTurn('call_edit', FIX_REDACT),
        openAiToolTurn('call_done', COMPLETE),
      ]);
      expectRedactFixed(run);
      const retries = run.of('model_retry');
      expect(retries).toHaveLength(1);
      // retry-after asks for 1 s; maxDelayMs caps it at 5 ms (backoff alone would have waited baseDelayMs, 1 ms).
      expect(retries[0]).toMatchObject({ step: 1, attempt: 1, delayMs: 5 });
      expect(retries[0]!.error).toMatch(/HTTP 429/);
      expect(retries[0]!.error).toContain('Rate limit reached for gpt-test');
      // A retry is not a turn: step 1 has one response, and the retried request is the first one again.
      expect(run.of('model_response').map((event) => event.step)).toEqual([1, 2, 3]);
      expect(run.server.requests).toHaveLength(4);
      expect(run.server.requests[1]?.body).toEqual(run.server.requests[0]?.body);
    });

    it('Anthropic 529 overloaded past the retry bound: FAILED (provider) after exactly maxAttempts requests', async () => {
      const overloaded = anthropicError(529, 'overloaded_error', 'Overloaded');
      const run = await runOnWire('anthropic', Array.from({ length: 8 }, () => overloaded));
      expect(run.result.state).toBe('FAILED');
      expect(run.result.reason.kind).toBe('provider');
      expect(run.result.reason.detail).toMatch(/^anthropic:claude-test: .*HTTP 529.*Overloaded.*gave up after 4 attempts/);
      expect(run.server.requests).toHaveLength(4);
      expect(run.of('model_retry').map((event) => [event.attempt, event.delayMs])).toEqual([
        [1, 1],
        [2, 2],
        [3, 4],
      ]);
      expect(run.of('model_response')).toEqual([]);
      expect(run.result.changedFiles).toEqual([]);
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', state: 'FAILED', reason: { kind: 'provider' } });
    });

    it('honours providerOptions.maxAttempts for a repeated 500', async () => {
      const run = await runOnWire('openai', Array.from({ length: 8 }, () => openAiError(500, 'server_error', 'internal failure')), { providerOptions: { maxAttempts: 2 } });
      expect(run.result).toMatchObject({ state: 'FAILED', reason: { kind: 'provider' } });
      expect(run.result.reason.detail).toContain('gave up after 2 attempts');
      expect(run.server.requests).toHaveLength(2);
      expect(run.of('model_retry')).toHaveLength(1);
    });

    it('OpenAI streamed refusal delta: BLOCKED (refusal) after exactly one request, never retried', async () => {
      const refusal: ScriptedReply = { kind: 'stream', frames: openAiFrames([{ refusal: "I can't help " }, { refusal: 'with that.' }], 'stop') };
      const run = await runOnWire('openai', [refusal, openAiToolTurn('call_done', COMPLETE)]);
      expect(run.result.state).toBe('BLOCKED');
      expect(run.result.reason.kind).toBe('refusal');
      expect(run.result.reason.detail).toContain("I can't help with that.");
      expect(run.server.requests).toHaveLength(1);
      expect(run.of('model_retry')).toEqual([]);
      expect(run.of('model_response').map((event) => event.stopReason)).toEqual(['refusal']);
      expect(run.of('tool_proposed')).toEqual([]);
    });

    it('Anthropic stop_reason "refusal": BLOCKED (refusal) after exactly one request, never retried', async () => {
      const refusal = anthropicStream([{ type: 'text', pieces: ['I cannot ', 'assist with this request.'] }], { stopReason: 'refusal' });
      const run = await runOnWire('anthropic', [refusal, anthropicToolTurn('toolu_done', COMPLETE)]);
      expect(run.result.state).toBe('BLOCKED');
      expect(run.result.reason.kind).toBe('refusal');
      expect(run.result.reason.detail).toContain('I cannot assist with this request.');
      expect(run.server.requests).toHaveLength(1);
      expect(run.of('model_retry')).toEqual([]);
    });

    it('a data line that is not JSON is malformed, which is not retryable: FAILED (provider) after one request', async () => {
      const notJson: ScriptedReply = { kind: 'stream', frames: [dataLine(chunk({ role: 'assistant', content: '' })), dataLine(chunk({ content: 'Reading' })), 'data: {"choices": [{"delta": \n\n'] };
      const run = await runOnWire('openai', [notJson, openAiToolTurn('call_read', READ_REDACT)]);
      expect(run.result.state).toBe('FAILED');
      expect(run.result.reason.kind).toBe('provider');
      expect(run.result.reason.detail).toMatch(/^openai:gpt-test: /);
      expect(run.result.reason.detail).toContain('the response stream holds an event that is not JSON');
      expect(run.result.reason.detail).not.toContain('gave up');
      expect(run.server.requests).toHaveLength(1);
      expect(run.of('model_retry')).toEqual([]);
      expect(run.of('model_response')).toEqual([]);
    });

    it('a stream the server ends cleanly in the middle of a frame is malformed (OpenAI: no finish_reason; Anthropic: no message_stop), never retried', async () => {
      const openAiHalf: ScriptedReply = { kind: 'stream', frames: [dataLine(chunk({ role: 'assistant', content: '' })), dataLine(chunk({ content: 'Read' })), dataLine(chunk({ content: 'ing' })).slice(0, 30)] };
      const openAi = await runOnWire('openai', [openAiHalf, openAiToolTurn('call_read', READ_REDACT)]);
      expect(openAi.result).toMatchObject({ state: 'FAILED', reason: { kind: 'provider' } });
      expect(openAi.result.reason.detail).toContain('the response stream ended without a finish_reason');
      expect(openAi.server.requests).toHaveLength(1);
      expect(openAi.of('model_retry')).toEqual([]);

      const frames = anthropicFrames([{ type: 'text', pieces: ['half an ', 'answer'] }]);
      const anthropicHalf: ScriptedReply = { kind: 'stream', frames: [...frames.slice(0, 4), frames[4]!.slice(0, 35)] };
      const anthropic = await runOnWire('anthropic', [anthropicHalf, anthropicToolTurn('toolu_read', READ_REDACT)]);
      expect(anthropic.result).toMatchObject({ state: 'FAILED', reason: { kind: 'provider' } });
      expect(anthropic.result.reason.detail).toContain('the response stream ended before message_stop');
      expect(anthropic.server.requests).toHaveLength(1);
      expect(anthropic.of('model_retry')).toEqual([]);
    });

    it('a connection dropped mid-frame is a network failure, which is retried: the turn is asked again and the task completes', async () => {
      const partialToolUse = anthropicFrames([{ type: 'tool_use', id: 'toolu_cut', name: 'read_file', jsonPieces: ['{"path":', '"src/redact.js"}'] }]).slice(0, 4);
      const midFrame = sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }).slice(0, 40);
      const server = await startDroppingServer('/v1/messages', [partialToolUse.concat(midFrame), ...[READ_REDACT, FIX_REDACT, COMPLETE].map((call, index) => anthropicFrames([{ type: 'tool_use', id: `toolu_${index}`, name: call.name, jsonPieces: splitInto(JSON.stringify(call.arguments), 3) }]))]);
      const repo = copyOfTaskFixture();
      const events: HarnessEvent[] = [];
      const result = await runTask(repo, { task: TASK, model: 'anthropic:claude-test', providerOptions: { ...FAST, env: ENV, baseUrlOverride: server.url }, onEvent: (event) => events.push(event) });
      expect(result.state).toBe('COMPLETE');
      expect(readFileSync(path.join(repo, 'src/redact.js'), 'utf8')).toContain(FIXED_LINE);
      const retries = events.filter((event) => event.type === 'model_retry');
      expect(retries).toHaveLength(1);
      // "broke off" (not "could not be reached"): the response had started when the connection dropped.
      expect(retries[0]).toMatchObject({ step: 1, attempt: 1, error: 'anthropic:claude-test: the response stream broke off' });
      // Nothing of the dropped attempt reached the loop: its half tool call was never proposed.
      expect(events.flatMap((event) => (event.type === 'tool_proposed' ? [event.callId] : []))).toEqual(['toolu_0', 'toolu_1', 'toolu_2']);
      expect(server.bodies).toHaveLength(4);
      expect(server.bodies[1]).toEqual(server.bodies[0]);
    });
  });

  describe('malformed tool call arguments in native mode', () => {
    it('OpenAI tool_call arguments that are not JSON: refused as invalid-arguments, answered on the call id, and the run recovers to COMPLETE', async () => {
      const broken = openAiToolCallStream({ id: 'call_bad', name: 'read_file', argumentPieces: ['{"path": ', '"src/red'] });
      const run = await runOnWire('openai', [broken, openAiToolTurn('call_read', READ_REDACT), openAiToolTurn('call_edit', FIX_REDACT), openAiToolTurn('call_done', COMPLETE)]);
      expectRedactFixed(run);
      // The model's mistake is not the provider's failure: no retry, no FAILED.
      expect(run.of('model_retry')).toEqual([]);
      expect(run.of('tool_proposed')[0]).toMatchObject({ step: 1, callId: 'call_bad', tool: 'read_file' });
      const rejected = run.of('tool_rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toMatchObject({ step: 1, callId: 'call_bad', tool: 'read_file', rule: 'invalid-arguments' });
      expect(rejected[0]!.reason).toContain('not valid JSON');
      expect(run.of('tool_result').map((event) => event.callId)).toEqual(['call_read', 'call_edit']);

      const bodies = openAiBodies(run.server);
      expect(bodies).toHaveLength(4);
      const [, , assistant, tool] = bodies[1]!.messages as [OpenAiMessage, OpenAiMessage, OpenAiMessage, OpenAiMessage];
      // The broken call goes back with arguments the API accepts, and its tool message says what was wrong.
      expect(assistant.tool_calls).toHaveLength(1);
      expect(assistant.tool_calls?.[0]).toMatchObject({ id: 'call_bad', function: { name: 'read_file' } });
      expect(() => JSON.parse(assistant.tool_calls![0]!.function.arguments) as unknown).not.toThrow();
      expect(tool.tool_call_id).toBe('call_bad');
      expect(tool.content).toMatch(/^Rejected \(invalid-arguments\): .*not valid JSON/);
    });

    it('Anthropic input_json_delta pieces that do not make JSON: the same refusal, with an object as the replayed tool_use input and an is_error tool_result', async () => {
      const broken = anthropicStream([{ type: 'tool_use', id: 'toolu_bad', name: 'read_file', jsonPieces: ['{"path": ', '"src/red'] }]);
      const run = await runOnWire('anthropic', [broken, anthropicToolTurn('toolu_read', READ_REDACT), anthropicToolTurn('toolu_edit', FIX_REDACT), anthropicToolTurn('toolu_done', COMPLETE)]);
      expectRedactFixed(run);
      expect(run.of('model_retry')).toEqual([]);
      expect(run.of('tool_rejected').map((event) => [event.callId, event.rule])).toEqual([['toolu_bad', 'invalid-arguments']]);

      const second = anthropicBodies(run.server)[1]!;
      // The Messages API takes only an object as tool_use input: the raw text must not be replayed.
      expect(second.messages[1]?.content).toEqual([{ type: 'tool_use', id: 'toolu_bad', name: 'read_file', input: {} }]);
      expect(second.messages[2]?.content).toEqual([
        { type: 'tool_result', tool_use_id: 'toolu_bad', is_error: true, content: expect.stringMatching(/^Rejected \(invalid-arguments\): .*not valid JSON/) },
      ]);
    });
  });
});
