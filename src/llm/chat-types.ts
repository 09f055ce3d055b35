import type { ProviderError } from './provider-error.js';

/**
 * The provider-neutral chat contract. Each provider translates it to its own wire format,
 * so nothing above src/llm knows which SDK answered.
 */

export interface ChatToolCall {
  /** The provider's id for the call; a tool result answers it through `toolCallId`. */
  id: string;
  name: string;
  /** The arguments as the model wrote them, parsed from JSON but not checked against the tool's schema. */
  arguments: unknown;
  /** Set when the arguments were not JSON; `arguments` then holds the raw text. */
  argumentsError?: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  /** `isError` reaches Anthropic as a flag; Chat Completions has none, so the content should say what failed. */
  | { role: 'tool'; toolCallId: string; content: string; isError?: boolean };

export interface ChatTool {
  name: string;
  description: string;
  /** A JSON schema whose root is `{ type: 'object', ... }`. */
  inputSchema: Record<string, unknown>;
}

export type ChatToolChoice = 'auto' | 'required' | { name: string };

export interface ChatResponseFormat {
  type: 'json_schema';
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  system?: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  toolChoice?: ChatToolChoice;
  responseFormat?: ChatResponseFormat;
  maxTokens: number;
  temperature?: number;
  /** Aborting rejects complete() with the signal's reason; an abort is never retried or wrapped. */
  signal?: AbortSignal;
}

/**
 * Why the model stopped. A refusal is an answer, not a failure: retrying it would ask the
 * same question again and bill it twice.
 */
export type ChatStopReason = 'end' | 'tool_calls' | 'max_tokens' | 'refusal';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResponse {
  text: string;
  toolCalls: ChatToolCall[];
  stopReason: ChatStopReason;
  /** The model's explanation when stopReason is 'refusal' and it gave one. */
  refusal?: string;
  usage: TokenUsage;
  /** The model that answered, as the provider names it (may be more specific than the one asked for). */
  model: string;
}

export interface RetryEvent {
  /** The attempt that failed, counting from 1. */
  attempt: number;
  error: ProviderError;
  /** How long the provider waits before the next attempt. */
  delayMs: number;
}

export interface CompleteOptions {
  /** Receives text as it streams in. */
  onText?: (delta: string) => void;
  /**
   * Called before each retry. Text already passed to onText belongs to the failed attempt,
   * so a consumer that renders it should discard it here.
   */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * A model behind one provider. complete() resolves with the whole response (refusals
 * included) or rejects with a ProviderError; the only other rejection is the request
 * signal's abort reason.
 */
export interface ChatProvider {
  /** The model spec this provider answers for, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly id: string;
  complete(request: ChatRequest, options?: CompleteOptions): Promise<ChatResponse>;
}
