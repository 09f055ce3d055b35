import type { z } from 'zod';

/** What running a tool may do to the world; decides retries, approvals and the progress budget. */
export type EffectCategory = 'read' | 'write' | 'exec' | 'external';

/** Whether a call runs by itself, waits for the user, or never runs. */
export type ApprovalRule = 'auto' | 'ask' | 'deny';

/** What a tool hands back: text for the model, structured data for events and tests. */
export interface ToolOutput {
  ok: boolean;
  /** What the model reads in the tool result. */
  content: string;
  /** Structured facts for events, the log and callers (paths touched, exit codes, ...). */
  data?: Record<string, unknown>;
  /** For a refused call: the rule that refused it, e.g. `read-before-edit`. */
  rule?: string;
  /** The call was cut off (a timeout) after it may have started to act: whether it took effect is unknown. */
  uncertain?: boolean;
}

export interface ToolContract<Input = unknown, Context = unknown> {
  name: string;
  /** What the model is told the tool does. */
  description: string;
  input: z.ZodType<Input>;
  effect: EffectCategory;
  /** Whether running the same call twice has the effect of running it once. */
  repeatSafe: boolean;
  timeoutMs: number;
  /** Extra attempts after a thrown failure; only read-only or repeat-safe tools may have any. */
  retries: number;
  /** The approval when no policy says otherwise. */
  approval: ApprovalRule;
  run(input: Input, context: Context, signal: AbortSignal): Promise<ToolOutput>;
}

/** The signals that end a task; the loop handles them, they touch nothing. */
export const TERMINAL_TOOLS = ['task_complete', 'task_blocked', 'need_input'] as const;
export type TerminalToolName = (typeof TERMINAL_TOOLS)[number];

export function isTerminalTool(name: string): name is TerminalToolName {
  return (TERMINAL_TOOLS as readonly string[]).includes(name);
}
