import { describe, expect, it } from 'vitest';
import type { ChatRequest, RetryEvent } from '../../src/llm/chat-types.js';
import { createProvider } from '../../src/llm/create-provider.js';
import { anthropicFrames, anthropicStream, sseEvent, startFakeAnthropic } from './fake-anthropic-server.js';
import type { FakeServer } from './fake-http-server.js';
import { FAST_RETRIES, QUESTION, providerErrorOf } from './provider-contract.js';

const KEY = 'sk-ant-test-0123456789abcdef';

function anthropicAt(server: FakeServer) {
  return createProvider('anthropic:claude-test', { ...FAST_RETRIES, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url } });
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
    { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { path: 'src/index.ts' } }] },
    { role: 'tool', toolCallId: 'toolu_1', content: 'export { a } from "./a.js";' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_2', name: 'read_file', arguments: { path: 'src/missing.ts' } }] },
    { role: 'tool', toolCallId: 'toolu_2', content: 'no such file', isError: true },
    { role: 'user', content: 'Keep it short.' },
  ],
  tools: [{ name: 'read_file', description: 'Reads a file of the repository.', inputSchema: READ_FILE_SCHEMA }],
  toolChoice: { name: 'read_file' },
  maxTokens: 1024,
  temperature: 0,
};

describe('the Anthropic provider at the wire', () => {
  it('sends the system prompt, the tools with their input schema and the conversation as Messages API blocks', async () => {
    const server = await startFakeAnthropic([anthropicStream([{ type: 'text', pieces: ['a'] }])]);
    await anthropicAt(server).complete(CONVERSATION);

    const [request] = server.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['anthropic-version']).toBeDefined();
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    // Retrying is ours: the SDK is told to make one attempt.
    expect(request?.headers['x-stainless-retry-count']).toBe('0');
    expect(request?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      stream: true,
      system: 'You are a careful code reader.',
      temperature: 0,
      tools: [{ name: 'read_file', description: 'Reads a file of the repository.', input_schema: READ_FILE_SCHEMA }],
      tool_choice: { type: 'tool', name: 'read_file' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What does src/index.ts export?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/index.ts' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export { a } from "./a.js";' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'src/missing.ts' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
            { type: 'text', text: 'Keep it short.' },
          ],
        },
      ],
    });
  });

  it('asks for structured output through output_config and for any tool with tool_choice any', async () => {
    const server = await startFakeAnthropic([anthropicStream([{ type: 'text', pieces: ['{}'] }])]);
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    await anthropicAt(server).complete({ ...QUESTION, toolChoice: 'required', responseFormat: { type: 'json_schema', name: 'answer', schema } });
    expect(server.requests[0]?.body).toMatchObject({ output_config: { format: { type: 'json_schema', schema } }, tool_choice: { type: 'any' } });
  });

  it('keeps text and several tool calls of one message in block order, and counts cached prompt tokens as input', async () => {
    const frames = anthropicFrames([
      { type: 'text', pieces: ['Reading both.'] },
      { type: 'tool_use', id: 'toolu_a', name: 'read_file', jsonPieces: ['{"path":', '"a.ts"}'] },
      { type: 'tool_use', id: 'toolu_b', name: 'list_files', jsonPieces: [] },
    ]).map((frame) => frame.replace('"cache_read_input_tokens":0', '"cache_read_input_tokens":100'));
    const server = await startFakeAnthropic([{ kind: 'stream', frames }]);
    const response = await anthropicAt(server).complete(QUESTION);
    expect(response).toMatchObject({
      text: 'Reading both.',
      stopReason: 'tool_calls',
      model: 'claude-test-20990101',
      usage: { inputTokens: 125, outputTokens: 12 },
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: { path: 'a.ts' } },
        { id: 'toolu_b', name: 'list_files', arguments: {} },
      ],
    });
  });

  it('maps stop_reason max_tokens and skips block and delta types it does not read (thinking)', async () => {
    const thinking = [
      sseEvent('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      sseEvent('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
      sseEvent('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'c2ln' } }),
      sseEvent('content_block_stop', { type: 'content_block_stop', index: 1 }),
    ];
    const frames = anthropicFrames([{ type: 'text', pieces: ['cut sh'] }], { stopReason: 'max_tokens' });
    frames.splice(2, 0, ...thinking);
    const server = await startFakeAnthropic([{ kind: 'stream', frames }]);
    const response = await anthropicAt(server).complete(QUESTION);
    expect(response).toMatchObject({ text: 'cut sh', stopReason: 'max_tokens' });
  });

  it('retries an overloaded_error sent inside the stream', async () => {
    const overloaded = sseEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const server = await startFakeAnthropic([{ kind: 'stream', frames: [...anthropicFrames([{ type: 'text', pieces: ['par'] }]).slice(0, 4), overloaded] }, anthropicStream([{ type: 'text', pieces: ['full'] }])]);
    const retries: RetryEvent[] = [];
    const response = await anthropicAt(server).complete(QUESTION, { onRetry: (event) => retries.push(event) });
    expect(response.text).toBe('full');
    expect(retries.map((event) => [event.error.kind, event.error.status])).toEqual([['server', undefined]]);
  });

  it('reports an event that is not JSON, and a stream that ends before message_stop, as malformed', async () => {
    const notJson = await startFakeAnthropic([{ kind: 'stream', frames: [...anthropicFrames([]).slice(0, 2), 'event: content_block_start\ndata: {"type": "content_block_st\n\n'] }]);
    expect(await providerErrorOf(anthropicAt(notJson).complete(QUESTION))).toMatchObject({ kind: 'malformed' });
    expect(notJson.requests).toHaveLength(1);

    const unfinished = await startFakeAnthropic([{ kind: 'stream', frames: anthropicFrames([{ type: 'text', pieces: ['hi'] }]).slice(0, -1) }]);
    const error = await providerErrorOf(anthropicAt(unfinished).complete(QUESTION));
    expect(error).toMatchObject({ kind: 'malformed', retryable: false });
    expect(error.message).toContain('message_stop');
  });

  it('reports a known event with the wrong shape as malformed', async () => {
    const frames = anthropicFrames([{ type: 'text', pieces: ['hi'] }]);
    frames[3] = sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 42 } });
    const server = await startFakeAnthropic([{ kind: 'stream', frames }]);
    const error = await providerErrorOf(anthropicAt(server).complete(QUESTION));
    expect(error.kind).toBe('malformed');
  });
});
