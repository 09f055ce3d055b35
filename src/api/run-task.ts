import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { readApprovalPolicy, type ApprovalPolicy, type Approver } from '../harness/approval-policy.js';
import { EventLog, readEventLog } from '../harness/event-log.js';
import { buildHandoff, type Handoff } from '../harness/handoff.js';
import { OperationLog } from '../harness/operation-log.js';
import { killLeftoverGroups, ProcessGroupLog } from '../harness/process-groups.js';
import { openRunMemory, type RunMemory } from '../store/run-memory.js';
import { readJsonInput } from '../text/read-json-input.js';
import { handbookSearch } from './handbook-search.js';
import { assertJournalVerifies } from './journal.js';
import { liveSourceOf } from './live-resolution.js';
import type { SyncSummary } from './live-handbook.js';
import { openHandbook } from './open-handbook.js';
import { claimPlan } from './plan-claim.js';
import { noNewFrozen, planRunSchema, syncAfterPlanRun, type PlanRun } from './plan-run.js';
import { claimRun } from './run-owner.js';
import { discardIfNeverStarted, eventsFile, newRunFolder, processGroupsFolder, runsFolder } from './run-folder.js';
import { stampedId } from './time-stamp.js';
import { EventStream, type EventListener, type HarnessEvent } from '../harness/events.js';
import { ExitCriteriaVerifier, fileBaselines } from '../harness/exit-criteria.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import { runHarnessTask, type HarnessRunOptions, type HarnessRunResult } from '../harness/harness-loop.js';
import { taskSpecSchema, type TaskSpec, type TaskSpecInput } from '../harness/task.js';
import type { SearchFunction } from '../harness/tool-context.js';
import { TOOL_SET_NAMES, type ToolSetName } from '../harness/tool-set.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import { parseModelSpec } from '../llm/model-spec.js';
import { TOOL_MODES, type ToolMode } from '../llm/tool-modes.js';
import { assertPositiveOption } from './positive-option.js';

export interface RunTaskOptions {
  task: TaskSpecInput;
  /** A model spec: anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH. */
  model: string;
  /** The stronger model the escalation ladder may switch to. */
  escalate?: string;
  /** A provider object to use instead of creating one from `model` (a test double, a wrapped client); `model` then only labels the run. */
  provider?: ChatProvider;
  /** The search tool's backend (default: the handbook's `ask`, when the repository has a handbook). */
  search?: SearchFunction;
  /** Exit criteria the caller judges itself. */
  extraCriteria?: HarnessRunOptions['extraCriteria'];
  /** The edit plan this run carries out (apply): kept in the run record, so a resumed run judges and re-syncs as apply does. */
  plan?: PlanRun;
  /** Switches harness components off, for the ablation lab only. */
  components?: HarnessRunOptions['components'];
  toolMode?: ToolMode;
  /** `executor` (default) edits within the scope; `planner` gets only the read-only tools. */
  toolSet?: ToolSetName;
  /** An approval policy, or the path of a JSON file holding one. */
  policy?: ApprovalPolicy | string;
  approver?: Approver;
  onEvent?: EventListener;
  signal?: AbortSignal;
  /** Provider settings (retries, timeouts, a base URL for a local server). */
  providerOptions?: CreateProviderOptions;
  /** Where runs are logged (default <repo>/.handbook/runs). */
  runsDirectory?: string;
  maxTokens?: number;
  commandTimeoutMs?: number;
}

export interface RunTaskResult extends HarnessRunResult {
  /** The run's JSONL event log. */
  eventLog: string;
  /** A plan run that completed: the handbook brought up to date from the change. */
  sync?: SyncSummary;
}

export type ResumeTaskOptions = Omit<RunTaskOptions, 'task' | 'model' | 'toolMode' | 'toolSet' | 'plan'> & {
  /** The model for the rest of the run (default: the one the run started with). */
  model?: string;
};

