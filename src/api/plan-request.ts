import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { EventLog } from '../harness/event-log.js';
import { EventStream, type EventListener } from '../harness/events.js';
import { runHarnessTask, type HarnessRunResult } from '../harness/harness-loop.js';
import { taskSpecSchema } from '../harness/task.js';
import type { SearchFunction } from '../harness/tool-context.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import { TOOL_MODES, type ToolMode } from '../llm/tool-modes.js';
import type { LiveSourceReader } from '../locate/live-source.js';
import type { EditPlan, PlanDraft } from '../plan/edit-plan.js';
import { draftOf, plannerTaskText, submitPlanTool } from '../plan/llm-planner.js';
import { withLiveLocators } from '../plan/live-locators.js';
import { planOffline } from '../plan/offline-planner.js';
import { gatePlan, looksLikeTestFile } from '../plan/plan-gate.js';
import { savePlan } from '../plan/plan-store.js';
import { askHandbook, MAX_REQUEST_CHARACTERS } from './ask-handbook.js';
import { createProvider } from './create-provider.js';
import { handbookSearch } from './handbook-search.js';
import { liveResolverOf, liveSourceOf } from './live-resolution.js';
import { discardIfNeverStarted, eventsFile, newRunFolder, runsFolder } from './run-folder.js';
import { stampedId } from './time-stamp.js';
import { assertPositiveOption } from './positive-option.js';
import { openHandbook, type Handbook } from './open-handbook.js';
import type { RunTaskResult } from './run-task.js';

export interface PlanOptions {
  database?: string;
  /** How many routed sites the planner chooses from (default 40). */
  candidates?: number;
}

export interface PlanResult {
  plan: EditPlan;
  files: { json: string; markdown: string };
}

export interface ModelPlanOptions {
  database?: string;
  /** A model spec: anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH; with `provider`, only the label. */
  model?: string;
  /** A provider object to use instead of creating one from `model` (a test double, a wrapped client). */
  provider?: ChatProvider;
  providerOptions?: CreateProviderOptions;
  /** How the model calls tools (default native). */
  toolMode?: ToolMode;
  /** The search tool's backend (default: the handbook's `ask`). */
  search?: SearchFunction;
  onEvent?: EventListener;
  signal?: AbortSignal;
  /** Where the planner's run is logged (default <repo>/.handbook/runs). */
  runsDirectory?: string;
  /** Model turns before the planner gives up (default 40). */
  maxSteps?: number;
  maxTokens?: number;
}

export interface ModelPlanResult extends PlanResult {
  /** The planner's run through the harness loop, with its event log. */
  run: RunTaskResult;
}

/**
 * Turns a behavior request into an edit plan with the offline planner, puts it through the
 * plan gate against the live repository, and saves it under .handbook/plans, accepted or
 * rejected with its failures. A rejected plan is never saved as accepted.
 */
export async function planRequest(repo: string, request: string, options: PlanOptions = {}): Promise<PlanResult> {
  const root = assertRepositoryRoot(repo);
  const text = requestText(request);
  const database = options.database ? { database: options.database } : {};
  const asked = await askHandbook(root, text, { ...database, limit: options.candidates ?? 40 });
  const handbook = openHandbook(root, { ...database, withUnresolved: false });
  const draft = planOffline({
    root: handbook.root,
    request: text,
    sites: asked.locations.map((location) => ({ file: location.file, symbol: location.symbol, score: location.score, why: location.why, stage: location.stage })),
    graph: handbook.graph,
    register: handbook.register,
    generation: handbook.generation.id,
  });
  const read = liveSourceOf(handbook);
  const plan = await acceptOrReject(handbook.root, await withLiveLocators(draft, read), read, testFilesOf(handbook));
  return { plan, files: await savePlan(handbook.root, plan) };
}

/**
 * Plans with a model: the llm planner runs inside the harness loop with the read-only planner
 * tools over the handbook, and finishes with submit_plan, which the plan gate judges; a rejected
 * plan goes back to the model with every failure. The run writes nothing but its log, so no
 * acceptance record is made: the saved plan is the record, accepted only when the gate accepted
 * it. A run that ends without an accepted plan saves its last submission as rejected, and one
 * that never submitted saves nothing and throws.
 */
