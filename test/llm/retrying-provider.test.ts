import { describe, expect, it } from 'vitest';
import type { ChatProvider, ChatResponse, RetryEvent } from '../../src/llm/chat-types.js';
import { ProviderError, type ProviderErrorKind } from '../../src/llm/provider-error.js';
import { retryAfterMsFrom } from '../../src/llm/retry-after.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, withRetries } from '../../src/llm/retrying-provider.js';
import { QUESTION } from './provider-contract.js';

const ANSWER: ChatResponse = { text: 'ok', toolCalls: [], stopReason: 'end', usage: { inputTokens: 1, outputTokens: 1 }, model: 'scripted' };

function failure(kind: ProviderErrorKind, retryAfterMs?: number): ProviderError {
  return new ProviderError(kind, `scripted: ${kind}`, { providerId: 'scripted', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}

/** Fails with the given errors in turn, then answers. */
function scripted(errors: ProviderError[]): ChatProvider & { calls: number } {
  const provider = {
    id: 'scripted',
    calls: 0,
    complete: async () => {
      const error = errors[provider.calls++];
      if (error) throw error;
      return ANSWER;
    },
  };
  return provider;
}

describe('retry delays', () => {
  const policy = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles from the base delay and stops at the cap', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(failure('server'), attempt, policy))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it("uses the provider's retry-after, capped, instead of backoff", () => {
    expect(retryDelayMs(failure('rate_limited', 0), 3, policy)).toBe(0);
    expect(retryDelayMs(failure('rate_limited', 250), 1, policy)).toBe(250);
    expect(retryDelayMs(failure('rate_limited', 3_600_000), 1, policy)).toBe(1_000);
  });

  it('defaults to four attempts', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBe(4);
  });
});

describe('retry-after headers', () => {
  const now = () => Date.parse('2030-01-01T00:00:00Z');

  it('reads retry-after-ms first, then retry-after in seconds or as a date', () => {
    expect(retryAfterMsFrom(new Headers({ 'retry-after-ms': '10', 'retry-after': '5' }), now)).toBe(10);
    expect(retryAfterMsFrom(new Headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMsFrom(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }), now)).toBe(3_000);
    expect(retryAfterMsFrom(new Headers({ 'retry-after': 'Tue, 01 Jan 2029 00:00:03 GMT' }), now)).toBe(0);
  });

  it('ignores values it cannot use', () => {
    expect(retryAfterMsFrom(new Headers({ 'retry-after-ms': '-5', 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMsFrom(new Headers(), now)).toBeUndefined();
    expect(retryAfterMsFrom(undefined, now)).toBeUndefined();
  });
});

describe('withRetries', () => {
  it('retries retryable kinds until an attempt succeeds, reporting each retry', async () => {
    const inner = scripted([failure('rate_limited', 0), failure('server'), failure('timeout')]);
    const retries: RetryEvent[] = [];
    const response = await withRetries(inner, { baseDelayMs: 0 }).complete(QUESTION, { onRetry: (event) => retries.push(event) });
    expect(response).toBe(ANSWER);
    expect(inner.calls).toBe(4);
    expect(retries.map((event) => [event.attempt, event.error.kind])).toEqual([
      [1, 'rate_limited'],
      [2, 'server'],
      [3, 'timeout'],
    ]);
  });

  it.each<ProviderErrorKind>(['auth', 'bad_request', 'malformed'])('settles %s on the first attempt, unchanged', async (kind) => {
    const error = failure(kind);
    const inner = scripted([error]);
    await expect(withRetries(inner, { baseDelayMs: 0 }).complete(QUESTION)).rejects.toBe(error);
    expect(inner.calls).toBe(1);
  });

  it('lets errors that are not provider failures through at once', async () => {
    const bug = new TypeError('a bug');
    let calls = 0;
    const inner: ChatProvider = { id: 'buggy', complete: async () => ((calls += 1), Promise.reject(bug)) };
    await expect(withRetries(inner, { baseDelayMs: 0 }).complete(QUESTION)).rejects.toBe(bug);
    expect(calls).toBe(1);
  });

  it('stops waiting when the request is aborted during a backoff, with the signal reason', async () => {
    const inner = scripted([failure('server'), failure('server')]);
    const controller = new AbortController();
    const reason = new Error('stopped');
    const pending = withRetries(inner, { baseDelayMs: 60_000 }).complete(
      { ...QUESTION, signal: controller.signal },
      { onRetry: () => queueMicrotask(() => controller.abort(reason)) },
    );
    await expect(pending).rejects.toBe(reason);
    expect(inner.calls).toBe(1);
  });

  it('keeps the id of the provider it wraps', () => {
    expect(withRetries(scripted([])).id).toBe('scripted');
  });
});
