import { HandbookError } from '../errors.js';

/**
 * Refuses a count option that is set but not a positive integer, in one line and before any work:
 * the schemas further in would refuse it later, with a zod dump, after a run folder exists. They
 * take only safe integers, so a larger one (2 ** 64) is refused here too.
 */
export function assertPositiveOption(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) throw new HandbookError('INVALID_INPUT', `${name} must be a positive integer up to ${Number.MAX_SAFE_INTEGER}, not ${value}`);
}
