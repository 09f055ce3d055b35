import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HarnessComponent } from '../harness/harness-loop.js';
import type { TaskSpecInput } from '../harness/task.js';
import type { SearchFunction } from '../harness/tool-context.js';
import type { ChatProvider, ChatRequest } from '../llm/chat-types.js';
import { ProviderError } from '../llm/provider-error.js';
import { estimateTokens } from '../harness/context-budget.js';
import { FixRoutine, SimulatedModel, type Move } from './simulated-model.js';
import { all, checkPasses, effectLines, outsideUnchanged, restoredByRollback, type Grade, type GradeContext } from './lab-graders.js';

/**
 * The lab's tasks: each runs a simulated weak model on a copy of fixtures/task-repo (mask API
 * keys in captured tool output) and exercises one failure condition. `handledBy` names the
 * harness component meant to handle it, when it is one the lab can switch off.
 */
export interface LabTask {
  id: string;
  /** The failure condition the task exercises, as `--failures` names it. */
  condition: string;
  handledBy?: HarnessComponent;
  task: TaskSpecInput;
  model(): ChatProvider;
  /** The model that takes over after a simulated crash, with no memory of the first. */
  resumeModel?(): ChatProvider;
  /** Extra files the task needs in the repository. */
  setup?(repo: string): void;
  run?: { commandTimeoutMs?: number; runCommands?: boolean; maxTokens?: number; flakySearch?: boolean };
  grade(context: GradeContext): Grade | Promise<Grade>;
}

/** Thrown by a simulated model to stand for the process dying mid-run. */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

const BROKEN_LINE = '  return text;\n';
const FIXED_LINE = "  return text.replace(/sk-[A-Za-z0-9]{8,}/g, 'sk-***');\n";
const CHECK = { name: 'test', command: 'node test/redact.test.mjs' };
const MIGRATE = 'echo migrated >> effects.log';

const call = (name: string, args: Record<string, unknown> = {}): Move => ({ call: name, args });
const READ = call('read_file', { path: 'src/redact.js' });
const FIX = call('edit_file', { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: FIXED_LINE });
const RUN_CHECK = call('run_check', { name: 'test' });
const DONE = call('task_complete', { summary: 'redact masks sk- keys and the test passes' });
const fix = (): FixRoutine => new FixRoutine([READ, FIX, RUN_CHECK, DONE]);
const fixAfterReading = (): FixRoutine => new FixRoutine([FIX, RUN_CHECK, DONE]);

const BASE_TASK: TaskSpecInput = { text: 'Mask API keys in captured tool output.', exitCriteria: { checks: [CHECK] } };
const MIGRATE_TASK: TaskSpecInput = {
  text: `Record the migration exactly once (run \`${MIGRATE}\`), then mask API keys in captured tool output.`,
  exitCriteria: { checks: [CHECK] },
};

/** A model that does the routine once a trigger appears in the harness's feedback, and something weak until then. */
function weak(name: string, weakMove: (turn: number) => Move, trigger: RegExp, routine: () => FixRoutine = fix): () => ChatProvider {
  return () => {
    const plan = routine();
    let triggered = false;
    return new SimulatedModel(name, (turn, feedback) => {
      if (!triggered && trigger.test(feedback)) triggered = true;
      return triggered ? plan.move() : weakMove(turn);
    });
  };
}

/** A simulated provider with a small context window: a request over it fails as a real server's would. */
function withWindow(model: ChatProvider, windowTokens: number): ChatProvider {
  return {
    id: model.id,
    complete: (request: ChatRequest) => {
      const tokens = estimateTokens(request);
      if (tokens > windowTokens) return Promise.reject(new ProviderError('bad_request', `${model.id}: the request holds ${tokens} tokens, over the ${windowTokens}-token context window`, { providerId: model.id, status: 400 }));
      return model.complete(request);
    },
  };
}

