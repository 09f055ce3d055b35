import { describe, expect, it, vi } from 'vitest';
import type { ChatProvider, ChatRequest, RetryEvent } from '../../src/llm/chat-types.js';
import type { CreateProviderOptions } from '../../src/llm/create-provider.js';
import { ProviderError } from '../../src/llm/provider-error.js';
import { closedPortUrl, type FakeServer, type ScriptedReply } from './fake-http-server.js';

/** What the contract suite needs from one wire protocol: a fake server and the replies it can script. */
export interface ProtocolKit {
  name: string;
  apiKey: string;
  start(replies: ScriptedReply[]): Promise<FakeServer>;
  /** The real provider from createProvider, pointed at the fake server. */
  provider(server: FakeServer, options?: CreateProviderOptions): ChatProvider;
  /** A provider pointed at `url`, where nothing listens. */
  providerAt(url: string, options?: CreateProviderOptions): ChatProvider;
  textStream(pieces: string[]): ScriptedReply;
  toolCallStream(call: { id: string; name: string; argumentPieces: string[] }): ScriptedReply;
  refusal(explanation: string): ScriptedReply;
  error(status: number, message: string, headers?: Record<string, string>): ScriptedReply;
  /** The start of a text stream, before the connection drops. */
  truncatedFrames(): string[];
  /** An event that is valid JSON but not of the shape the protocol gives it. */
  misshapenFrame(): string;
}

export const FAST_RETRIES: CreateProviderOptions = { maxAttempts: 3, baseDelayMs: 1 };

export const QUESTION: ChatRequest = {
  system: 'You answer in one sentence.',
  messages: [{ role: 'user', content: 'Say hello.' }],
  maxTokens: 64,
};

export async function providerErrorOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ProviderError, but the call succeeded');
}

