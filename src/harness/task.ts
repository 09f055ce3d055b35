import path from 'node:path';
import { z } from 'zod';
import { tokenLimitsSchema } from './context-budget.js';

/**
 * A task as the harness runs it. Everything that decides whether the task is done lives
 * here as data, so the harness can check it itself: a model saying "done" proves nothing.
 */

const checkSchema = z.object({
  /** How the model names the check in `run_check`; unique within the task. */
  name: z.string().min(1).regex(/^[\w.:-]+$/, 'a check name holds letters, digits and . _ : - only'),
  /** A shell command run in the repository; the check passes when it exits 0. */
  command: z.string().min(1),
  /** The folder under the repository root the command runs in (a monorepo's package); the root when absent. */
  cwd: z
    .string()
    .min(1)
    .refine((folder) => !path.posix.isAbsolute(folder) && !folder.includes('\\') && !folder.split('/').includes('..'), 'a check folder is named from the repository root, inside it')
    .optional(),
  timeoutMs: z.number().int().positive().default(300_000),
});
export type ExitCheck = z.output<typeof checkSchema>;

/** Where a check's command runs: its package folder under the repository root, or the root. */
export function checkDirectory(root: string, check: Pick<ExitCheck, 'cwd'>): string {
  return check.cwd === undefined ? root : path.join(root, check.cwd);
}

const locatorSchema = z.object({
  file: z.string().min(1),
  /** A symbol path inside the file (`Class.method`), as the program graph names units. */
  symbol: z.string().min(1),
  /** The unit's content hash when the locator was taken; fresh means the unit still has it. */
  hash: z.string().min(1).optional(),
});
export type TaskLocator = z.output<typeof locatorSchema>;

export const exitCriteriaSchema = z.object({
  checks: z.array(checkSchema).default([]),
  /** Files whose bytes must differ from the start of the task. */
  filesMustChange: z.array(z.string().min(1)).default([]),
  /**
   * What each must-change file held when the task began (a digest, or null for no file), written
   * when a run starts so that a resumed run judges against the task's start, not its own.
   */
  fileBaselines: z.record(z.string(), z.string().nullable()).optional(),
  /** Plan targets: units whose text must differ from the start of the task. */
  targetsMustChange: z.array(locatorSchema).default([]),
  /** Units that must still be found, unchanged, when the task ends. */
  locatorsMustStayFresh: z.array(locatorSchema).default([]),
  /** Whether the repository's TypeScript must type-check without errors. */
  typecheck: z.boolean().default(false),
});
export type ExitCriteria = z.output<typeof exitCriteriaSchema>;

/** The longest a Node timer waits: a longer deadline fires after 1 ms and failed the task at once, or was refused as a bug. */
export const MAX_WALL_CLOCK_MS = 2_147_483_647;

export const limitsSchema = z.object({
  /** Model turns before the task fails. */
  maxSteps: z.number().int().positive().default(24),
  wallClockMs: z.number().int().positive().max(MAX_WALL_CLOCK_MS, { error: `at most ${MAX_WALL_CLOCK_MS} ms (about 24 days)` }).default(30 * 60_000),
  /** Turns in a row without progress against the exit criteria before the stall detector acts. */
  stallTurns: z.number().int().positive().default(8),
  /** The same call (tool and normalized arguments) this many times is blocked. */
  repeatLimit: z.number().int().min(2).default(3),
  /** The same command failing with the same error this many times forbids it for the task. */
  breakerLimit: z.number().int().min(1).default(3),
  /** Write and exec effects without progress before the progress budget breaks. */
  effectsWithoutProgress: z.number().int().positive().default(10),
  /** Calls of one tool in the whole task. */
  callsPerTool: z.number().int().positive().default(60),
  /** Turns of text alone (or announced actions not taken) before the task is blocked. */
  actionMisses: z.number().int().positive().default(3),
  /** The model's context window, when to compact, and token budgets per turn and per task. */
  tokens: tokenLimitsSchema.default(tokenLimitsSchema.parse({})),
  /** Recent turns a compaction keeps word for word. */
  compactKeepTurns: z.number().int().min(0).default(4),
});
export type TaskLimits = z.output<typeof limitsSchema>;

export const taskSpecSchema = z.object({
  text: z.string().trim().min(1, 'the task text is empty'),
  exitCriteria: exitCriteriaSchema.default(exitCriteriaSchema.parse({})),
  /** Globs, relative to the repository, that write tools may touch; empty means anywhere in the repository. */
  scope: z.array(z.string().min(1)).default([]),
  limits: limitsSchema.default(limitsSchema.parse({})),
  /** The plan this task executes, when it executes one. */
  planId: z.string().min(1).optional(),
});
export type TaskSpec = z.output<typeof taskSpecSchema>;
export type TaskSpecInput = z.input<typeof taskSpecSchema>;
