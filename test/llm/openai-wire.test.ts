import { describe, expect, it } from 'vitest';
import type { ChatRequest, RetryEvent } from '../../src/llm/chat-types.js';
import { createProvider } from '../../src/llm/create-provider.js';
import type { FakeServer } from './fake-http-server.js';
import { chunk, dataLine, openAiFrames, openAiTextStream, startFakeOpenAi } from './fake-openai-server.js';
import { FAST_RETRIES, QUESTION, providerErrorOf } from './provider-contract.js';

const KEY = 'sk-proj-test-0123456789abcdef';

function openAiAt(server: FakeServer) {
  return createProvider('openai:gpt-test', { ...FAST_RETRIES, env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` } });
}

function compatibleAt(server: FakeServer, env: Record<string, string> = {}) {
  return createProvider(`openai-compatible:qwen2.5-coder@${server.url}/v1`, { ...FAST_RETRIES, env });
}

const READ_FILE_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string', description: 'relative to the repository root' } },
  required: ['path'],
  additionalProperties: false,
};

const CONVERSATION: ChatRequest = {
  system: 'You are a careful code reader.',
  messages: [
    { role: 'user', content: 'What does src/index.ts export?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'src/index.ts' } }] },
    { role: 'tool', toolCallId: 'call_1', content: 'export { a } from "./a.js";' },
    { role: 'assistant', content: 'It exports a.' },
    { role: 'user', content: 'Thanks.' },
  ],
  tools: [{ name: 'read_file', description: 'Reads a file of the repository.', inputSchema: READ_FILE_SCHEMA }],
  toolChoice: 'auto',
  maxTokens: 1024,
  temperature: 0.2,
};

const EXPECTED_MESSAGES = [
  { role: 'system', content: 'You are a careful code reader.' },
  { role: 'user', content: 'What does src/index.ts export?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/index.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'export { a } from "./a.js";' },
  { role: 'assistant', content: 'It exports a.' },
  { role: 'user', content: 'Thanks.' },
];

describe('the OpenAI providers at the wire', () => {
  it('sends the system prompt, the tools with their parameters schema and the conversation to OpenAI', async () => {
    const server = await startFakeOpenAi([openAiTextStream(['a'])]);
    await openAiAt(server).complete(CONVERSATION);

    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-stainless-retry-count']).toBe('0');
    expect(request?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 1024,
      temperature: 0.2,
      messages: EXPECTED_MESSAGES,
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Reads a file of the repository.', parameters: READ_FILE_SCHEMA } }],
      tool_choice: 'auto',
    });
  });

  it('sends max_tokens to a compatible server, and a placeholder key when none is set', async () => {
    const server = await startFakeOpenAi([openAiTextStream(['a'])]);
    await compatibleAt(server).complete(CONVERSATION);

    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer no-key-needed');
    expect(request?.body).toMatchObject({ model: 'qwen2.5-coder', max_tokens: 1024, messages: EXPECTED_MESSAGES, tools: [{ function: { parameters: READ_FILE_SCHEMA } }] });
    expect(request?.body).not.toHaveProperty('max_completion_tokens');
  });

  it('asks for structured output with a strict json_schema response_format and for a named tool', async () => {
    const server = await startFakeOpenAi([openAiTextStream(['{}'])]);
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    await openAiAt(server).complete({ ...QUESTION, toolChoice: { name: 'read_file' }, responseFormat: { type: 'json_schema', name: 'answer', schema } });
    expect(server.requests[0]?.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      tool_choice: { type: 'function', function: { name: 'read_file' } },
    });
  });

  it('assembles parallel tool calls whose fragments interleave, by index', async () => {
    const frames = openAiFrames(
      [
        { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] },
        { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'list_files', arguments: '{"dir"' } }] },
        { tool_calls: [{ index: 0, function: { arguments: '{"path":"a.ts"}' } }] },
        { tool_calls: [{ index: 1, function: { arguments: ':"src"}' } }] },
      ],
      'tool_calls',
    );
    const server = await startFakeOpenAi([{ kind: 'stream', frames }]);
    const response = await openAiAt(server).complete(QUESTION);
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'call_b', name: 'list_files', arguments: { dir: 'src' } },
    ]);
  });

  it('accepts a compatible server that sends each tool call whole, without an index', async () => {
    const whole = (id: string, name: string, args: string) => ({ choices: [{ delta: { tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] }, finish_reason: null }] });
    const frames = [
      dataLine(whole('call_x', 'read_file', '{"path":"x.ts"}')),
      dataLine(whole('call_y', 'read_file', '{"path":"y.ts"}')),
      dataLine({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }),
      dataLine('[DONE]'),
    ];
    const server = await startFakeOpenAi([{ kind: 'stream', frames }]);
    const response = await compatibleAt(server).complete(QUESTION);
    expect(response).toMatchObject({ model: 'qwen2.5-coder', stopReason: 'tool_calls', usage: { inputTokens: 0, outputTokens: 0 } });
    expect(response.toolCalls.map((call) => call.arguments)).toEqual([{ path: 'x.ts' }, { path: 'y.ts' }]);
  });

  it('maps finish_reason content_filter to a refusal and length to max_tokens', async () => {
    const server = await startFakeOpenAi([
      { kind: 'stream', frames: openAiFrames([{ content: 'Sure, here' }], 'content_filter') },
      { kind: 'stream', frames: openAiFrames([{ content: 'cut sh' }], 'length') },
    ]);
    const provider = openAiAt(server);
    expect(await provider.complete(QUESTION)).toMatchObject({ stopReason: 'refusal', text: 'Sure, here' });
    expect(await provider.complete(QUESTION)).toMatchObject({ stopReason: 'max_tokens', text: 'cut sh' });
    expect(server.requests).toHaveLength(2);
  });

  it('retries an error object sent inside the stream', async () => {
    const streamError = dataLine({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } });
    const server = await startFakeOpenAi([{ kind: 'stream', frames: [dataLine(chunk({ content: 'par' })), streamError] }, openAiTextStream(['full'])]);
    const retries: RetryEvent[] = [];
    const response = await openAiAt(server).complete(QUESTION, { onRetry: (event) => retries.push(event) });
    expect(response.text).toBe('full');
    expect(retries.map((event) => event.error.kind)).toEqual(['server']);
  });

  it('reports a chunk that is not JSON, and a stream without a finish_reason, as malformed', async () => {
    const notJson = await startFakeOpenAi([{ kind: 'stream', frames: [dataLine(chunk({ content: 'a' })), 'data: {"choices": [\n\n'] }]);
    expect(await providerErrorOf(openAiAt(notJson).complete(QUESTION))).toMatchObject({ kind: 'malformed' });
    expect(notJson.requests).toHaveLength(1);

    const unfinished = await startFakeOpenAi([{ kind: 'stream', frames: [dataLine(chunk({ content: 'a' })), dataLine('[DONE]')] }]);
    const error = await providerErrorOf(compatibleAt(unfinished).complete(QUESTION));
    expect(error).toMatchObject({ kind: 'malformed', retryable: false });
    expect(error.message).toContain('finish_reason');
  });

  it('answers a compatible server whose 404 names a wrong path as bad_request', async () => {
    const server = await startFakeOpenAi([openAiTextStream(['a'])], '/api');
    const error = await providerErrorOf(compatibleAt(server).complete(QUESTION));
    expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(error.message).toContain('no route for POST /v1/chat/completions');
  });
});
