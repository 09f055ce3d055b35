import { PROVIDER_ERROR_KINDS, ProviderError } from './provider-error.js';
import { mapSdkError, type SdkErrorContext } from './sdk-error.js';

/** What both SDKs' Stream offers: its events, and the controller that cancels its request. */
export interface SdkStream extends AsyncIterable<unknown> {
  readonly controller: AbortController;
}

/**
 * Hands an SDK stream's events to `collect`, and cancels the request however collecting ends.
 * The SDKs cancel only when their own iterator fails or is closed; a collector that throws on
 * an event (a misshapen one, an onText that fails) leaves that iterator suspended with nobody
 * to close it, and the connection open until the server gives up. Cancelling a request whose
 * body has been read to the end does nothing.
 */
export async function collectSdkStream<T>(
  stream: SdkStream,
  context: SdkErrorContext,
  idleMs: number,
  collect: (events: AsyncIterable<unknown>) => Promise<T>,
): Promise<T> {
  try {
    return await collect(readSdkStream(stream, context, idleMs));
  } finally {
    stream.controller.abort();
  }
}

/**
 * Yields an SDK stream's events, mapping a failure to read the next one. Only reading is
 * guarded, so a bug in the code consuming the events still surfaces as itself.
 *
 * The SDKs' own timeout stops once the headers arrive, so a server that starts a stream and then
 * stalls would hold the request for ever: each event must arrive within `idleMs`, or the read
 * fails as a timeout, retried like one that never started.
 */
async function* readSdkStream(stream: SdkStream, context: SdkErrorContext, idleMs: number): AsyncGenerator<unknown, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    let step: IteratorResult<unknown>;
    try {
      step = await nextWithin(iterator, idleMs, () => new ProviderError('timeout', `${context.providerId}: ${PROVIDER_ERROR_KINDS.timeout}`, { providerId: context.providerId }));
    } catch (error) {
      // The SDKs pass the body reader's own error through when a connection drops mid-stream.
      throw mapSdkError(error, context, (cause) => new ProviderError('network', `${context.providerId}: the response stream broke off`, { providerId: context.providerId, cause }));
    }
    if (step.done) return;
    yield step.value;
  }
}

async function nextWithin<T>(iterator: AsyncIterator<T>, idleMs: number, onIdle: () => Error): Promise<IteratorResult<T>> {
  const next = iterator.next();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Cancelling the request, as collectSdkStream then does, rejects this read too, with nobody left to hear it.
      next.catch(() => undefined);
      reject(onIdle());
    }, idleMs);
  });
  try {
    return await Promise.race([next, idle]);
  } finally {
    clearTimeout(timer);
  }
}
