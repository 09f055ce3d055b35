import { createRequire } from 'node:module';
import { z } from 'zod';
import type { ChatMessage, ChatResponseFormat, ChatTool, TokenUsage } from '../llm/chat-types.js';

/** The tokenizer's tables take about 150 ms to load: only a run that counts tokens loads them. */
let countTokens: typeof import('gpt-tokenizer').countTokens | undefined;
const tokenCounter = (): typeof import('gpt-tokenizer').countTokens =>
  (countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens);

/**
 * Token accounting for one task: an estimate of a request before it is sent (a tokenizer
 * library, since the provider only counts after the fact) and the provider's own counts once
 * it answered. Both feed the decision to compact the conversation and the budget limits.
 */

/**
 * Role markers and separators around each message, tool call and tool definition. OpenAI
 * documents 3 tokens a message in its chat format; Anthropic's block framing is of the same
 * size. Rounding up to 4 keeps the estimate on the side that compacts early, never late.
 */
export const FRAMING_TOKENS = 4;

/** The tokens that prime the reply (OpenAI documents 3), counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;

// Tool output may quote `<|endoftext|>` and the like; it reaches the model as text, so it is counted as text instead of throwing.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer's merges are quadratic in the length of one unbroken run of characters: a 250 kB
 * line of minified code or repeated characters in a tool call held the loop for minutes, past
 * its wall clock. Tokens are far shorter than a slice, so counting such a run slice by slice
 * changes the estimate by about a token a slice.
 */
const LONGEST_COUNTED_RUN = 128;

export function countTextTokens(text: string): number {
  if (text === '') return 0;
  const count = (part: string): number => (part === '' ? 0 : tokenCounter()(part, AS_PLAIN_TEXT));
  let sliced = 0;
  // A plain `\S+` and a length test: V8 overflows its stack matching `\S{129,}` against megabytes.
  const rest = text.replace(/\S+/g, (run) => {
    if (run.length <= LONGEST_COUNTED_RUN) return run;
    for (let start = 0; start < run.length; start += LONGEST_COUNTED_RUN) sliced += count(run.slice(start, start + LONGEST_COUNTED_RUN));
    return '';
  });
  return sliced + count(rest);
}

// Messages are values: the loop never changes one after pushing it, so a count keyed by identity stays true and each turn only counts what is new.
const counted = new WeakMap<ChatMessage, number>();

export function estimateMessageTokens(message: ChatMessage): number {
  const known = counted.get(message);
  if (known !== undefined) return known;
  let tokens = FRAMING_TOKENS + countTextTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) tokens += FRAMING_TOKENS + countTextTokens(call.name) + countTextTokens(jsonText(call.arguments));
  }
  counted.set(message, tokens);
  return tokens;
}

export interface EstimatedRequest {
  system?: string;
  messages: readonly ChatMessage[];
  tools?: readonly ChatTool[];
  responseFormat?: ChatResponseFormat;
}

/**
 * The input tokens of a request as gpt-tokenizer (o200k) counts them. Other models tokenize
 * differently; TokenBudget scales the estimate by what the provider last reported.
 */
export function estimateTokens(request: EstimatedRequest): number {
  let tokens = REPLY_PRIMING_TOKENS;
  if (request.system !== undefined) tokens += FRAMING_TOKENS + countTextTokens(request.system);
  for (const message of request.messages) tokens += estimateMessageTokens(message);
  for (const tool of request.tools ?? []) tokens += FRAMING_TOKENS + countTextTokens(tool.name) + countTextTokens(tool.description) + countTextTokens(jsonText(tool.inputSchema));
  if (request.responseFormat) tokens += FRAMING_TOKENS + countTextTokens(jsonText(request.responseFormat.schema));
  return tokens;
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

export const tokenLimitsSchema = z.object({
  /** The model's context window in tokens, input and output together. */
  contextWindow: z.number().int().positive().default(128_000),
  /** The share of the window at which old turns are compacted. */
  compactAt: z.number().gt(0).max(1).default(0.72),
  /** Compact also when fewer tokens than this would be left free; keep it at least the reply's max tokens. */
  minFreeTokens: z.number().int().nonnegative().default(4096),
  /** The most input tokens one request may carry; unset is unlimited. */
  perTurnInputTokens: z.number().int().positive().optional(),
  /** The most tokens, input and output summed over every turn, the task may use; unset is unlimited. */
  perTaskTokens: z.number().int().positive().optional(),
});
export type TokenLimits = z.output<typeof tokenLimitsSchema>;
export type TokenLimitsInput = z.input<typeof tokenLimitsSchema>;

/**
 * The provider can count more tokens than the estimate (Claude's tokenizer splits code finer
 * than o200k), never trusted to count fewer: compacting a turn early costs little, a request
 * over the window fails. The cap keeps one odd report from doubling every later estimate.
 */
const CALIBRATION_RANGE = { min: 1, max: 2 } as const;

/** What a task has used, as the provider counted it, against its limits. */
export class TokenBudget {
  readonly limits: TokenLimits;
  private input = 0;
  private output = 0;
  private turnCount = 0;
  private scale: number = CALIBRATION_RANGE.min;

  constructor(limits: TokenLimitsInput = {}) {
    this.limits = tokenLimitsSchema.parse(limits);
  }

  /**
   * Adds one answered turn. With the estimate the request was sent with, the ratio of the
   * provider's count to it calibrates the estimates that follow.
   */
  record(usage: TokenUsage, sentEstimate?: number): void {
    this.input += usage.inputTokens;
    this.output += usage.outputTokens;
    this.turnCount++;
    if (sentEstimate !== undefined && sentEstimate > 0 && usage.inputTokens > 0) {
      this.scale = Math.min(CALIBRATION_RANGE.max, Math.max(CALIBRATION_RANGE.min, usage.inputTokens / sentEstimate));
    }
  }

  get used(): { inputTokens: number; outputTokens: number; totalTokens: number; turns: number } {
    return { inputTokens: this.input, outputTokens: this.output, totalTokens: this.input + this.output, turns: this.turnCount };
  }

  /** An estimate as the provider is expected to count it. */
  calibrated(estimate: number): number {
    return Math.ceil(estimate * this.scale);
  }

  /** Whether a request of this estimate has reached the compaction threshold or left too little room free. */
  needsCompaction(estimate: number): boolean {
    const expected = this.calibrated(estimate);
    const { contextWindow, compactAt, minFreeTokens } = this.limits;
    return expected >= compactAt * contextWindow || contextWindow - expected < minFreeTokens;
  }

  /** Whether a request of this estimate carries more input than one turn may. */
  overTurnBudget(estimate: number): boolean {
    const limit = this.limits.perTurnInputTokens;
    return limit !== undefined && this.calibrated(estimate) > limit;
  }

  /**
   * Whether the task has gone over its budget, or would with a next request of this estimate:
   * checked before sending, a turn that would cross the line is never paid for.
   */
  overTaskBudget(nextEstimate = 0): boolean {
    const limit = this.limits.perTaskTokens;
    return limit !== undefined && this.input + this.output + (nextEstimate > 0 ? this.calibrated(nextEstimate) : 0) > limit;
  }
}