/** Far longer than a hang-up takes, so that only a connection left open runs into it. */
async function settlesWithin(promise: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One behavioural contract for every provider, run against the real SDK talking to a local
 * server that speaks the provider's protocol.
 */
export function describeProviderContract(kit: ProtocolKit): void {
  describe(`${kit.name} provider contract`, () => {
    it('streams text: onText receives each delta and the response assembles them', async () => {
      const server = await kit.start([kit.textStream(['Hel', 'lo, ', 'world.'])]);
      const deltas: string[] = [];
      const response = await kit.provider(server, FAST_RETRIES).complete(QUESTION, { onText: (delta) => deltas.push(delta) });
      expect(deltas).toEqual(['Hel', 'lo, ', 'world.']);
      expect(response).toMatchObject({ text: 'Hello, world.', toolCalls: [], stopReason: 'end', usage: { inputTokens: 25, outputTokens: 12 } });
      expect(response.model).not.toBe('');
      expect(server.requests).toHaveLength(1);
    });

    it('parses tool-call arguments that arrive in several deltas', async () => {
      const argumentPieces = ['{"pa', 'th": "src/in', 'dex.ts", "lines"', ': [1, 2]}'];
      const server = await kit.start([kit.toolCallStream({ id: 'call_1', name: 'read_file', argumentPieces })]);
      const response = await kit.provider(server, FAST_RETRIES).complete(QUESTION);
      expect(response.stopReason).toBe('tool_calls');
      expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'read_file', arguments: { path: 'src/index.ts', lines: [1, 2] } }]);
    });

    it.each([
      ['retry-after-ms', '10', 10],
      ['retry-after', '0', 0],
    ])('retries a 429 after the %s wait it names, reports the retry once, then succeeds', async (header, value, expectedDelay) => {
      const server = await kit.start([kit.error(429, 'slow down', { [header]: value }), kit.textStream(['ok'])]);
      const retries: RetryEvent[] = [];
      const response = await kit.provider(server, { ...FAST_RETRIES, baseDelayMs: 5_000 }).complete(QUESTION, { onRetry: (event) => retries.push(event) });
      expect(response.text).toBe('ok');
      expect(server.requests).toHaveLength(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, delayMs: expectedDelay, error: { kind: 'rate_limited', status: 429, retryable: true } });
    });

    it('gives up on a repeated 500 after exactly maxAttempts requests', async () => {
      const server = await kit.start([kit.error(500, 'internal failure')]);
      const retries: RetryEvent[] = [];
      const error = await providerErrorOf(kit.provider(server, FAST_RETRIES).complete(QUESTION, { onRetry: (event) => retries.push(event) }));
      expect(error).toMatchObject({ name: 'ProviderError', kind: 'server', status: 500, retryable: true });
      expect(error.message).toContain('gave up after 3 attempts');
      expect(server.requests).toHaveLength(3);
      expect(retries.map((event) => [event.attempt, event.delayMs])).toEqual([
        [1, 1],
        [2, 2],
      ]);
    });

    it('returns tool-call arguments that are not JSON as the raw text with what is wrong, without retrying', async () => {
      const server = await kit.start([kit.toolCallStream({ id: 'call_1', name: 'read_file', argumentPieces: ['{"path": ', 'src/index.ts}'] })]);
      const response = await kit.provider(server, FAST_RETRIES).complete(QUESTION);
      expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'read_file', arguments: '{"path": src/index.ts}', argumentsError: expect.stringMatching(/^the arguments of the call to read_file are not valid JSON/) }]);
      expect(server.requests).toHaveLength(1);
    });

    it('returns a refusal as a response with stopReason refusal, without retrying', async () => {
      const server = await kit.start([kit.refusal('I cannot help with that.')]);
      const response = await kit.provider(server, FAST_RETRIES).complete(QUESTION);
      expect(response).toMatchObject({ stopReason: 'refusal', refusal: 'I cannot help with that.', toolCalls: [] });
      expect(server.requests).toHaveLength(1);
    });

    it('reports a 401 as auth, without retrying, and keeps the API key out of the message even when the server echoes it', async () => {
      const server = await kit.start([kit.error(401, `invalid api key: ${kit.apiKey}`)]);
      const error = await providerErrorOf(kit.provider(server, FAST_RETRIES).complete(QUESTION));
      expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
      expect(server.requests).toHaveLength(1);
      expect(error.message).not.toContain(kit.apiKey);
      expect(error.message).toContain('[redacted]');
      expect(JSON.stringify(error)).not.toContain(kit.apiKey);
    });

    it('reports a 400 as bad_request with the server message, without retrying', async () => {
      const server = await kit.start([kit.error(400, 'max_tokens: must be at most 8192')]);
      const error = await providerErrorOf(kit.provider(server, FAST_RETRIES).complete(QUESTION));
      expect(error).toMatchObject({ kind: 'bad_request', status: 400, retryable: false });
      expect(error.message).toContain('max_tokens: must be at most 8192');
      expect(server.requests).toHaveLength(1);
    });

    it('retries a stream that breaks off mid-way as a network failure', async () => {
      const server = await kit.start([{ kind: 'cut', frames: kit.truncatedFrames() }, kit.textStream(['whole'])]);
      const retries: RetryEvent[] = [];
      const response = await kit.provider(server, FAST_RETRIES).complete(QUESTION, { onRetry: (event) => retries.push(event) });
      expect(response.text).toBe('whole');
      expect(retries.map((event) => event.error.kind)).toEqual(['network']);
      expect(server.requests).toHaveLength(2);
    });

    it('reports a server that never answers as a timeout', async () => {
      const server = await kit.start([{ kind: 'hang' }]);
      const error = await providerErrorOf(kit.provider(server, { maxAttempts: 1, timeoutMs: 50 }).complete(QUESTION));
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    });

    it('reports a stream that stalls after its first events as a timeout', async () => {
      const server = await kit.start([{ kind: 'stall', frames: kit.truncatedFrames() }]);
      const error = await providerErrorOf(kit.provider(server, { maxAttempts: 1, timeoutMs: 50 }).complete(QUESTION));
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    });

    it.each([
      { failure: 'an event of the wrong shape', misshapen: true },
      { failure: 'onText throwing', onText: () => { throw new Error('the terminal went away'); } },
      { failure: 'the next event taking too long', options: { maxAttempts: 1, timeoutMs: 50 } },
    ])('hangs up a stream whose reading fails partway through: $failure', async ({ misshapen, onText, options }) => {
      const frames = [...kit.truncatedFrames(), ...(misshapen ? [kit.misshapenFrame()] : [])];
      const server = await kit.start([{ kind: 'stall', frames }]);
      await expect(kit.provider(server, options ?? FAST_RETRIES).complete(QUESTION, onText ? { onText } : {})).rejects.toThrow();
      expect(server.requests).toHaveLength(1);
      await settlesWithin(server.responseClosed(0), 10_000, 'the client to hang up the stalled response');
    });

    it('reports an unreachable server as a network failure after every attempt', async () => {
      const retries: RetryEvent[] = [];
      const error = await providerErrorOf(kit.providerAt(await closedPortUrl(), FAST_RETRIES).complete(QUESTION, { onRetry: (event) => retries.push(event) }));
      expect(error).toMatchObject({ kind: 'network', retryable: true });
      expect(retries).toHaveLength(2);
    });

    it('settles a request aborted mid-stream with the signal reason, after the text so far', async () => {
      const server = await kit.start([{ kind: 'stall', frames: kit.truncatedFrames() }]);
      const controller = new AbortController();
      const reason = new Error('the user pressed Ctrl-C');
      const deltas: string[] = [];
      const pending = kit.provider(server, FAST_RETRIES).complete({ ...QUESTION, signal: controller.signal }, { onText: (delta) => deltas.push(delta) });
      await vi.waitFor(() => expect(deltas).toEqual(['who']), { interval: 2 });
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(server.requests).toHaveLength(1);
    });

    it('settles an aborted request with the signal reason and does not retry it', async () => {
      const server = await kit.start([{ kind: 'hang' }]);
      const controller = new AbortController();
      const reason = new Error('the user pressed Ctrl-C');
      const pending = kit.provider(server, FAST_RETRIES).complete({ ...QUESTION, signal: controller.signal });
      await vi.waitFor(() => expect(server.requests).toHaveLength(1), { interval: 2 });
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(server.requests).toHaveLength(1);
    });
  });
}
