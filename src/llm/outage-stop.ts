import type { ChatProvider } from './chat-types.js';
import { ProviderError, type ProviderErrorKind } from './provider-error.js';

/**
 * Failures that the next request would meet too: a server not reached after every retry, a
 * server that kept timing out, a key refused. A build asks a model hundreds of times; each of
 * those calls would spend its retries and backoff for nothing.
 */
const OUTAGE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['network', 'timeout', 'auth']);

/** A provider that stops asking after an outage, and counts the calls it did not make. */
export interface OutageStoppedProvider extends ChatProvider {
  readonly notAsked: number;
}

/**
 * Wraps a (retrying) provider for one piece of work: after a call fails with an outage, every
 * later call fails at once with the same kind of error, so its caller falls back as it does
 * for a failed call, without asking the provider again.
 */
export function stopAfterOutage(provider: ChatProvider): OutageStoppedProvider {
  let outage: ProviderError | undefined;
  let notAsked = 0;
  return {
    id: provider.id,
    get notAsked() {
      return notAsked;
    },
    async complete(request, options) {
      if (outage) {
        notAsked += 1;
        throw new ProviderError(outage.kind, `${provider.id}: not asked, an earlier call failed: ${outage.message}`, { providerId: provider.id, cause: outage });
      }
      try {
        return await provider.complete(request, options);
      } catch (error) {
        if (ProviderError.isInstance(error) && OUTAGE_KINDS.has(error.kind)) outage = error;
        throw error;
      }
    },
  };
}
