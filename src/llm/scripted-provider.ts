import { z } from 'zod';
import { readJsonInput } from '../text/read-json-input.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './chat-types.js';
import { ProviderError, type ProviderErrorKind } from './provider-error.js';

/**
 * A model that answers from a file: each call takes the next turn. For tests, demos and runs
 * that must replay exactly. It is labeled `script:PATH` everywhere it reports, never as a model.
 */

const toolCallSchema = z.object({ id: z.string().min(1).optional(), name: z.string().min(1), arguments: z.unknown().default({}) }).strict();

const turnSchema = z.union([
  z.object({ error: z.object({ status: z.number().int().min(400).max(599), message: z.string().optional(), retryAfterMs: z.number().nonnegative().optional() }).strict() }).strict(),
  z.object({ refusal: z.union([z.literal(true), z.string().min(1)]) }).strict(),
  z
    .object({ text: z.string().default(''), tool_calls: z.array(toolCallSchema).default([]) })
    .strict()
    .refine((turn) => turn.text !== '' || turn.tool_calls.length > 0, 'a turn needs text, tool_calls, refusal or error'),
]);
export const modelScriptSchema = z.object({ turns: z.array(turnSchema).min(1, 'the script has no turns') }).strict();
export type ModelScript = z.output<typeof modelScriptSchema>;
type ScriptTurn = ModelScript['turns'][number];

export function readModelScript(file: string): ModelScript {
  return readJsonInput(file, modelScriptSchema, 'model script', 'write {"turns": [{"text": "...", "tool_calls": [{"name": "read_file", "arguments": {"path": "src/a.ts"}}]}]}');
}

export class ScriptedProvider implements ChatProvider {
  readonly id: string;
  private next = 0;

  constructor(
    private readonly script: ModelScript,
    label: string,
  ) {
    this.id = `script:${label}`;
  }

  /** How many turns have been taken; a test reads it to see that a retry took a turn. */
  get turnsTaken(): number {
    return this.next;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    if (request.signal?.aborted) throw request.signal.reason;
    const turn = this.script.turns[this.next];
    if (!turn) throw new ProviderError('bad_request', `${this.id}: script exhausted`, { providerId: this.id });
    const number = ++this.next;
    return answer(turn, number, this.id, estimateTokens(request));
  }
}

function answer(turn: ScriptTurn, number: number, providerId: string, inputTokens: number): ChatResponse {
  if ('error' in turn) {
    const { status, message, retryAfterMs } = turn.error;
    throw new ProviderError(kindOf(status), `${providerId}: ${message ?? `scripted HTTP ${status} at turn ${number}`}`, {
      providerId,
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if ('refusal' in turn) {
    const refusal = turn.refusal === true ? undefined : turn.refusal;
    return { text: '', toolCalls: [], stopReason: 'refusal', ...(refusal ? { refusal } : {}), usage: { inputTokens, outputTokens: 0 }, model: 'script' };
  }
  const toolCalls = turn.tool_calls.map((call, index) => ({ id: call.id ?? `script_${number}_${index + 1}`, name: call.name, arguments: call.arguments }));
  return {
    text: turn.text,
    toolCalls,
    stopReason: toolCalls.length > 0 ? 'tool_calls' : 'end',
    usage: { inputTokens, outputTokens: Math.ceil((turn.text.length + JSON.stringify(turn.tool_calls).length) / 4) },
    model: 'script',
  };
}

function kindOf(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** A script has no tokenizer; four characters a token is the usual rough measure. */
function estimateTokens(request: ChatRequest): number {
  const characters = (request.system?.length ?? 0) + request.messages.reduce((sum, message) => sum + message.content.length, 0);
  return Math.ceil(characters / 4);
}
