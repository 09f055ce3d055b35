/**
 * How long a response asks the client to wait, from `retry-after-ms` (milliseconds, sent by
 * OpenAI and Anthropic) or the standard `retry-after` (seconds or an HTTP date).
 * Undefined when neither header holds a usable value.
 */
export function retryAfterMsFrom(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined;

  const milliseconds = nonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return milliseconds;

  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const seconds = nonNegativeNumber(retryAfter);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

function nonNegativeNumber(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
