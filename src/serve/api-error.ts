import { HandbookError } from '../errors.js';
import { PathRefused } from '../harness/workspace.js';

export type ApiStatus = 400 | 403 | 404 | 405 | 500 | 503;

/** An answer that is an error: the HTTP status and one line for the person reading the app. */
export class ApiError extends Error {
  constructor(
    readonly status: ApiStatus,
    message: string,
  ) {
    // One line, whatever the request put into it (an id or a path quoted back).
    super(message.replace(/[\r\n\u2028\u2029]+/g, ' '));
  }
}

const STATUS_OF_CODE: Partial<Record<HandbookError['code'], ApiStatus>> = {
  NO_HANDBOOK: 503,
  DATABASE_LOCKED: 503,
  UNIT_NOT_FOUND: 404,
  SLOT_NOT_FOUND: 404,
  STAGE_NOT_FOUND: 404,
  BEHAVIOR_NOT_FOUND: 404,
  UNIT_AMBIGUOUS: 400,
  INVALID_INPUT: 400,
};

/** A failure no rule of the server or the library foresaw: a bug, logged with its stack. */
export function isUnexpected(error: unknown): boolean {
  return !(error instanceof ApiError) && !(error instanceof PathRefused) && !HandbookError.isInstance(error);
}

/**
 * The error an answer becomes. Library errors keep their one line; a missing handbook says the
 * one thing to do, since the app shows it in place of every view, and whether it was deleted
 * while the server ran (`handbookDeleted`) or never built; anything else is a bug, reported
 * without its stack.
 */
export function apiErrorOf(error: unknown, handbookDeleted: boolean): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof PathRefused) return new ApiError(403, error.message);
  if (HandbookError.isInstance(error)) {
    if (error.code === 'NO_HANDBOOK') {
      return new ApiError(503, handbookDeleted ? 'the handbook was deleted while the server ran: run handbook build to build it again' : 'no handbook built yet: run handbook build first');
    }
    return new ApiError(STATUS_OF_CODE[error.code] ?? 500, `${error.message}${error.hint ? ` (${error.hint})` : ''}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, `unexpected error: ${message.split('\n')[0]} (a bug in handbook; the server log has details)`);
}
