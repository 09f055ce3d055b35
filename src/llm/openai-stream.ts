import { z } from 'zod';
import type { ChatResponse, ChatStopReason, ChatToolCall } from './chat-types.js';
import { malformedResponse, parseStreamEvent, type StreamContext } from './stream-event.js';
import { parseToolArguments } from './tool-arguments.js';

/**
 * A Chat Completions chunk, as far as the collector relies on it. Compatible servers omit
 * or null out fields OpenAI always sends, so nearly everything is optional.
 */
const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
type ToolCallDelta = z.infer<typeof toolCallDeltaSchema>;

const chunkSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().int().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(toolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

const STOP_REASONS: Readonly<Record<string, ChatStopReason>> = {
  stop: 'end',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'max_tokens',
  content_filter: 'refusal',
};

interface PartialToolCall {
  id: string | undefined;
  name: string;
  json: string;
}

/** Reads a whole Chat Completions stream into one response, passing text deltas on as they come. */
export async function collectOpenAiStream(chunks: AsyncIterable<unknown>, context: StreamContext): Promise<ChatResponse> {
  const { providerId } = context;
  let model: string | undefined;
  let text = '';
  let refusal = '';
  const toolCalls = new Map<number, PartialToolCall>();
  let finishReason: string | undefined;
  let usage = { inputTokens: 0, outputTokens: 0 };

  for await (const raw of chunks) {
    const chunk = parseStreamEvent(chunkSchema, raw, providerId);
    if (chunk.model) model ??= chunk.model;
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    // One completion was asked for (n = 1); its choice is index 0.
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) continue;
    const delta = choice.delta;
    if (delta?.content) {
      text += delta.content;
      context.onText?.(delta.content);
    }
    if (delta?.refusal) refusal += delta.refusal;
    for (const toolCallDelta of delta?.tool_calls ?? []) addToolCallDelta(toolCalls, toolCallDelta, providerId);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }

  if (finishReason === undefined) throw malformedResponse(providerId, 'the response stream ended without a finish_reason');

  const ordered = [...toolCalls.entries()].sort(([left], [right]) => left - right).map(([, call]) => call);
  const finished: ChatToolCall[] = ordered.map((call, position) => {
    if (call.name === '') throw malformedResponse(providerId, `tool call ${position} in the response has no function name`);
    // Some compatible servers send no call ids; any id works as long as the tool result echoes it.
    return { id: call.id ?? `call_${position}`, name: call.name, ...parseToolArguments(call.json, call.name) };
  });
  const stopReason: ChatStopReason =
    refusal !== '' ? 'refusal' : (STOP_REASONS[finishReason] ?? (finished.length > 0 ? 'tool_calls' : 'end'));

  return {
    text,
    toolCalls: finished,
    stopReason,
    ...(refusal === '' ? {} : { refusal }),
    usage,
    model: model ?? context.requestedModel,
  };
}

/**
 * OpenAI names the call a fragment belongs to by `index`. Servers that leave the index out
 * send each call whole, or at least start it with its id, so a new id starts a new call and
 * a fragment without one continues the last. Some servers repeat the name in every fragment.
 */
function addToolCallDelta(calls: Map<number, PartialToolCall>, delta: ToolCallDelta, providerId: string): void {
  const key = delta.index ?? keyWithoutIndex(calls, delta.id);
  if (key === undefined) throw malformedResponse(providerId, 'a tool call fragment has neither an index nor an id, and no call precedes it');
  let call = calls.get(key);
  if (!call) {
    call = { id: undefined, name: '', json: '' };
    calls.set(key, call);
  }
  if (delta.id) call.id = delta.id;
  if (delta.function?.name && call.name === '') call.name = delta.function.name;
  if (delta.function?.arguments) call.json += delta.function.arguments;
}

function keyWithoutIndex(calls: Map<number, PartialToolCall>, id: string | null | undefined): number | undefined {
  const entries = [...calls.entries()];
  if (id) return entries.find(([, call]) => call.id === id)?.[0] ?? Math.max(-1, ...calls.keys()) + 1;
  return entries.at(-1)?.[0];
}
