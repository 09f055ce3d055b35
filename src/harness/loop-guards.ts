import path from 'node:path';
import type { TaskLimits } from './task.js';
import type { EffectCategory } from './tool-contract.js';

export type LoopKind = 'repeat' | 'cycle' | 'breaker' | 'progress_budget' | 'tool_cap';

export interface LoopFinding {
  kind: LoopKind;
  /** One sentence for the model and the event log, naming the tool/call. */
  message: string;
  /** The call the finding is about: the refused call, or the recorded call that raised it. */
  fingerprint: string;
}

export type LoopLimits = Pick<TaskLimits, 'repeatLimit' | 'breakerLimit' | 'effectsWithoutProgress' | 'callsPerTool'>;

export interface LoopGuardOptions {
  /** How many recent calls the cycle detector remembers. */
  cycleWindow?: number;
  /** The longest cycle, in calls, the detector looks for. */
  maxCyclePeriod?: number;
}

export interface CallOutcome {
  ok: boolean;
  effect: EffectCategory;
  error?: string;
}

const PATH_KEYS = new Set(['path', 'file']);

/** Long arguments (a file's new content) would drown the message the model reads. */
const SHOWN_CALL_LIMIT = 160;

function normalizeText(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function normalizePath(text: string): string {
  return path.posix.normalize(text.replace(/\\/g, '/').replace(/^\.\//, ''));
}

/**
 * Written by hand rather than with JSON.stringify on a rebuilt object: JS puts integer-like keys
 * first whatever the insertion order, and a `__proto__` key would be lost on assignment.
 */
function stableJson(value: unknown, key?: string): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': {
      const text = normalizeText(value);
      return JSON.stringify(key !== undefined && PATH_KEYS.has(key) ? normalizePath(text) : text);
    }
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      // Items inherit the key, so `{ "file": ["./a.ts"] }` is normalized like `{ "file": "./a.ts" }`.
      if (Array.isArray(value)) return `[${value.map((item) => stableJson(item, key) ?? 'null').join(',')}]`;
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .sort()
        .flatMap((name) => {
          const json = stableJson(record[name], name);
          return json === undefined ? [] : [`${JSON.stringify(name)}:${json}`];
        });
      return `{${members.join(',')}}`;
    }
    default:
      // Like JSON: undefined, functions and symbols are no value at all.
      return undefined;
  }
}

/**
 * Tool name + normalized arguments: object keys sorted recursively, strings trimmed with inner
 * whitespace runs collapsed to one space, and values of keys named path/file (any string)
 * normalized with path.posix.normalize after turning backslashes into slashes and stripping a
 * leading './'; stable JSON.
 */
export function callFingerprint(tool: string, args: unknown): string {
  return `${tool} ${stableJson(args) ?? 'null'}`;
}

/** First line, with digit runs as '#', so that counters, line numbers and pids do not make errors differ. */
function normalizeError(error: string): string {
  return firstLine(error).replace(/\d+/g, '#').trim();
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0] ?? '';
}

function shown(fingerprint: string): string {
  return fingerprint.length > SHOWN_CALL_LIMIT ? `${fingerprint.slice(0, SHOWN_CALL_LIMIT - 1)}…` : fingerprint;
}

function increment<Key>(counts: Map<Key, number>, key: Key): number {
  const count = (counts.get(key) ?? 0) + 1;
  counts.set(key, count);
  return count;
}

interface RecentCall {
  tool: string;
  fingerprint: string;
}

/**
 * Anti-loop guards for the harness loop. A model stuck in a loop rarely notices it, so the loop
 * asks these guards before and after every call instead of trusting the model to stop.
 */
export class LoopGuards {
  private readonly limits: LoopLimits;
  private readonly cycleWindow: number;
  private readonly maxCyclePeriod: number;
  private readonly callsByTool = new Map<string, number>();
  /** Runs of each fingerprint since the workspace last changed. */
  private readonly runs = new Map<string, number>();
  /** Failures of each fingerprint with each normalized error, for the whole task. */
  private readonly failures = new Map<string, number>();
  /** Fingerprints the circuit breaker forbids, with the error line that tripped it. */
  private readonly forbidden = new Map<string, string>();
  private recent: RecentCall[] = [];
  private effectsSinceProgress = 0;

  constructor(limits: LoopLimits, options: LoopGuardOptions = {}) {
    this.limits = limits;
    this.cycleWindow = options.cycleWindow ?? 12;
    this.maxCyclePeriod = options.maxCyclePeriod ?? 4;
  }

