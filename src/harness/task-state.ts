/**
 * A task's life. The terminal states say why the task ended; only COMPLETE means the
 * harness itself verified the exit criteria.
 */
export const TASK_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETE', 'BLOCKED', 'NEEDS_INPUT', 'FAILED'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export type TerminalState = Exclude<TaskState, 'PENDING' | 'IN_PROGRESS'>;

const NEXT: Readonly<Record<TaskState, readonly TaskState[]>> = {
  PENDING: ['IN_PROGRESS', 'FAILED'],
  IN_PROGRESS: ['COMPLETE', 'BLOCKED', 'NEEDS_INPUT', 'FAILED'],
  COMPLETE: [],
  BLOCKED: [],
  NEEDS_INPUT: [],
  FAILED: [],
};

/** Why a task left IN_PROGRESS; the `kind` is stable for scripts, the detail is for people. */
export interface StateReason {
  kind: string;
  detail: string;
}

export interface Transition {
  from: TaskState;
  to: TaskState;
  reason: StateReason;
}

/**
 * Holds the state and refuses transitions the diagram does not have, so a bug in the loop
 * cannot, say, complete a blocked task.
 */
export class TaskStateMachine {
  private current: TaskState = 'PENDING';
  private lastReason: StateReason | undefined;

  constructor(private readonly onTransition: (transition: Transition) => void) {}

  get state(): TaskState {
    return this.current;
  }

  get reason(): StateReason | undefined {
    return this.lastReason;
  }

  moveTo(to: TaskState, reason: StateReason): void {
    const from = this.current;
    if (!NEXT[from].includes(to)) throw new Error(`task state cannot go from ${from} to ${to}`);
    this.current = to;
    this.lastReason = reason;
    this.onTransition({ from, to, reason });
  }
}
