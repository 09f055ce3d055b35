import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEventLog, runTask, type HarnessEvent, type RunTaskOptions, type RunTaskResult, type TaskSpecInput } from '../../src/index.js';
import { PROJECT_ROOT, scratchDirectory } from './paths.js';

export const TASK_FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'task-repo');

/** The check the task fixture's exit criteria run: its test fails until redact masks keys. */
export const FIXTURE_CHECK = { name: 'test', command: 'node test/redact.test.mjs' };

export const BROKEN_LINE = '  return text;\n';
export const FIXED_LINE = "  return text.replace(/sk-[A-Za-z0-9]{8,}/g, 'sk-***');\n";

/** A private copy of the task fixture. */
export function copyOfTaskFixture(): string {
  const target = path.join(scratchDirectory('handbook-run-'), 'task-repo');
  cpSync(TASK_FIXTURE, target, { recursive: true });
  return target;
}

type Turn = Record<string, unknown>;

export function call(name: string, args: Record<string, unknown> = {}): { name: string; arguments: Record<string, unknown> } {
  return { name, arguments: args };
}

/** A turn that makes these tool calls. */
export function act(...calls: Array<ReturnType<typeof call>>): Turn {
  return { tool_calls: calls };
}

export function writeScript(turns: Turn[]): string {
  const file = path.join(scratchDirectory('handbook-script-'), 'script.json');
  writeFileSync(file, JSON.stringify({ turns }, null, 2));
  return file;
}

export interface ScriptedRun {
  result: RunTaskResult;
  events: HarnessEvent[];
  repo: string;
  /** Events of one type, typed. */
  of<T extends HarnessEvent['type']>(type: T): Array<Extract<HarnessEvent, { type: T }>>;
}

/** Runs a scripted model on a fresh copy of the task fixture, collecting every event. */
export async function runScripted(
  turns: Turn[],
  options: { task?: Partial<TaskSpecInput>; repo?: string } & Partial<Omit<RunTaskOptions, 'task' | 'model'>> = {},
): Promise<ScriptedRun> {
  const { task, repo: givenRepo, ...rest } = options;
  const repo = givenRepo ?? copyOfTaskFixture();
  const events: HarnessEvent[] = [];
  const result = await runTask(repo, {
    task: { text: 'Mask API keys in captured tool output.', exitCriteria: { checks: [FIXTURE_CHECK] }, ...task },
    model: `script:${writeScript(turns)}`,
    providerOptions: { baseDelayMs: 1, maxDelayMs: 5 },
    onEvent: (event) => events.push(event),
    ...rest,
  });
  return {
    result,
    events,
    repo,
    of: <T extends HarnessEvent['type']>(type: T) => events.filter((event): event is Extract<HarnessEvent, { type: T }> => event.type === type),
  };
}

export const READ_REDACT = call('read_file', { path: 'src/redact.js' });
export const FIX_REDACT = call('edit_file', { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: FIXED_LINE });
export const COMPLETE = call('task_complete', { summary: 'redact now masks sk- keys' });

/** Waits until the repository's first run has logged what `done` looks for; for killing a run at a known point. */
export async function eventsOnceThere(repo: string, done: (events: HarnessEvent[]) => boolean): Promise<{ runId: string; events: HarnessEvent[] }> {
  const runs = path.join(repo, '.handbook', 'runs');
  for (let waited = 0; waited < 30_000; waited += 50) {
    const runId = existsSync(runs) ? readdirSync(runs)[0] : undefined;
    const log = runId ? path.join(runs, runId, 'events.jsonl') : undefined;
    if (runId && log && existsSync(log)) {
      const events = readEventLog(log);
      if (done(events)) return { runId, events };
    }
    await sleep(50);
  }
  throw new Error('the run never got there');
}