  /**
   * Called before a call runs. Returns a finding when the call must not run: 'tool_cap' (this
   * tool already ran callsPerTool times in the task), 'breaker' (this exact fingerprint is
   * forbidden by the circuit breaker), 'repeat' (this fingerprint already ran repeatLimit times
   * since the workspace last changed). Otherwise undefined. Does not record anything.
   */
  check(tool: string, args: unknown): LoopFinding | undefined {
    const fingerprint = callFingerprint(tool, args);
    const { callsPerTool, repeatLimit, breakerLimit } = this.limits;
    if ((this.callsByTool.get(tool) ?? 0) >= callsPerTool) {
      return {
        kind: 'tool_cap',
        message: `${tool} already ran ${callsPerTool} times in this task, as many as one tool may: use another tool, or finish with what you have`,
        fingerprint,
      };
    }
    const trippedBy = this.forbidden.get(fingerprint);
    if (trippedBy !== undefined) {
      return {
        kind: 'breaker',
        message: `${shown(fingerprint)} is forbidden for the rest of this task because it failed ${breakerLimit} times with the same error (${JSON.stringify(trippedBy)}): change the arguments or the approach`,
        fingerprint,
      };
    }
    if ((this.runs.get(fingerprint) ?? 0) >= repeatLimit) {
      return {
        kind: 'repeat',
        message: `${shown(fingerprint)} already ran ${repeatLimit} times with the same arguments since the workspace last changed: use what it returned, or try something else`,
        fingerprint,
      };
    }
    return undefined;
  }

  /**
   * Records a call that ran (or was attempted and failed). Returns the findings this call raised:
   * 'cycle', 'breaker' (from then on check() refuses the fingerprint) and 'progress_budget'.
   */
  record(tool: string, args: unknown, outcome: CallOutcome): LoopFinding[] {
    const fingerprint = callFingerprint(tool, args);
    increment(this.callsByTool, tool);
    increment(this.runs, fingerprint);
    const findings: LoopFinding[] = [];
    const cycle = this.noteRecent({ tool, fingerprint });
    if (cycle) findings.push(cycle);
    if (!outcome.ok) {
      const breaker = this.noteFailure(fingerprint, outcome.error ?? '');
      if (breaker) findings.push(breaker);
    }
    if (outcome.effect !== 'read') {
      const budget = this.noteEffect(fingerprint);
      if (budget) findings.push(budget);
    }
    return findings;
  }

  /** The workspace changed (a write succeeded): identical read calls may legitimately run again, so repeat counts restart. */
  noteWorkspaceChanged(): void {
    this.runs.clear();
  }

  /** Progress against the exit criteria was made: the progress budget and the recent-cycle window restart. */
  recordProgress(): void {
    this.effectsSinceProgress = 0;
    this.recent = [];
  }

  /** A cycle is reported once: the window is cleared, so it is found again only if it recurs in full. */
  private noteRecent(call: RecentCall): LoopFinding | undefined {
    this.recent.push(call);
    if (this.recent.length > this.cycleWindow) this.recent.splice(0, this.recent.length - this.cycleWindow);
    const period = this.cyclePeriod();
    if (period === undefined) return undefined;
    const tools = this.recent.slice(-period).map(({ tool }) => tool);
    this.recent = [];
    return {
      kind: 'cycle',
      message: `the calls ${tools.join(' → ')} repeat in a cycle: the same ${period} calls just ran twice in a row with the same arguments, so break the cycle with a different approach`,
      fingerprint: call.fingerprint,
    };
  }

  /** The shortest period p whose last 2p calls are the same p calls twice; all-equal periods are repeat's job. */
  private cyclePeriod(): number | undefined {
    const fingerprints = this.recent.map(({ fingerprint }) => fingerprint);
    for (let period = 2; period <= this.maxCyclePeriod && 2 * period <= fingerprints.length; period++) {
      const tail = fingerprints.slice(-2 * period);
      const first = tail.slice(0, period);
      const repeated = first.every((fingerprint, index) => fingerprint === tail[period + index]);
      if (repeated && first.some((fingerprint) => fingerprint !== first[0])) return period;
    }
    return undefined;
  }

  private noteFailure(fingerprint: string, error: string): LoopFinding | undefined {
    const { breakerLimit } = this.limits;
    if (increment(this.failures, JSON.stringify([fingerprint, normalizeError(error)])) !== breakerLimit) return undefined;
    const line = firstLine(error);
    this.forbidden.set(fingerprint, line);
    return {
      kind: 'breaker',
      message: `${shown(fingerprint)} failed ${breakerLimit} times with the same error (${JSON.stringify(line)}), so it is now forbidden for the rest of this task: change the arguments or the approach`,
      fingerprint,
    };
  }

  private noteEffect(fingerprint: string): LoopFinding | undefined {
    const { effectsWithoutProgress } = this.limits;
    if (++this.effectsSinceProgress !== effectsWithoutProgress) return undefined;
    return {
      kind: 'progress_budget',
      message: `${effectsWithoutProgress} calls that write, execute or reach outside (the last: ${shown(fingerprint)}) ran without progress against the exit criteria: stop changing things and work out what the exit criteria still need`,
      fingerprint,
    };
  }
}
