import { ProviderError } from './provider-error.js';
import { mapSdkError, type SdkErrorContext } from './sdk-error.js';

/**
 * Yields an SDK stream's events, mapping a failure to read the next one. Only reading is
 * guarded, so a bug in the code consuming the events still surfaces as itself.
 */
export async function* readSdkStream(stream: AsyncIterable<unknown>, context: SdkErrorContext): AsyncGenerator<unknown, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    let step: IteratorResult<unknown>;
    try {
      step = await iterator.next();
    } catch (error) {
      // The SDKs pass the body reader's own error through when a connection drops mid-stream.
      throw mapSdkError(error, context, (cause) => new ProviderError('network', `${context.providerId}: the response stream broke off`, { providerId: context.providerId, cause }));
    }
    if (step.done) return;
    yield step.value;
  }
}
