import { z } from 'zod';
import type { ChatResponse, ChatStopReason, ChatToolCall } from './chat-types.js';
import { malformedResponse, parseStreamEvent, type StreamContext } from './stream-event.js';
import { parseToolArguments } from './tool-arguments.js';

/**
 * The Messages API stream, as far as the collector relies on it. Unknown event, block and
 * delta types are skipped: Anthropic adds new ones and documents that clients should.
 */
const usageSchema = z.object({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});
type WireUsage = z.infer<typeof usageSchema>;

/** Matches a block or delta of a type the collector does not read, and only those, so a known type must have its full shape. */
function otherTypeThan(...known: string[]) {
  return z.object({ type: z.string().refine((type) => !known.includes(type)) });
}

const eventSchemas = {
  message_start: z.object({ message: z.object({ model: z.string(), usage: usageSchema }) }),
  content_block_start: z.object({
    index: z.number().int(),
    content_block: z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
      otherTypeThan('text', 'tool_use'),
    ]),
  }),
  content_block_delta: z.object({
    index: z.number().int(),
    delta: z.union([
      z.object({ type: z.literal('text_delta'), text: z.string() }),
      z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
      otherTypeThan('text_delta', 'input_json_delta'),
    ]),
  }),
  message_delta: z.object({ delta: z.object({ stop_reason: z.string().nullish() }), usage: usageSchema.nullish() }),
} as const;

const eventTypeSchema = z.object({ type: z.string() });

const STOP_REASONS: Readonly<Record<string, ChatStopReason>> = {
  end_turn: 'end',
  stop_sequence: 'end',
  pause_turn: 'end',
  tool_use: 'tool_calls',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

interface ToolUseBlock {
  id: string;
  name: string;
  startInput: unknown;
  json: string;
}

/** Reads a whole Messages API stream into one response, passing text deltas on as they come. */
export async function collectAnthropicStream(events: AsyncIterable<unknown>, context: StreamContext): Promise<ChatResponse> {
  const { providerId } = context;
  let model = context.requestedModel;
  let text = '';
  const toolUses = new Map<number, ToolUseBlock>();
  let wireStopReason: string | undefined;
  let usage: WireUsage = {};
  let stopped = false;

  const appendText = (delta: string): void => {
    if (delta === '') return;
    text += delta;
    context.onText?.(delta);
  };

  for await (const raw of events) {
    const { type } = parseStreamEvent(eventTypeSchema, raw, providerId);
    switch (type) {
      case 'message_start': {
        const event = parseStreamEvent(eventSchemas.message_start, raw, providerId);
        model = event.message.model || model;
        usage = mergeUsage(usage, event.message.usage);
        break;
      }
      case 'content_block_start': {
        const { index, content_block: block } = parseStreamEvent(eventSchemas.content_block_start, raw, providerId);
        if ('text' in block) appendText(block.text);
        if ('id' in block) toolUses.set(index, { id: block.id, name: block.name, startInput: block.input, json: '' });
        break;
      }
      case 'content_block_delta': {
        const { index, delta } = parseStreamEvent(eventSchemas.content_block_delta, raw, providerId);
        if ('text' in delta) appendText(delta.text);
        if ('partial_json' in delta) {
          const toolUse = toolUses.get(index);
          if (!toolUse) throw malformedResponse(providerId, `input_json_delta for block ${index}, which is not a tool_use block`);
          toolUse.json += delta.partial_json;
        }
        break;
      }
      case 'message_delta': {
        const event = parseStreamEvent(eventSchemas.message_delta, raw, providerId);
        wireStopReason = event.delta.stop_reason ?? wireStopReason;
        if (event.usage) usage = mergeUsage(usage, event.usage);
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      default:
        break;
    }
  }

  if (!stopped) throw malformedResponse(providerId, 'the response stream ended before message_stop');

  const toolCalls: ChatToolCall[] = [...toolUses.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, toolUse]) => ({
      id: toolUse.id,
      name: toolUse.name,
      ...(toolUse.json === '' ? { arguments: toolUse.startInput ?? {} } : parseToolArguments(toolUse.json, toolUse.name)),
    }));
  const stopReason = (wireStopReason ? STOP_REASONS[wireStopReason] : undefined) ?? (toolCalls.length > 0 ? 'tool_calls' : 'end');
  const refusal = stopReason === 'refusal' && text.trim() !== '' ? text.trim() : undefined;

  return {
    text,
    toolCalls,
    stopReason,
    ...(refusal === undefined ? {} : { refusal }),
    usage: {
      // Cached prompt tokens are still prompt: leaving them out would understate the context sent.
      inputTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
      outputTokens: usage.output_tokens ?? 0,
    },
    model,
  };
}

/** message_delta carries cumulative counts, and only the ones that changed. */
function mergeUsage(current: WireUsage, update: WireUsage): WireUsage {
  return {
    input_tokens: update.input_tokens ?? current.input_tokens,
    output_tokens: update.output_tokens ?? current.output_tokens,
    cache_creation_input_tokens: update.cache_creation_input_tokens ?? current.cache_creation_input_tokens,
    cache_read_input_tokens: update.cache_read_input_tokens ?? current.cache_read_input_tokens,
  };
}