export async function planWithModel(repo: string, request: string, options: ModelPlanOptions): Promise<ModelPlanResult> {
  const root = assertRepositoryRoot(repo);
  const text = requestText(request);
  const toolMode = options.toolMode ?? 'native';
  if (!TOOL_MODES.includes(toolMode)) throw new HandbookError('INVALID_INPUT', `unknown tool mode "${String(toolMode)}"`, `use one of ${TOOL_MODES.join(', ')}`);
  assertPositiveOption('maxSteps', options.maxSteps);
  assertPositiveOption('maxTokens', options.maxTokens);
  // Reading is all a planner does until it submits, so it may read longer than an executor before the stall detector calls it stuck.
  const task = taskSpecSchema.parse({ text: plannerTaskText(text), limits: { maxSteps: options.maxSteps ?? 40, stallTurns: 12 } });
  const database = options.database ? { database: options.database } : {};
  // The planner navigates the handbook: without one it has nothing to plan on, so it does not start (NO_HANDBOOK).
  const handbook = openHandbook(root, { ...database, withUnresolved: false });
  const provider = options.provider ?? (await modelProvider(options.model, options.providerOptions));
  const model = options.model ?? provider.id;

  const isTestFile = testFilesOf(handbook);
  const readSource = liveSourceOf(handbook);
  const fixed = { request: text, generation: handbook.generation.id, model, typecheck: existsSync(path.join(root, 'tsconfig.json')) };
  let judged: EditPlan | undefined;
  const completion = submitPlanTool(async (submission) => (judged = await acceptOrReject(root, draftOf(submission, fixed), readSource, isTestFile)));

  const search = options.search ?? handbookSearch(root, options.database);
  const folder = newRunFolder(runsFolder(root, options), stampedId('plan'));
  const log = new EventLog(eventsFile(folder));
  const events = new EventStream();
  events.on((event) => log.append(event));
  if (options.onEvent) events.on(options.onEvent);
  let run: HarnessRunResult;
  try {
    run = await runHarnessTask({
      runId: path.basename(folder),
      repo: root,
      task,
      provider,
      toolMode,
      toolSet: 'planner',
      handbook: { ...handbook, readSource, liveResolver: () => liveResolverOf(handbook) },
      completion,
      events,
      ...(search ? { search } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    });
  } catch (error) {
    discardIfNeverStarted(folder);
    throw error;
  }
  if (!judged) throw new HandbookError('INVALID_INPUT', `the planner did not produce a plan: the run ended ${run.state} (${run.reason.detail})`, `its events are in ${log.file}`);
  return { plan: judged, files: await savePlan(root, judged), run: { ...run, eventLog: log.file } };
}

/** Runs the gate on a draft and gives it an id, a time and the status the gate decided. */
export async function acceptOrReject(root: string, draft: PlanDraft, read: LiveSourceReader, isTestFile: (file: string) => boolean): Promise<EditPlan> {
  const failures = await gatePlan(root, draft, read, isTestFile);
  return { id: newPlanId(), createdAt: new Date().toISOString(), ...draft, status: failures.length === 0 ? 'accepted' : 'rejected', failures };
}

function newPlanId(): string {
  return `plan-${stampedId()}`;
}

function requestText(request: string): string {
  const text = request.trim();
  if (text.length === 0) throw new HandbookError('INVALID_INPUT', 'the request is empty', 'describe a change, e.g. "mask secrets in every capture path"');
  if (text.length > MAX_REQUEST_CHARACTERS) throw new HandbookError('INVALID_INPUT', `the request is ${text.length} characters long`, `describe it in a sentence or two (at most ${MAX_REQUEST_CHARACTERS} characters)`);
  return text;
}

/** The handbook's test files, and any file named like a test: a plan may not target them. */
export function testFilesOf(handbook: Handbook): (file: string) => boolean {
  const testFiles = new Set(handbook.graph.toData().files.filter((file) => file.test).map((file) => file.path));
  return (file) => testFiles.has(file) || looksLikeTestFile(file);
}

async function modelProvider(model: string | undefined, options: CreateProviderOptions | undefined): Promise<ChatProvider> {
  const provider = model === undefined ? undefined : await createProvider(model, options);
  if (!provider) throw new HandbookError('INVALID_INPUT', 'the llm planner needs a model', 'pass --model anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH; without --model the offline planner plans');
  return provider;
}

