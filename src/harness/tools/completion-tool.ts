import type { z } from 'zod';

/** What a run's own completion tool decided about one submission. */
export type CompletionVerdict = { accepted: true; summary: string } | { missing: string[] };

/**
 * A run's own way to finish, in place of task_complete (the planner's submit_plan): the model
 * hands in its work as the tool's input, and the harness judges it with `verify` instead of
 * the exit criteria. Only a run whose tools all read may have one: it changed nothing, so there
 * are no tested bytes for an acceptance record to vouch for.
 */
export interface CompletionTool<Input = unknown> {
  name: string;
  /** What the model is told the tool does. */
  description: string;
  input: z.ZodType<Input>;
  /** Acceptance completes the run; every missing item goes back to the model word for word, and the run goes on. */
  verify(input: Input): Promise<CompletionVerdict>;
}