/** What a run needs to be resumed, written when it starts. */
const runRecordSchema = z.object({ task: taskSpecSchema, model: z.string(), toolMode: z.enum(TOOL_MODES), toolSet: z.enum(TOOL_SET_NAMES), plan: planRunSchema.optional() });

/**
 * Runs a task in a repository with a model, through the embedded harness loop, logging every
 * event to .handbook/runs/<id>/events.jsonl. The task must carry exit criteria: completion is
 * what the harness verifies, so a task it could not verify could never complete.
 */
export function runTask(repo: string, options: RunTaskOptions): Promise<RunTaskResult> {
  return runTaskAs(repo, options, stampedId());
}

/** `runTask` under an id its caller chose, to name the run before it starts (apply, in its claim on the plan). */
export async function runTaskAs(repo: string, options: RunTaskOptions, runId: string): Promise<RunTaskResult> {
  const root = assertRepositoryRoot(repo);
  const parsed = taskSpecSchema.safeParse(options.task);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HandbookError('INVALID_INPUT', `the task is not valid at ${issue.path.join('.') || 'the top'}: ${issue.message}`);
  }
  const task = parsed.data;
  if (!ExitCriteriaVerifier.hasAny(task.exitCriteria)) {
    throw new HandbookError('INVALID_INPUT', 'the task has no exit criteria, so its completion could never be verified', 'give at least one --check, --must-change or --typecheck');
  }
  assertChangeable(root, task);
  const toolMode = options.toolMode ?? 'native';
  if (!TOOL_MODES.includes(toolMode)) throw new HandbookError('INVALID_INPUT', `unknown tool mode "${String(toolMode)}"`, `use one of ${TOOL_MODES.join(', ')}`);
  const toolSet = options.toolSet ?? 'executor';
  if (!TOOL_SET_NAMES.includes(toolSet)) throw new HandbookError('INVALID_INPUT', `unknown tool set "${String(toolSet)}"`, `use one of ${TOOL_SET_NAMES.join(', ')}`);
  // Every input is checked before the run folder exists: a call refused on its input leaves no run behind that `resume` would find damaged.
  const inputs = await checkInputs(options.model, options);
  if (options.components?.journal !== false) assertJournalVerifies(root);
  // Must-change files are judged against the task's start, which a resumed run must still know.
  const baselines = fileBaselines(new Workspace(root), task.exitCriteria.filesMustChange);
  const record = {
    task: { ...task, exitCriteria: { ...task.exitCriteria, fileBaselines: baselines } },
    model: options.model,
    toolMode,
    toolSet,
    ...(options.plan ? { plan: options.plan } : {}),
  } as const;
  const folder = newRunFolder(runsFolder(root, options), runId);
  const release = await claimRun(folder, runId);
  try {
    writeFileSync(path.join(folder, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
    return await execute(root, folder, record, options, inputs, new EventStream());
  } catch (error) {
    release();
    discardIfNeverStarted(folder);
    throw error;
  } finally {
    release();
  }
}

/**
 * Continues a run that was interrupted (killed, crashed, stopped) from what it wrote down:
 * calls it cut off are reconciled first, calls it completed never run again, and the model
 * starts from a fresh context with a handoff of the progress so far.
 */
export async function resumeTask(repo: string, runId: string, options: ResumeTaskOptions = {}): Promise<RunTaskResult> {
  const root = assertRepositoryRoot(repo);
  if (!/^[\w-]+$/.test(runId)) throw new HandbookError('INVALID_INPUT', `"${runId}" is not a run id`, 'run ids are listed under .handbook/runs/');
  const folder = path.join(runsFolder(root, options), runId);
  if (!existsSync(path.join(folder, 'run.json'))) throw new HandbookError('INVALID_INPUT', `no run ${runId} in ${path.dirname(folder)}`, 'pass the id `handbook run` printed');
  const stored = readJsonInput(path.join(folder, 'run.json'), runRecordSchema, 'run record', 'the run folder is damaged; start the task again with `handbook run`');
  interruptedRunLogs(folder, runId);
  const record = { ...stored, model: options.model ?? stored.model };
  const inputs = await checkInputs(record.model, options);
  if (options.components?.journal !== false) assertJournalVerifies(root);
  // Claimed only once the inputs passed, so a refused resume leaves the folder as it was; the logs
  // are read again under the claim, as the run they were read from may have gone on meanwhile.
  const release = await claimRun(folder, runId);
  try {
    // The claim proves the run's last owner gone: a check it was running would act on the files under this session.
    killLeftoverGroups(processGroupsFolder(folder));
    // A resumed apply edits the plan's files as apply does: a new apply of the same plan beside it would edit them twice.
    const releasePlan = record.plan ? await claimPlan(root, record.plan.id, runId) : undefined;
    try {
      const { events, operations } = interruptedRunLogs(folder, runId);
      if (events.length === 0) return await execute(root, folder, record, options, inputs, new EventStream(), { startedByResume: true });
      const handoff = buildHandoff(root, events, operations);
      return await execute(root, folder, record, options, inputs, new EventStream(undefined, (events.at(-1)?.seq ?? -1) + 1), { resume: { operations, handoff } });
    } finally {
      await releasePlan?.();
    }
  } finally {
    release();
  }
}

/** A run's logs, refused when the run ended: only one interrupted can go on. */
function interruptedRunLogs(folder: string, runId: string): { events: HarnessEvent[]; operations: OperationLog } {
  const logs = readRunLogs(folder, runId);
  // A run stopped on purpose (Ctrl-C, SIGTERM, a caller's abort) was interrupted, not ended: it goes on.
  // Each session logs its own end, so the last one decides.
  const finished = logs.events.findLast((event) => event.type === 'run_finished');
  if (finished && finished.reason.kind !== 'aborted') throw new HandbookError('INVALID_INPUT', `run ${runId} already ended ${finished.state}`, 'only an interrupted run can be resumed; start a new one with `handbook run`');
  return logs;
}

/** A must-change file no tool may write could never change: the run would spend every step on a criterion it cannot meet. */
function assertChangeable(root: string, task: TaskSpec): void {
  const workspace = new Workspace(root, task.scope);
  for (const file of task.exitCriteria.filesMustChange) {
    try {
      workspace.resolve(file, 'write');
    } catch (error) {
      if (!(error instanceof PathRefused)) throw error;
      throw new HandbookError('INVALID_INPUT', `${file} must change, but no tool may write it: ${error.message}`, 'name a file inside the repository and the task scope');
    }
  }
}

/** What a run takes from its caller that can be refused: the models (a spec, a key, a script) and the approval policy. */
interface RunInputs {
  provider: ChatProvider;
  escalationProvider: ChatProvider | undefined;
  policy: ApprovalPolicy | undefined;
}

/** Checked before anything is written: a new run before its folder exists, a resumed one before its logs grow. */
async function checkInputs(model: string, options: Omit<RunTaskOptions, 'task' | 'model'>): Promise<RunInputs> {
  const { maxTokens } = options;
  assertPositiveOption('maxTokens', maxTokens);
  return {
    provider: options.provider ?? (await onlineProvider(model, options.providerOptions)),
    escalationProvider: options.escalate === undefined ? undefined : await onlineProvider(options.escalate, options.providerOptions),
    policy: typeof options.policy === 'string' ? readApprovalPolicy(options.policy) : options.policy,
  };
}

async function execute(
  root: string,
  folder: string,
  record: z.output<typeof runRecordSchema>,
  options: Omit<RunTaskOptions, 'task' | 'model'>,
  { provider, escalationProvider, policy }: RunInputs,
  events: EventStream,
  { resume, startedByResume }: { resume?: { operations: OperationLog; handoff: Handoff }; startedByResume?: true } = {},
): Promise<RunTaskResult> {
  const search = options.search ?? handbookSearch(root);
  const log = new EventLog(eventsFile(folder));
  events.on((event) => log.append(event));
  if (options.onEvent) events.on(options.onEvent);

  const extraCriteria = withPlanCriteria(options.extraCriteria, record.plan ? noNewFrozen(root, record.plan) : undefined);
  // A plan's targets are judged by the settings of the handbook it was gated on, as the gate judged them.
  const readSource = record.plan ? liveSourceOf(openHandbook(root, { ...(record.plan.database ? { database: record.plan.database } : {}), withUnresolved: false })) : undefined;
  const memory = openRunMemory(path.join(folder, 'memory.db'));
  let result: HarnessRunResult;
  try {
    result = await runInFolder(memory);
  } finally {
    memory.close();
  }
  if (result.state !== 'COMPLETE' || !record.plan) return { ...result, eventLog: log.file };
  // Only the timeout: the rest of the run's provider settings (a base URL above all) are for the run's model, not the handbook's.
  const timeout = options.providerOptions?.timeoutMs === undefined ? {} : { timeoutMs: options.providerOptions.timeoutMs };
  return { ...result, eventLog: log.file, sync: await syncAfterPlanRun(root, record.plan, timeout) };

  function runInFolder(memory: RunMemory): Promise<HarnessRunResult> {
    return runHarnessTask({
      runId: path.basename(folder),
      repo: root,
      task: record.task,
      provider,
      ...(escalationProvider ? { escalationProvider } : {}),
      toolMode: record.toolMode,
      toolSet: record.toolSet,
      events,
      operations: resume?.operations ?? new OperationLog(path.join(folder, 'operations.jsonl')),
      processGroups: new ProcessGroupLog(processGroupsFolder(folder)),
      ...(resume ? { resume: { stepsTaken: resume.handoff.stepsTaken, changedFiles: resume.handoff.changedFiles, handoff: resume.handoff.text } } : {}),
      ...(startedByResume ? { startedByResume } : {}),
      ...(policy ? { policy } : {}),
      ...(options.approver ? { approver: options.approver } : {}),
      ...(search ? { search } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
      memory,
      ...(options.components ? { components: options.components } : {}),
      ...(extraCriteria ? { extraCriteria } : {}),
      ...(readSource ? { readSource } : {}),
    });
  }
}

/** The caller's own criteria and a plan run's, both judged: a caller's never stands in for the plan's. */
function withPlanCriteria(own: RunTaskOptions['extraCriteria'], plan: RunTaskOptions['extraCriteria']): RunTaskOptions['extraCriteria'] {
  if (!own || !plan) return own ?? plan;
  return async () => [...(await own()), ...(await plan())];
}

/**
 * A run's logs, checked; damage (a bad line) is the user's to know about in one line, not a crash.
 * No event log is what a run stopped between its record and its first event leaves: that event comes before
 * any call, so the run did nothing yet. Calls recorded without a single event are damage: what they did is unknown.
 */
function readRunLogs(folder: string, runId: string): { events: HarnessEvent[]; operations: OperationLog } {
  const damaged = (detail: string) => new HandbookError('INVALID_INPUT', `run ${runId} cannot be resumed: its logs are damaged (${detail})`, 'start the task again with `handbook run`');
  let logs: { events: HarnessEvent[]; operations: OperationLog };
  try {
    logs = { events: existsSync(eventsFile(folder)) ? readEventLog(eventsFile(folder)) : [], operations: new OperationLog(path.join(folder, 'operations.jsonl')) };
  } catch (error) {
    throw damaged((error as Error).message.split('\n')[0]!);
  }
  if (logs.events.length === 0 && logs.operations.finished().length + logs.operations.unresolved().length > 0) throw damaged('it recorded calls but no event');
  return logs;
}

async function onlineProvider(spec: string, options: CreateProviderOptions | undefined): Promise<ChatProvider> {
  if (parseModelSpec(spec).provider === 'offline') {
    throw new HandbookError('INVALID_INPUT', 'a task needs a model: the offline default does not write code', 'pass --model anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH');
  }
  const { createProvider } = await import('../llm/create-provider.js');
  return createProvider(spec, options)!;
}

