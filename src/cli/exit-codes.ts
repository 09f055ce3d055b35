import type { ErrorCode } from '../index.js';

/** Documented exit codes: scripts may rely on them. */
export const EXIT = {
  ok: 0,
  internal: 1,
  invalidInput: 2,
  noHandbook: 3,
  database: 4,
  /** `status`: the handbook is stale (entries changed or frozen since the build). */
  stale: 5,
} as const;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'NO_HANDBOOK':
      return EXIT.noHandbook;
    case 'DATABASE_CORRUPT':
    case 'DATABASE_TOO_NEW':
    case 'DATABASE_LOCKED':
      return EXIT.database;
    default:
      return EXIT.invalidInput;
  }
}
