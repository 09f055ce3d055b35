import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonLines } from './json-lines.js';
import { appendDurably } from './journal-durable.js';
import { canonicalJson } from './journal-entry.js';
import { makeFolder } from '../text/make-folder.js';

/**
 * Operation ids for calls that must not run twice. Each such call is written down, with the
 * arguments it was approved with, before it runs, and its result after; so after a timeout or
 * a crash the harness knows which calls started and never finished (to reconcile before
 * anything is sent again) and which finished (never to be run again in this run).
 */

const started = z.object({
  type: z.literal('started'),
  opId: z.string(),
  /** The model's id for the call: kept for correlation, never trusted as a key. */
  callId: z.string(),
  tool: z.string(),
  argumentsDigest: z.string(),
  arguments: z.unknown(),
  step: z.number().int(),
  session: z.number().int(),
});
const finished = z.object({ type: z.literal('finished'), opId: z.string(), ok: z.boolean(), content: z.string() });
const reconciled = z.object({ type: z.literal('reconciled'), opId: z.string(), outcome: z.enum(['done', 'not_done', 'unknown']), detail: z.string() });
const lineSchema = z.discriminatedUnion('type', [started, finished, reconciled]);

export type StartedOperation = z.output<typeof started>;
export type FinishedOperation = z.output<typeof finished> & { started: StartedOperation };
export type ReconcileOutcome = z.output<typeof reconciled>['outcome'];

/** The result text kept per operation: enough for a handoff and for answering a repeated call. */
const KEPT_CONTENT = 4_000;

export class OperationLog {
  private readonly startedById = new Map<string, StartedOperation>();
  private readonly finishedById = new Map<string, FinishedOperation>();
  private readonly reconciledIds = new Set<string>();
  /** Which start of the run this process is; a resume is the next session. */
  readonly session: number;

  constructor(readonly file: string) {
    makeFolder(path.dirname(file));
    let lastSession = 0;
    if (existsSync(file)) {
      for (const line of readJsonLines(file, lineSchema)) {
        if (line.type === 'started') {
          this.startedById.set(line.opId, line);
          lastSession = Math.max(lastSession, line.session);
        } else if (line.type === 'finished') {
          const start = this.startedById.get(line.opId);
          if (start) this.finishedById.set(line.opId, { ...line, started: start });
        } else this.reconciledIds.add(line.opId);
      }
    }
    this.session = lastSession + 1;
  }

  /** Writes the operation down, flushed to disk, before the call runs. */
  begin(call: { callId: string; tool: string; arguments: unknown; step: number }): string {
    const opId = randomUUID();
    const entry: StartedOperation = { type: 'started', opId, callId: call.callId, tool: call.tool, argumentsDigest: argumentsDigest(call.tool, call.arguments), arguments: call.arguments, step: call.step, session: this.session };
    this.append(entry);
    this.startedById.set(opId, entry);
    return opId;
  }

  finish(opId: string, output: { ok: boolean; content: string }): void {
    const entry = { type: 'finished' as const, opId, ok: output.ok, content: output.content.slice(0, KEPT_CONTENT) };
    this.append(entry);
    this.finishedById.set(opId, { ...entry, started: this.startedById.get(opId)! });
  }

  reconcile(opId: string, outcome: ReconcileOutcome, detail: string): void {
    this.append({ type: 'reconciled', opId, outcome, detail });
    this.reconciledIds.add(opId);
  }

  /** Operations that started and have neither a result nor a reconciliation: a timeout or a crash cut them off. */
  unresolved(): StartedOperation[] {
    return [...this.startedById.values()].filter((operation) => !this.finishedById.has(operation.opId) && !this.reconciledIds.has(operation.opId));
  }

  /** Cut-off operations of this exact call, oldest first. */
  unresolvedFor(tool: string, args: unknown): StartedOperation[] {
    const digest = argumentsDigest(tool, args);
    return this.unresolved().filter((operation) => operation.argumentsDigest === digest);
  }

  /**
   * A call with these exact arguments that already succeeded in an earlier session of this run:
   * a resumed model that proposes it again gets the recorded result instead of a second effect.
   */
  doneBefore(tool: string, args: unknown): FinishedOperation | undefined {
    const digest = argumentsDigest(tool, args);
    for (const operation of this.finishedById.values()) {
      if (operation.ok && operation.started.argumentsDigest === digest && operation.started.session < this.session) return operation;
    }
    return undefined;
  }

  finished(): FinishedOperation[] {
    return [...this.finishedById.values()];
  }

  private append(entry: z.input<typeof lineSchema>): void {
    // Whole and flushed before the call it records runs: a kill leaves the line complete or torn last, never lost after.
    appendDurably(this.file, Buffer.from(`${JSON.stringify(entry)}\n`));
  }
}

export function argumentsDigest(tool: string, args: unknown): string {
  return createHash('sha256').update(`${tool}\0${canonicalJson(args)}`).digest('hex');
}
