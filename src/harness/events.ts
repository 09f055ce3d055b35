import { z } from 'zod';
import { TASK_STATES } from './task-state.js';

/**
 * Everything a run does is an event. The union is a zod schema so that a log read back from
 * disk (resume, the viewer, a test) is checked, not trusted.
 */

const state = z.enum(TASK_STATES);
const reason = z.object({ kind: z.string(), detail: z.string() });
const effect = z.enum(['read', 'write', 'exec', 'external']);

const eventBodies = [
  z.object({
    type: z.literal('run_started'),
    runId: z.string(),
    task: z.string(),
    model: z.string(),
    toolMode: z.string(),
    repo: z.string(),
    /** Started by `resume`: the run was stopped before its first event, so it had done nothing to go on from. */
    byResume: z.literal(true).optional(),
  }),
  z.object({ type: z.literal('run_resumed'), runId: z.string(), stepsTaken: z.number().int(), model: z.string() }),
  z.object({ type: z.literal('operation_reconciled'), step: z.number().int(), opId: z.string(), tool: z.string(), outcome: z.enum(['done', 'not_done', 'unknown']), detail: z.string() }),
  z.object({ type: z.literal('task_state'), from: state, to: state, reason }),
  z.object({ type: z.literal('turn_started'), step: z.number().int(), model: z.string() }),
  z.object({ type: z.literal('model_request'), step: z.number().int(), model: z.string(), messages: z.number().int(), tools: z.number().int(), estimatedTokens: z.number().int() }),
  z.object({
    type: z.literal('compacted'),
    step: z.number().int(),
    summarized: z.number().int(),
    removedMessages: z.number().int(),
    promoted: z.number().int(),
    factIds: z.array(z.number().int()),
    fromStep: z.number().int(),
    toStep: z.number().int(),
    tokensBefore: z.number().int(),
    tokensAfter: z.number().int(),
  }),
  z.object({ type: z.literal('budget_exceeded'), step: z.number().int(), budget: z.enum(['context', 'turn', 'task']), limit: z.number().int(), tokens: z.number().int() }),
  z.object({ type: z.literal('model_retry'), step: z.number().int(), attempt: z.number().int(), error: z.string(), delayMs: z.number() }),
  z.object({
    type: z.literal('model_response'),
    step: z.number().int(),
    model: z.string(),
    text: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string() })),
    stopReason: z.string(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
  }),
  z.object({ type: z.literal('tool_proposed'), step: z.number().int(), callId: z.string(), tool: z.string(), arguments: z.unknown() }),
  z.object({ type: z.literal('tool_rejected'), step: z.number().int(), callId: z.string(), tool: z.string(), rule: z.string(), reason: z.string() }),
  z.object({ type: z.literal('approval_requested'), step: z.number().int(), callId: z.string(), tool: z.string(), arguments: z.unknown() }),
  z.object({ type: z.literal('approval_decided'), step: z.number().int(), callId: z.string(), tool: z.string(), approved: z.boolean(), by: z.enum(['policy', 'user', 'non_interactive']) }),
  z.object({
    type: z.literal('tool_result'),
    step: z.number().int(),
    callId: z.string(),
    tool: z.string(),
    effect,
    ok: z.boolean(),
    summary: z.string(),
    durationMs: z.number(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ type: z.literal('check_result'), step: z.number().int(), name: z.string(), command: z.string(), exitCode: z.number().int().nullable(), durationMs: z.number(), outputDigest: z.string(), outputTail: z.string(), timedOut: z.boolean() }),
  z.object({ type: z.literal('progress'), step: z.number().int(), satisfied: z.array(z.string()), missing: z.array(z.string()) }),
  z.object({ type: z.literal('accepted'), step: z.number().int(), file: z.string(), snapshotDigest: z.string(), files: z.number().int() }),
  z.object({
    type: z.literal('complete_rejected'),
    step: z.number().int(),
    missing: z.array(z.string()),
    /** The last rejection given again: nothing changed since it, so the checks did not run. */
    reused: z.literal(true).optional(),
  }),
  z.object({ type: z.literal('action_missing'), step: z.number().int(), kind: z.enum(['text_only', 'announced', 'malformed']), detail: z.string() }),
  z.object({ type: z.literal('nudge'), step: z.number().int(), message: z.string() }),
  z.object({ type: z.literal('loop_detected'), step: z.number().int(), kind: z.string(), message: z.string() }),
  z.object({ type: z.literal('escalated'), step: z.number().int(), level: z.enum(['nudge', 'redecompose', 'stronger_model', 'blocked']), detail: z.string() }),
  z.object({ type: z.literal('run_finished'), state, reason, steps: z.number().int(), durationMs: z.number(), inputTokens: z.number().int(), outputTokens: z.number().int() }),
] as const;

export const harnessEventBodySchema = z.discriminatedUnion('type', eventBodies);
export type HarnessEventBody = z.output<typeof harnessEventBodySchema>;

const envelope = z.object({ seq: z.number().int().nonnegative(), time: z.string() });
export const harnessEventSchema = z.intersection(envelope, harnessEventBodySchema);
export type HarnessEvent = z.output<typeof envelope> & HarnessEventBody;
export type HarnessEventType = HarnessEventBody['type'];

export type EventListener = (event: HarnessEvent) => void;

/** Numbers events and hands each to every listener, in order; a listener that throws stops the run, as a full disk should. */
export class EventStream {
  private seq = 0;
  private readonly listeners: EventListener[] = [];

  /** `firstSeq` continues the numbering of a log that a resumed run appends to. */
  constructor(
    private readonly clock: () => Date = () => new Date(),
    firstSeq = 0,
  ) {
    this.seq = firstSeq;
  }

  on(listener: EventListener): void {
    this.listeners.push(listener);
  }

  emit(body: HarnessEventBody): HarnessEvent {
    const event = { seq: this.seq++, time: this.clock().toISOString(), ...body } as HarnessEvent;
    for (const listener of this.listeners) listener(event);
    return event;
  }
}
