import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { readApprovalPolicy, type ApprovalPolicy, type Approver } from '../harness/approval-policy.js';
import { EventLog } from '../harness/event-log.js';
import { EventStream, type EventListener } from '../harness/events.js';
import { ExitCriteriaVerifier } from '../harness/exit-criteria.js';
import { runHarnessTask, type HarnessRunResult } from '../harness/harness-loop.js';
import { taskSpecSchema, type TaskSpecInput } from '../harness/task.js';
import type { SearchFunction } from '../harness/tool-context.js';
import type { ToolSetName } from '../harness/tool-set.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import { parseModelSpec } from '../llm/model-spec.js';
import { TOOL_MODES, type ToolMode } from '../llm/tool-modes.js';
import { askHandbook } from './ask-handbook.js';

export interface RunTaskOptions {
  task: TaskSpecInput;
  /** A model spec: anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH. */
  model: string;
  /** The stronger model the escalation ladder may switch to. */
  escalate?: string;
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
}

/**
 * Runs a task in a repository with a model, through the embedded harness loop, logging every
 * event to .handbook/runs/<id>/events.jsonl. The task must carry exit criteria: completion is
 * what the harness verifies, so a task it could not verify could never complete.
 */
export async function runTask(repo: string, options: RunTaskOptions): Promise<RunTaskResult> {
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
  const toolMode = options.toolMode ?? 'native';
  if (!TOOL_MODES.includes(toolMode)) throw new HandbookError('INVALID_INPUT', `unknown tool mode "${String(toolMode)}"`, `use one of ${TOOL_MODES.join(', ')}`);
  const provider = await onlineProvider(options.model, options.providerOptions);
  const escalationProvider = options.escalate === undefined ? undefined : await onlineProvider(options.escalate, options.providerOptions);
  const policy = typeof options.policy === 'string' ? readApprovalPolicy(options.policy) : options.policy;

  const search = handbookSearch(root);
  const runId = newRunId();
  const log = new EventLog(path.join(options.runsDirectory ?? path.join(root, '.handbook', 'runs'), runId, 'events.jsonl'));
  const events = new EventStream();
  events.on((event) => log.append(event));
  if (options.onEvent) events.on(options.onEvent);

  const result = await runHarnessTask({
    runId,
    repo: root,
    task,
    provider,
    ...(escalationProvider ? { escalationProvider } : {}),
    toolMode,
    ...(options.toolSet ? { toolSet: options.toolSet } : {}),
    events,
    ...(policy ? { policy } : {}),
    ...(options.approver ? { approver: options.approver } : {}),
    ...(search ? { search } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
  });
  return { ...result, eventLog: log.file };
}

async function onlineProvider(spec: string, options: CreateProviderOptions | undefined): Promise<ChatProvider> {
  if (parseModelSpec(spec).provider === 'offline') {
    throw new HandbookError('INVALID_INPUT', 'a task needs a model: the offline default does not write code', 'pass --model anthropic:MODEL, openai:MODEL, openai-compatible:MODEL@URL or script:PATH');
  }
  const { createProvider } = await import('../llm/create-provider.js');
  return createProvider(spec, options)!;
}

/** The handbook's router as the search tool, when the repository has a handbook. */
function handbookSearch(root: string): SearchFunction | undefined {
  if (!existsSync(path.join(root, '.handbook', 'handbook.db'))) return undefined;
  return async (query, limit) =>
    (await askHandbook(root, query, { limit })).locations.map((location) => ({
      file: location.file,
      symbol: location.symbol,
      line: location.line,
      endLine: location.endLine,
      ...(location.stage ? { stage: location.stage } : {}),
      why: location.why,
    }));
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}