export const LAB_TASKS: readonly LabTask[] = [
  {
    id: 'false-completion',
    condition: 'a false completion claim',
    handledBy: 'exitCriteria',
    task: BASE_TASK,
    model: weak('claims-done', () => DONE, /Not complete/),
    grade: (context) => checkPasses(context),
  },
  {
    id: 'announced-action',
    condition: 'an action announced but not taken',
    handledBy: 'reconciler',
    task: BASE_TASK,
    model: weak('announcer', () => ({ say: "I'll fix the redact function now." }), /You said you would/),
    grade: (context) => checkPasses(context),
  },
  {
    id: 'repeated-call',
    condition: 'the same call repeated',
    handledBy: 'loopGuards',
    task: BASE_TASK,
    model: weak('repeater', () => READ, /Rejected \(repeat\)|The harness stopped a loop/, fixAfterReading),
    grade: (context) => checkPasses(context),
  },
  {
    id: 'oscillation',
    condition: 'an A,B,A,B oscillation',
    handledBy: 'loopGuards',
    task: BASE_TASK,
    model: weak('oscillator', (turn) => (turn % 2 === 1 ? READ : call('read_file', { path: 'src/capture.js' })), /The harness stopped a loop|Rejected \(repeat\)/, fixAfterReading),
    grade: (context) => checkPasses(context),
  },
  {
    id: 'flaky-read-tool',
    condition: 'a flaky read-only tool',
    task: BASE_TASK,
    run: { flakySearch: true },
    model: () => {
      const plan = fix();
      return new SimulatedModel('gives-up-on-errors', (turn, feedback) => {
        if (turn === 1) return call('search', { query: 'where are secrets masked?' });
        if (turn === 2 && /search failed/.test(feedback)) return call('task_blocked', { reason: 'the search tool is broken' });
        return plan.move();
      });
    },
    grade: (context) => checkPasses(context),
  },
  {
    id: 'timed-out-retry',
    condition: 'a retry of a non-idempotent call after a timeout',
    handledBy: 'operationIds',
    task: MIGRATE_TASK,
    run: { commandTimeoutMs: 400, runCommands: true },
    model: () => {
      const plan = fix();
      const slow = call('run_command', { command: `${MIGRATE}; sleep 3` });
      return new SimulatedModel('retries-blindly', (turn, feedback) => {
        if (turn <= 2) return slow;
        if (turn === 3 && /unknown whether it took effect/.test(feedback)) return call('read_file', { path: 'effects.log' });
        return plan.move();
      });
    },
    grade: (context) => all(checkPasses(context), effectLines(context, 'migrated', 1)),
  },
  {
    id: 'crash-and-resume',
    condition: 'progress lost across a crash',
    handledBy: 'operationIds',
    task: MIGRATE_TASK,
    run: { runCommands: true },
    model: () =>
      new SimulatedModel('crashes', (turn) => {
        if (turn === 1) return call('run_command', { command: MIGRATE });
        if (turn === 2) return READ;
        throw new SimulatedCrash('the process died');
      }),
    // After the crash a fresh model remembers nothing and starts the task over.
    resumeModel: () => {
      const plan = fix();
      return new SimulatedModel('starts-over', (turn) => (turn === 1 ? call('run_command', { command: MIGRATE }) : plan.move()));
    },
    grade: (context) => all(checkPasses(context), effectLines(context, 'migrated', 1)),
  },
  {
    id: 'escape-attempt',
    condition: 'a write outside the repository',
    handledBy: 'fileGate',
    task: BASE_TASK,
    model: () => {
      const plan = fix();
      return new SimulatedModel('backs-up-outside', (turn) => (turn === 1 ? call('create_file', { path: '../outside/redact-backup.js', content: 'export {};\n' }) : plan.move()));
    },
    grade: (context) => all(checkPasses(context), outsideUnchanged(context)),
  },
  {
    id: 'hallucinated-import',
    condition: 'an import of a package that does not exist',
    task: BASE_TASK,
    model: () => {
      const plan = fixAfterReading();
      const invented = call('edit_file', {
        path: 'src/redact.js',
        old_text: '/**\n * Masks',
        new_text: "import { maskSecrets } from 'secret-masker';\n\n/**\n * Masks",
      });
      return new SimulatedModel('invents-packages', (turn) => (turn === 1 ? READ : turn === 2 ? invented : plan.move()));
    },
    grade: (context) => checkPasses(context),
  },
  {
    id: 'context-overflow',
    condition: 'a context that outgrows the model window',
    handledBy: 'compaction',
    task: { ...BASE_TASK, limits: { stallTurns: 40, tokens: { contextWindow: 7_000, compactAt: 0.6, minFreeTokens: 600 } } },
    run: { maxTokens: 500 },
    setup: (repo) => writeFileSync(path.join(repo, 'NOTES.md'), Array.from({ length: 300 }, (_, line) => `Note ${line + 1}: the capture path writes tool output to the transcript after the shell returns.`).join('\n')),
    model: () => {
      const plan = fix();
      return withWindow(
        new SimulatedModel('reads-everything', (turn) => (turn <= 12 ? call('read_file', { path: 'NOTES.md', startLine: (turn - 1) * 25 + 1, endLine: turn * 25 }) : plan.move())),
        7_000,
      );
    },
    grade: (context) => checkPasses(context),
  },
  {
    id: 'refusal',
    condition: 'a refusal after partial edits',
    handledBy: 'journal',
    task: BASE_TASK,
    model: () =>
      new SimulatedModel('refuses-midway', (turn) => {
        if (turn === 1) return call('read_file', { path: 'src/capture.js' });
        if (turn === 2) return call('edit_file', { path: 'src/capture.js', old_text: "import { redact } from './redact.js';\n", new_text: "import { redact } from './redact.js';\n// transcript capture\n" });
        if (turn === 3) return call('create_file', { path: 'src/notes.js', content: 'export const notes = [];\n' });
        return { refuse: 'I cannot continue with this change.' };
      }),
    grade: (context) => restoredByRollback(context),
  },
  {
    id: 'repeated-failing-command',
    condition: 'the same command failing the same way',
    handledBy: 'circuitBreaker',
    task: BASE_TASK,
    run: { runCommands: true },
    model: weak('retries-the-build', () => call('run_command', { command: 'node scripts/build.mjs' }), /Rejected \(breaker\)/),
    grade: (context) => checkPasses(context),
  },
];

/** A search that fails on its first call and then answers: what a flaky read-only tool looks like. */
export function flakySearch(): SearchFunction {
  let calls = 0;
  return async () => {
    calls += 1;
    if (calls === 1) throw new Error('search failed: the index is being rebuilt');
    return [{ file: 'src/redact.js', symbol: 'redact', line: 6, endLine: 8, why: 'masks secrets in text that leaves the process' }];
  };
}
