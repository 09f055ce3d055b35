import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatProvider, ChatRequest, ChatResponse, CompleteOptions } from './chat-types.js';
import { ProviderError } from './provider-error.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles after each further one. */
  baseDelayMs: number;
  /** The longest wait, whether from backoff or from the provider's retry-after. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * How long to wait after a failed attempt: what the provider asked for when it said,
 * otherwise exponential backoff. No jitter: one CLI process per user makes no thundering
 * herd, and a fixed schedule keeps the waits predictable.
 */
export function retryDelayMs(error: ProviderError, attempt: number, policy: RetryPolicy): number {
  const requested = error.retryAfterMs ?? policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(requested, policy.maxDelayMs);
}

/**
 * Wraps a provider so that complete() retries rate limits, server errors, timeouts and
 * network failures, reporting each retry through onRetry. Everything else (auth, bad
 * requests, malformed answers, refusals, aborts) settles on the first attempt.
 */
export function withRetries(provider: ChatProvider, policy: Partial<RetryPolicy> = {}): ChatProvider {
  const settled: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...policy };
  return {
    id: provider.id,
    complete: (request, options) => completeWithRetries(provider, request, options, settled),
  };
}

async function completeWithRetries(
  provider: ChatProvider,
  request: ChatRequest,
  options: CompleteOptions | undefined,
  policy: RetryPolicy,
): Promise<ChatResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await provider.complete(request, options);
    } catch (error) {
      if (!ProviderError.isInstance(error) || !error.retryable) throw error;
      if (attempt >= policy.maxAttempts) throw gaveUp(error, attempt);
      const delayMs = retryDelayMs(error, attempt, policy);
      options?.onRetry?.({ attempt, error, delayMs });
      await waitOrAbort(delayMs, request.signal);
    }
  }
}

function gaveUp(error: ProviderError, attempts: number): ProviderError {
  if (attempts === 1) return error;
  return new ProviderError(error.kind, `${error.message} (gave up after ${attempts} attempts)`, {
    providerId: error.providerId,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    cause: error,
  });
}

/** An abort during the wait settles complete() with the signal's reason, as an abort mid-request does. */
async function waitOrAbort(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(delayMs, undefined, signal ? { signal } : {});
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}
