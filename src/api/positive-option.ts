import { HandbookError } from '../errors.js';

/**
 * Refuses a count option that is set but not a positive integer, in one line and before any work:
 * the schemas further in would refuse it later, with a zod dump, after a run folder exists.
 */
export function assertPositiveOption(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new HandbookError('INVALID_INPUT', `${name} must be a positive integer, not ${value}`);
}
