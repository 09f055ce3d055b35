import { startFakeServer, type FakeServer, type ScriptedReply } from './fake-http-server.js';

/**
 * The Chat Completions API as a local server speaks it: POST {base}/chat/completions with
 * `stream: true` answered by `data: {chat.completion.chunk}` lines and a final `data: [DONE]`.
 * OpenAI's base path is /v1; compatible servers (Ollama, vLLM, llama.cpp) use it too.
 */
export function startFakeOpenAi(replies: Parameters<typeof startFakeServer>[1], basePath = '/v1'): Promise<FakeServer> {
  return startFakeServer({ method: 'POST', path: `${basePath}/chat/completions` }, replies);
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments?: string } }>;
}

export function dataLine(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export function chunk(delta: ChunkDelta | undefined, finishReason: string | null = null, model = 'gpt-test-2099-01-01'): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 4_000_000_000,
    model,
    choices: delta === undefined && finishReason === null ? [] : [{ index: 0, delta: delta ?? {}, logprobs: null, finish_reason: finishReason }],
  };
}

function usageChunk(promptTokens: number, completionTokens: number): unknown {
  return {
    ...(chunk(undefined) as object),
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** The frames of a whole stream: a role chunk, the given deltas, the finish chunk, the usage chunk and [DONE]. */
export function openAiFrames(deltas: ChunkDelta[], finishReason: string, usage = { prompt: 25, completion: 12 }): string[] {
  return [
    dataLine(chunk({ role: 'assistant', content: '' })),
    ...deltas.map((delta) => dataLine(chunk(delta))),
    dataLine(chunk({}, finishReason)),
    dataLine(usageChunk(usage.prompt, usage.completion)),
    dataLine('[DONE]'),
  ];
}

export function openAiTextStream(pieces: string[]): ScriptedReply {
  return { kind: 'stream', frames: openAiFrames(pieces.map((content) => ({ content })), 'stop') };
}

/** One tool call whose arguments arrive in pieces; the first fragment carries the id and name. */
export function openAiToolCallStream(call: { id: string; name: string; argumentPieces: string[] }, leadingText: string[] = []): ScriptedReply {
  const [first = '', ...rest] = call.argumentPieces;
  const deltas: ChunkDelta[] = [
    ...leadingText.map((content) => ({ content })),
    { tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: first } }] },
    ...rest.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
  ];
  return { kind: 'stream', frames: openAiFrames(deltas, 'tool_calls') };
}

/** An HTTP error as the API sends it: `{ error: { message, type, code } }` with an x-request-id header. */
export function openAiError(status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return {
    kind: 'json',
    status,
    body: { error: { message, type, param: null, code: null } },
    headers: { 'x-request-id': 'req_test', ...headers },
  };
}
