/**
 * How a model call failed, typed so that callers (and the retry policy) branch on `kind`
 * and `retryable`, never on a message. Refusals are not errors: see ChatStopReason.
 */
export const PROVIDER_ERROR_KINDS = {
  rate_limited: 'the provider is rate limiting requests',
  server: 'the provider failed or is overloaded',
  malformed: 'the provider answered with something that cannot be read',
  auth: 'the provider rejected the credentials or the account lacks access',
  bad_request: 'the provider rejected the request',
  network: 'the provider could not be reached',
  timeout: 'the provider did not answer in time',
} as const;
export type ProviderErrorKind = keyof typeof PROVIDER_ERROR_KINDS;

const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['rate_limited', 'server', 'network', 'timeout']);

export interface ProviderErrorDetails {
  /** The id of the provider that failed, e.g. `openai:gpt-5`. */
  providerId: string;
  status?: number;
  /** What the provider asked us to wait (`retry-after-ms` / `retry-after`), uncapped. */
  retryAfterMs?: number;
  /** The provider's request id, for a support ticket. */
  requestId?: string;
  cause?: unknown;
}

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly providerId: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly requestId: string | undefined;
  /** Whether the same request may succeed later; derived from the kind. */
  readonly retryable: boolean;

  /** The message must not hold credentials: it is shown to users and written to logs. */
  constructor(kind: ProviderErrorKind, message: string, details: ProviderErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.providerId = details.providerId;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.requestId = details.requestId;
    this.retryable = RETRYABLE_KINDS.has(kind);
  }

  static isInstance(error: unknown): error is ProviderError {
    return error instanceof Error && error.name === 'ProviderError' && 'kind' in error;
  }
}
