import { z } from 'zod';
import { PROVIDER_ERROR_KINDS, ProviderError, type ProviderErrorKind } from './provider-error.js';
import { retryAfterMsFrom } from './retry-after.js';

/** What both SDKs' APIError carries; their error classes share this shape. */
interface SdkApiError extends Error {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
  readonly type?: string | null | undefined;
  readonly requestID?: string | null | undefined;
}

type ErrorClass<T> = abstract new (...args: never[]) => T;

/** The SDK's own error classes, so that `instanceof` checks the SDK that actually threw. */
export interface SdkErrorClasses {
  APIError: ErrorClass<SdkApiError>;
  APIConnectionError: ErrorClass<SdkApiError>;
  APIConnectionTimeoutError: ErrorClass<SdkApiError>;
  APIUserAbortError: ErrorClass<SdkApiError>;
}

export interface SdkErrorContext {
  providerId: string;
  classes: SdkErrorClasses;
  /** Strings that must not reach a message (the API key), in case the server echoes them. */
  secrets: readonly string[];
  signal?: AbortSignal | undefined;
}

/**
 * What complete() throws for an error raised by an SDK: a ProviderError for a provider
 * failure, the signal's reason for an abort, and for an error no SDK class describes,
 * whatever `unrecognised` makes of it: by default the error itself, since it is a bug.
 */
export function mapSdkError(error: unknown, context: SdkErrorContext, unrecognised: (error: unknown) => unknown = (same) => same): unknown {
  const { classes, providerId } = context;
  if (context.signal?.aborted) return context.signal.reason;
  if (ProviderError.isInstance(error)) return error;
  if (error instanceof classes.APIUserAbortError) return error;
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ProviderError('timeout', `${providerId}: ${PROVIDER_ERROR_KINDS.timeout}`, { providerId });
  }
  if (error instanceof classes.APIConnectionError) {
    return new ProviderError('network', `${providerId}: ${PROVIDER_ERROR_KINDS.network}`, { providerId, cause: error.cause });
  }
  if (error instanceof classes.APIError) return fromApiError(error, context);
  // The SDKs parse each stream event with JSON.parse and let its SyntaxError through.
  if (error instanceof SyntaxError) {
    return new ProviderError('malformed', `${providerId}: the response stream holds an event that is not JSON`, { providerId });
  }
  return unrecognised(error);
}

function fromApiError(error: SdkApiError, context: SdkErrorContext): ProviderError {
  const { providerId } = context;
  const status = error.status;
  const kind = status === undefined ? kindFromErrorType(error.type) : kindFromStatus(status);
  const detail = serverMessage(error, context.secrets);
  const where = status === undefined ? 'in the response stream' : `HTTP ${status}`;
  const message = `${providerId}: ${PROVIDER_ERROR_KINDS[kind]} (${where})${detail ? `: ${detail}` : ''}`;
  const retryAfterMs = retryAfterMsFrom(error.headers);
  const requestId = error.requestID ?? undefined;
  return new ProviderError(kind, message, {
    providerId,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(requestId === undefined ? {} : { requestId }),
  });
}

function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 402 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  // 409 is a lock conflict on the provider's side that clears by itself; the SDKs retry it too.
  if (status === 409 || status >= 500) return 'server';
  return 'bad_request';
}

/** Errors sent inside a stream have no status, only the error type of the body (Anthropic's names, OpenAI's server_error). */
const KIND_BY_ERROR_TYPE: Readonly<Record<string, ProviderErrorKind>> = {
  rate_limit_error: 'rate_limited',
  overloaded_error: 'server',
  api_error: 'server',
  server_error: 'server',
  timeout_error: 'timeout',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'auth',
  invalid_request_error: 'bad_request',
  not_found_error: 'bad_request',
  request_too_large: 'bad_request',
};

function kindFromErrorType(type: string | null | undefined): ProviderErrorKind {
  return (type ? KIND_BY_ERROR_TYPE[type] : undefined) ?? 'server';
}

/** Anthropic nests `{ error: { message } }` in the body, OpenAI hands over the inner `{ message }`. */
const errorBodySchema = z.union([
  z.object({ error: z.object({ message: z.string() }) }).transform((body) => body.error.message),
  z.object({ message: z.string() }).transform((body) => body.message),
]);

const MAX_DETAIL_LENGTH = 300;

function serverMessage(error: SdkApiError, secrets: readonly string[]): string {
  const parsed = errorBodySchema.safeParse(error.error);
  // Without a JSON body the SDK's message is the response text, after the status.
  const text = parsed.success ? parsed.data : error.message.replace(/^\d{3} /, '');
  const oneLine = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_DETAIL_LENGTH ? `${oneLine.slice(0, MAX_DETAIL_LENGTH)}…` : oneLine;
}

export function redact(text: string, secrets: readonly string[]): string {
  return secrets.filter((secret) => secret.length > 0).reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}
