import { startFakeServer, type FakeServer, type ScriptedReply } from './fake-http-server.js';

/**
 * The Anthropic Messages API as a local server speaks it: POST /v1/messages with
 * `stream: true` answered by named SSE events (message_start, content_block_start,
 * content_block_delta, content_block_stop, message_delta, message_stop, with pings between).
 */
export function startFakeAnthropic(replies: Parameters<typeof startFakeServer>[1]): Promise<FakeServer> {
  return startFakeServer({ method: 'POST', path: '/v1/messages' }, replies);
}

export type AnthropicBlock = { type: 'text'; pieces: string[] } | { type: 'tool_use'; id: string; name: string; jsonPieces: string[] };

export interface AnthropicStreamOptions {
  stopReason?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The frames of a whole, well-formed message made of the given content blocks. */
export function anthropicFrames(blocks: AnthropicBlock[], options: AnthropicStreamOptions = {}): string[] {
  const model = options.model ?? 'claude-test-20990101';
  const frames = [
    sseEvent('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: options.inputTokens ?? 25, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    }),
    sseEvent('ping', { type: 'ping' }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      frames.push(sseEvent('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const text of block.pieces) {
        frames.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      }
    } else {
      frames.push(
        sseEvent('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }),
      );
      for (const partial_json of block.jsonPieces) {
        frames.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
      }
    }
    frames.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
  });
  const stopReason = options.stopReason ?? (blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  frames.push(
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: options.outputTokens ?? 12 },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  );
  return frames;
}

export function anthropicStream(blocks: AnthropicBlock[], options: AnthropicStreamOptions = {}): ScriptedReply {
  return { kind: 'stream', frames: anthropicFrames(blocks, options) };
}

/** An HTTP error as the API sends it: `{ type: 'error', error: { type, message } }` with a request-id header. */
export function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return {
    kind: 'json',
    status,
    body: { type: 'error', error: { type, message }, request_id: 'req_test' },
    headers: { 'request-id': 'req_test', ...headers },
  };
}
