import type { z } from 'zod';
import { ProviderError } from './provider-error.js';

/** What a stream collector needs besides the events. */
export interface StreamContext {
  providerId: string;
  /** The model asked for, reported when the stream does not name the one that answered. */
  requestedModel: string;
  onText?: ((delta: string) => void) | undefined;
}

/** Checks one streamed event against the shape the collector relies on; a mismatch is a malformed answer. */
export function parseStreamEvent<Schema extends z.ZodType>(schema: Schema, event: unknown, providerId: string): z.output<Schema> {
  const result = schema.safeParse(event);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw malformedResponse(providerId, `a stream event does not have the expected shape (${where}${issue?.message ?? 'invalid'})`);
}

export function malformedResponse(providerId: string, what: string): ProviderError {
  return new ProviderError('malformed', `${providerId}: ${what}`, { providerId });
}
