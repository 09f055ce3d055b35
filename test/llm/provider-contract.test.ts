import { createProvider } from '../../src/llm/create-provider.js';
import { anthropicError, anthropicFrames, anthropicStream, sseEvent, startFakeAnthropic } from './fake-anthropic-server.js';
import { dataLine, chunk, openAiError, openAiTextStream, openAiToolCallStream, openAiFrames, startFakeOpenAi } from './fake-openai-server.js';
import { describeProviderContract } from './provider-contract.js';

const ANTHROPIC_KEY = 'sk-ant-test-0123456789abcdef';
const OPENAI_KEY = 'sk-proj-test-0123456789abcdef';
const COMPATIBLE_KEY = 'local-test-0123456789abcdef';

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  500: 'api_error',
};
const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
};

describeProviderContract({
  name: 'anthropic',
  apiKey: ANTHROPIC_KEY,
  start: startFakeAnthropic,
  // Through ANTHROPIC_BASE_URL, as a user pointing at a proxy would.
  provider: (server, options) => createProvider('anthropic:claude-test', { ...options, env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.url } }),
  providerAt: (url, options) => createProvider('anthropic:claude-test', { ...options, env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY }, baseUrlOverride: url }),
  textStream: (pieces) => anthropicStream([{ type: 'text', pieces }]),
  toolCallStream: (call) => anthropicStream([{ type: 'tool_use', id: call.id, name: call.name, jsonPieces: call.argumentPieces }]),
  refusal: (explanation) => anthropicStream([{ type: 'text', pieces: [explanation] }], { stopReason: 'refusal' }),
  error: (status, message, headers) => anthropicError(status, ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message, headers),
  truncatedFrames: () => anthropicFrames([{ type: 'text', pieces: ['who', 'le'] }]).slice(0, 4),
  misshapenFrame: () => sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } }),
});

describeProviderContract({
  name: 'openai',
  apiKey: OPENAI_KEY,
  start: (replies) => startFakeOpenAi(replies),
  // Through baseUrlOverride, the option a caller (or a recording proxy) would use.
  provider: (server, options) => createProvider('openai:gpt-test', { ...options, env: { OPENAI_API_KEY: OPENAI_KEY }, baseUrlOverride: `${server.url}/v1` }),
  providerAt: (url, options) => createProvider('openai:gpt-test', { ...options, env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${url}/v1` } }),
  textStream: openAiTextStream,
  toolCallStream: (call) => openAiToolCallStream(call),
  refusal: (explanation) => ({ kind: 'stream', frames: openAiFrames([{ refusal: explanation.slice(0, 5) }, { refusal: explanation.slice(5) }], 'stop') }),
  error: (status, message, headers) => openAiError(status, OPENAI_ERROR_TYPES[status] ?? 'server_error', message, headers),
  truncatedFrames: () => [dataLine(chunk({ role: 'assistant', content: '' })), dataLine(chunk({ content: 'who' }))],
  misshapenFrame: () => dataLine({ choices: [{ index: 0, delta: { content: 7 }, finish_reason: null }] }),
});

describeProviderContract({
  name: 'openai-compatible',
  apiKey: COMPATIBLE_KEY,
  start: (replies) => startFakeOpenAi(replies, '/v1'),
  // Through the URL in the spec, as `--model openai-compatible:MODEL@URL` does.
  provider: (server, options) =>
    createProvider(`openai-compatible:qwen2.5-coder:7b@${server.url}/v1`, { ...options, env: { OPENAI_COMPATIBLE_API_KEY: COMPATIBLE_KEY } }),
  providerAt: (url, options) => createProvider(`openai-compatible:qwen2.5-coder:7b@${url}/v1`, { ...options, env: { OPENAI_COMPATIBLE_API_KEY: COMPATIBLE_KEY } }),
  textStream: openAiTextStream,
  toolCallStream: (call) => openAiToolCallStream(call),
  refusal: (explanation) => ({ kind: 'stream', frames: openAiFrames([{ refusal: explanation }], 'stop') }),
  error: (status, message, headers) => openAiError(status, OPENAI_ERROR_TYPES[status] ?? 'server_error', message, headers),
  truncatedFrames: () => [dataLine(chunk({ role: 'assistant', content: '' })), dataLine(chunk({ content: 'who' }))],
  misshapenFrame: () => dataLine({ choices: [{ index: 0, delta: { content: 7 }, finish_reason: null }] }),
});
