import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook, planWithModel, type CreateProviderOptions, type HarnessEvent } from '../../src/index.js';
import { call, copyOfTaskFixture, TASK_FIXTURE } from '../helpers/harness-run.js';
import { anthropicError, anthropicStream, startFakeAnthropic } from '../llm/fake-anthropic-server.js';
import type { FakeServer, ScriptedReply } from '../llm/fake-http-server.js';
import { openAiError, openAiToolCallStream, startFakeOpenAi } from '../llm/fake-openai-server.js';

/**
 * The llm planner driven through the real SDKs (openai, @anthropic-ai/sdk) against a local
 * server that streams native tool calls: what the loop sent is recorded, so the tests see that
 * the planner offers only read-only tools and submit_plan, and what it told the model.
 */

const ENV = { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef', OPENAI_API_KEY: 'sk-proj-test-0123456789abcdef' };
const FAST: CreateProviderOptions = { baseDelayMs: 1, maxDelayMs: 5 };
const REQUEST = 'mask API keys in captured tool output';
const PLANNER_TOOLS = ['overview', 'stage', 'entry', 'callers', 'callees', 'state', 'read_file', 'list_files', 'search', 'submit_plan', 'task_blocked', 'need_input'];
const WRITE_TOOLS = ['edit_file', 'create_file', 'delete_file', 'run_check', 'run_command', 'task_complete'];

type Call = ReturnType<typeof call>;
type Wire = 'openai' | 'anthropic';

interface OpenAiBody {
  tools: Array<{ type: string; function: { name: string } }>;
  messages: Array<{ role: string; content: string | null; tool_call_id?: string }>;
}
interface AnthropicBody {
  tools: Array<{ name: string }>;
  messages: Array<{ role: string; content: Array<{ type: string; tool_use_id?: string; content?: string; is_error?: boolean }> }>;
}

/** Cuts the arguments into pieces, so that the JSON arrives broken mid-token as a real stream sends it. */
function pieces(text: string, parts = 3): string[] {
  const size = Math.ceil(text.length / parts);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
}

function turn(wire: Wire, id: string, step: Call): ScriptedReply {
  const json = JSON.stringify(step.arguments);
  return wire === 'openai'
    ? openAiToolCallStream({ id, name: step.name, argumentPieces: pieces(json) })
    : anthropicStream([
        { type: 'text', pieces: ['Looking.'] },
        { type: 'tool_use', id, name: step.name, jsonPieces: pieces(json) },
      ]);
}

async function startWire(wire: Wire, calls: Call[]): Promise<{ server: FakeServer; model: string; providerOptions: CreateProviderOptions }> {
  const turns = calls.map((step, index) => turn(wire, `call_${index + 1}`, step));
  // A spent script answers 400, which is never retried: a run that goes on too long fails at once.
  const reply = (_request: unknown, index: number): ScriptedReply =>
    turns[index] ?? (wire === 'openai' ? openAiError(400, 'invalid_request_error', 'no more turns') : anthropicError(400, 'invalid_request_error', 'no more turns'));
  if (wire === 'openai') {
    const server = await startFakeOpenAi(reply, '/v1');
    return { server, model: 'openai:gpt-test', providerOptions: { ...FAST, env: ENV, baseUrlOverride: `${server.url}/v1` } };
  }
  const server = await startFakeAnthropic(reply);
  return { server, model: 'anthropic:claude-test', providerOptions: { ...FAST, env: ENV, baseUrlOverride: server.url } };
}

/** The tool names each request offered, and what the model was told in answer to each call id. */
function readBodies(wire: Wire, server: FakeServer): { tools: string[][]; answers: Map<string, { content: string; isError: boolean }> } {
  const answers = new Map<string, { content: string; isError: boolean }>();
  if (wire === 'openai') {
    const bodies = server.requests.map((request) => request.body as OpenAiBody);
    for (const message of bodies.flatMap((body) => body.messages)) if (message.role === 'tool') answers.set(message.tool_call_id!, { content: message.content ?? '', isError: false });
    return { tools: bodies.map((body) => body.tools.map((tool) => tool.function.name)), answers };
  }
  const bodies = server.requests.map((request) => request.body as AnthropicBody);
  for (const block of bodies.flatMap((body) => body.messages.flatMap((message) => message.content))) {
    if (block.type === 'tool_result') answers.set(block.tool_use_id!, { content: block.content ?? '', isError: block.is_error === true });
  }
  return { tools: bodies.map((body) => body.tools.map((tool) => tool.name)), answers };
}

describe.each<Wire>(['openai', 'anthropic'])('the llm planner at the wire (%s, native tool calls)', (wire) => {
  it('navigates with read-only tools, is refused a write, resubmits after a stale locator, and saves an accepted plan', async () => {
    const repo = copyOfTaskFixture();
    await buildHandbook(repo, {});
    const graph = openHandbook(repo).graph;
    const locatorOf = (id: string) => {
      const unit = graph.getUnitOrThrow(id);
      return { file: unit.file, symbol: unit.symbol, line: unit.startLine, endLine: unit.endLine, hash: unit.hash };
    };
    const redact = locatorOf('src/redact.js#redact');
    const capture = locatorOf('src/capture.js#captureToolOutput');
    const planCiting = (context: typeof capture) => ({
      summary: 'redact masks sk- keys, so every captured tool output is masked',
      targets: [{ ...redact, action: 'modify', intent: 'replace sk- keys with sk-***', why: 'every captured tool output passes through redact' }],
      context: [{ ...context, relation: 'caller', why: 'it hands tool output to redact' }],
      scope: ['src/redact.js'],
      checks: [{ name: 'test', command: 'node test/redact.test.mjs', reason: 'it tests redact on a key' }],
    });

    const { server, model, providerOptions } = await startWire(wire, [
      call('overview'),
      call('search', { query: 'where is tool output masked?' }),
      call('entry', { unit: 'src/redact.js#redact' }),
      call('submit_plan', planCiting({ ...capture, hash: 'ffffffffffffffff' })),
      call('edit_file', { path: 'src/redact.js', old_text: '  return text;\n', new_text: '  return "";\n' }),
      call('submit_plan', planCiting(capture)),
    ]);
    const events: HarnessEvent[] = [];
    const { plan, run } = await planWithModel(repo, REQUEST, { model, providerOptions, onEvent: (event) => events.push(event) });

    expect(run).toMatchObject({ state: 'COMPLETE', steps: 6, model });
    expect(plan).toMatchObject({ status: 'accepted', failures: [], planner: { kind: 'llm', model } });
    expect(server.requests).toHaveLength(6);

    const { tools, answers } = readBodies(wire, server);
    for (const offered of tools) {
      expect(offered).toEqual(PLANNER_TOOLS);
      expect(offered.filter((name) => WRITE_TOOLS.includes(name))).toEqual([]);
    }
    expect(answers.get('call_3')!.content).toContain(`locator (cite it exactly): ${JSON.stringify(redact)}`);
    const failure = `context src/capture.js#captureToolOutput: its code changed since it was planned (hash ffffffffffffffff is now ${capture.hash})`;
    expect(answers.get('call_4')!.content).toBe(`Not accepted: the harness checked your submit_plan and found:\n- ${failure}\nFix every one and call submit_plan again.`);
    expect(answers.get('call_5')!.content).toMatch(/^Rejected \(unknown-tool\): there is no tool named "edit_file"/);
    if (wire === 'anthropic') expect([answers.get('call_4')!.isError, answers.get('call_5')!.isError]).toEqual([true, true]);

    expect(events.filter((event) => event.type === 'complete_rejected')).toEqual([expect.objectContaining({ step: 4, missing: [failure] })]);
    expect(events.filter((event) => event.type === 'tool_rejected')).toEqual([expect.objectContaining({ step: 5, tool: 'edit_file', rule: 'unknown-tool' })]);
    expect(readFileSync(path.join(repo, 'src/redact.js'), 'utf8')).toBe(readFileSync(path.join(TASK_FIXTURE, 'src/redact.js'), 'utf8'));
  });
});
