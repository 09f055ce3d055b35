/**
 * Every failure the library expects is a HandbookError with a stable code; the CLI turns it
 * into one line and an exit code. Anything else is a bug and keeps its stack for --debug.
 */
export const ERROR_CODES = {
  REPO_NOT_FOUND: 'the repository path does not exist',
  NOT_A_DIRECTORY: 'the repository path is a file, not a folder',
  NO_SOURCE_FILES: 'no TypeScript, JavaScript, Python, Go or Rust source files were found',
  DATABASE_CORRUPT: 'the handbook database cannot be read',
  DATABASE_TOO_NEW: 'the handbook database was written by a newer version',
  DATABASE_LOCKED: 'another process holds the handbook database',
  NO_HANDBOOK: 'no handbook has been built for this repository',
  UNIT_NOT_FOUND: 'no unit matches the name',
  UNIT_AMBIGUOUS: 'the name matches several units',
  SLOT_NOT_FOUND: 'no state slot matches the name',
  STAGE_NOT_FOUND: 'no stage has the id',
  BEHAVIOR_NOT_FOUND: 'no behaviour has the id',
  INVALID_INPUT: 'an argument or option is not valid',
  JOURNAL_BROKEN: 'the journal of writes does not verify',
  JOURNAL_LOCKED: 'another process holds the journal of writes',
  STOPPED: 'the work was abandoned because its caller is going away',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export class HandbookError extends Error {
  override readonly name = 'HandbookError';
  readonly code: ErrorCode;
  /** What the user can do about it, phrased as an instruction. */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.hint = hint;
  }

  static isInstance(error: unknown): error is HandbookError {
    return error instanceof Error && error.name === 'HandbookError' && 'code' in error;
  }
}
