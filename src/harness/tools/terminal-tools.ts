import { z } from 'zod';

/**
 * The three ways a model may end its part of a task. They carry words only: whether the
 * task is COMPLETE is decided by the harness, from the exit criteria.
 */
export const TERMINAL_TOOL_INPUTS = {
  task_complete: z.object({ summary: z.string().trim().min(1, 'say what was done') }).strict(),
  task_blocked: z.object({ reason: z.string().trim().min(1, 'say what blocks the task') }).strict(),
  need_input: z.object({ question: z.string().trim().min(1, 'ask the question') }).strict(),
} as const;

export const TERMINAL_TOOL_DESCRIPTIONS: Record<keyof typeof TERMINAL_TOOL_INPUTS, string> = {
  task_complete: 'Declare the task done, with a summary. The harness then runs every exit criterion itself; if any fails, the task goes on and you are told what is missing.',
  task_blocked: 'Declare that the task cannot be done, with the reason. Prefer this to guessing.',
  need_input: 'Ask the user a question the task cannot go on without.',
};
