import path from 'node:path';
import type { z } from 'zod';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse } from '../llm/chat-types.js';
import { type LiveSourceReader, liveSourceReader } from '../locate/live-source.js';
import { openRunMemory, type RunMemory } from '../store/run-memory.js';
import { compactConversation, pinnedMemoryMessage } from './compaction.js';
import { estimateTokens, TokenBudget } from './context-budget.js';
import { ProviderError } from '../llm/provider-error.js';
import { actionRequest, assistantMessage, readActions, resultMessages, type ActionResult, type ModelAction, type ToolMode } from '../llm/tool-modes.js';
import { changedSince, snapshotWorkspace, toolVersion, writeAcceptanceRecord, type CheckRun } from './acceptance.js';
import { DEFAULT_APPROVAL_POLICY, decideApproval, type ApprovalPolicy, type Approver } from './approval-policy.js';
import type { EventStream } from './events.js';
import { ExitCriteriaVerifier, type CriterionStatus } from './exit-criteria.js';
import { findHallucinatedImports } from './import-check.js';
import { argumentProblem, missingActionReply, missingOf, resumeMessage } from './harness-replies.js';
import { Journal } from './journal.js';
import { reconcileFromJournal } from './reconcile-effect.js';
import { LoopGuards, type LoopFinding } from './loop-guards.js';
import type { OperationLog, ReconcileOutcome, StartedOperation } from './operation-log.js';
import type { ProcessGroupRecorder } from './process-groups.js';
import { ReadLedger } from './read-ledger.js';
import { runShellCommand } from './run-shell-command.js';
import { checkDirectory, type TaskSpec } from './task.js';
import { systemPrompt, taskMessage } from './task-prompt.js';
import { TaskStateMachine, type StateReason, type TerminalState } from './task-state.js';
import type { HandbookView, SearchFunction, ToolContext } from './tool-context.js';
import { isTerminalTool, type ToolOutput } from './tool-contract.js';
import { chatToolsOf, toolsOf, type AnyToolContract, type ToolSetName } from './tool-set.js';
import type { CompletionTool } from './tools/completion-tool.js';
import { TERMINAL_TOOL_INPUTS } from './tools/terminal-tools.js';
import { typecheckRepository } from './typecheck.js';
import { UngatedWorkspace } from './ungated-workspace.js';
import { PathRefused, Workspace } from './workspace.js';

/** The parts of the harness the ablation lab switches off one at a time to measure what each is worth. */
export const HARNESS_COMPONENTS = ['exitCriteria', 'reconciler', 'loopGuards', 'circuitBreaker', 'fileGate', 'journal', 'operationIds', 'compaction'] as const;
export type HarnessComponent = (typeof HARNESS_COMPONENTS)[number];

export interface HarnessRunOptions {
  runId: string;
  repo: string;
  task: TaskSpec;
  provider: ChatProvider;
  /** The stronger model the escalation ladder switches to before it gives up. */
  escalationProvider?: ChatProvider;
  toolMode: ToolMode;
  toolSet?: ToolSetName;
  events: EventStream;
  policy?: ApprovalPolicy;
  /** Asks the user about calls whose rule is `ask`; without one they are denied. */
  approver?: Approver;
  search?: SearchFunction;
  /** The repository's files as its handbook's build reads them, for the plan targets' criteria (default: discovery's own settings). */
  readSource?: LiveSourceReader;
  /** The built handbook a planner run navigates with overview, stage, entry, callers, callees and state; the executor never gets them. */
  handbook?: HandbookView;
  /**
   * The run's own completion tool in place of task_complete (the planner's submit_plan): the
   * model's submission is judged by its `verify`, not by exit criteria, and acceptance writes
   * no acceptance record. Only a run whose tools all read may have one.
   */
  completion?: CompletionTool;
  signal?: AbortSignal;
  /** The most tokens one model turn may write (default 8192). */
  maxTokens?: number;
  /** How long run_command may run (default 10 minutes). */
  commandTimeoutMs?: number;
  /** The largest file one write may produce (default 2 MB). */
  maxWriteBytes?: number;
  /** Where the process groups of checks and commands are written down while they run, so a claimant can stop those a killed run left. */
  processGroups?: ProcessGroupRecorder;
  /** Where calls that must not run twice are written down before they run; without it they are not tracked. */
  operations?: OperationLog;
  /** Whether a call cut off by a crash or timeout took effect (default: judged from the journal; commands are `unknown`). */
  reconcileEffect?: (operation: StartedOperation) => { outcome: ReconcileOutcome; detail: string };
  /** Exit criteria the caller judges itself, checked only when the model declares completion. */
  extraCriteria?: () => Promise<CriterionStatus[]>;
  /** The run's long-term memory, where compaction promotes durable facts (default: in memory, gone with the run). */
  memory?: RunMemory;
  /** Components to switch off, for the ablation lab only: every one is on unless set to false. */
  components?: Partial<Record<HarnessComponent, boolean>>;
  /** Continues an interrupted run: the steps already taken, the files they wrote and what the model is told about them. */
  resume?: { stepsTaken: number; changedFiles: readonly string[]; handoff: string };
  /** Starts, from `resume`, a run stopped before its first event: there is nothing to continue, so it starts as new and says why. */
  startedByResume?: boolean;
}

export interface HarnessRunResult {
  runId: string;
  state: TerminalState;
  reason: StateReason;
  steps: number;
  durationMs: number;
  usage: { inputTokens: number; outputTokens: number };
  /** Files the task's tools wrote, in the order first written. */
  changedFiles: string[];
  /** The exit criteria as last judged: verified afresh when the model declared completion. */
  criteria: CriterionStatus[];
  /** What the model said it did (task_complete), why it stopped (task_blocked) or what it asked (need_input). */
  modelWords?: string;
  /** The acceptance record a COMPLETE run wrote: the tested snapshot and where the record is. */
  acceptance?: { file: string; snapshotDigest: string };
  model: string;
}

const LADDER = ['nudge', 'redecompose', 'stronger_model', 'blocked'] as const;

/**
 * Runs one task to a terminal state. The model proposes; the harness validates every call,
 * guards against loops, runs the tools, and decides completion from exit criteria it checks
 * itself. Termination is guaranteed by max steps, the wall clock and the stall detector.
 */
export async function runHarnessTask(options: HarnessRunOptions): Promise<HarnessRunResult> {
  const { events, task } = options;
  const started = performance.now();
  const deadline = AbortSignal.timeout(task.limits.wallClockMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const machine = new TaskStateMachine((transition) => events.emit({ type: 'task_state', ...transition }));
  const workspaceOptions = { maxWriteBytes: options.maxWriteBytes ?? 2_000_000 };
  const workspace = options.components?.fileGate === false ? new UngatedWorkspace(options.repo, task.scope, workspaceOptions) : new Workspace(options.repo, task.scope, workspaceOptions);
  const verifier = await ExitCriteriaVerifier.start(workspace, task.exitCriteria, {
    runCheck: (check) => runShellCommand(check.command, { cwd: checkDirectory(workspace.root, check), timeoutMs: check.timeoutMs, signal, ...(options.processGroups ? { groups: options.processGroups } : {}) }),
    typecheck: () => typecheckRepository(workspace.root),
    readSource: options.readSource ?? liveSourceReader(workspace.root),
    ...(options.extraCriteria ? { extraCriteria: options.extraCriteria } : {}),
  });
  const journal = options.components?.journal === false ? undefined : Journal.open(workspace.root);
  const contracts = toolsOf(options.toolSet ?? 'executor', options.handbook !== undefined);
  const contractOf = new Map(contracts.map((contract) => [contract.name, contract]));
  const completion = options.completion;
  if (completion) assertCompletionFits(completion, contracts);
  const chatTools = chatToolsOf(contracts, completion);
  const guards = new LoopGuards(task.limits);
  const policy = options.policy ?? DEFAULT_APPROVAL_POLICY;

  let version = 0;
  let step = 0;
  // The result reports the task's changes, not one session's: a run resumed after its edits still changed those files.
  const changedFiles: string[] = [...(options.resume?.changedFiles ?? [])];
  const createdFiles = new Set<string>();
  const usage = { inputTokens: 0, outputTokens: 0 };
  let criteria = await verifier.cheapStatus(version);

  const context: ToolContext = {
    workspace,
    ledger: new ReadLedger(),
    verifier,
    get version() {
      return version;
    },
    noteWrite(file) {
      version++;
      guards.noteWorkspaceChanged();
      if (file !== undefined && !changedFiles.includes(file)) changedFiles.push(file);
    },
    createdFiles,
    findHallucinatedImports: (file, oldText, newText) => findHallucinatedImports(workspace.root, file, oldText, newText, { pendingFiles: createdFiles }),
    search: options.search,
    ...(options.handbook ? { handbook: options.handbook } : {}),
    onCheck: (check, outcome) => events.emit({ type: 'check_result', step, name: check.name, command: check.command, exitCode: outcome.exitCode, durationMs: outcome.durationMs, outputDigest: outcome.outputDigest, outputTail: outcome.output.slice(-1_000), timedOut: outcome.timedOut }),
    commandTimeoutMs: options.commandTimeoutMs ?? 600_000,
    ...(options.processGroups ? { processGroups: options.processGroups } : {}),
    maxWriteBytes: options.maxWriteBytes ?? 2_000_000,
    operationId: undefined,
    journalWrite: async (change) => {
      // Only a write the gate let leave the repository (the lab's control without the gate) has no place in its journal.
      if (!journal || change.path.startsWith('../') || path.isAbsolute(change.path)) return;
      await journal.record({ runId: options.runId, ...(context.operationId ? { opId: context.operationId } : {}), ...change });
    },
  };

  let provider = options.provider;
  const maxTokens = options.maxTokens ?? 8192;
  // The room left must hold the longest reply a turn may write, whatever the configured headroom.
  const budget = new TokenBudget({ ...task.limits.tokens, minFreeTokens: Math.max(task.limits.tokens.minFreeTokens, maxTokens) });
  const ownMemory = options.memory === undefined;
  const memory = options.memory ?? openRunMemory(':memory:');
  let acceptance: { file: string; snapshotDigest: string } | undefined;
  const finish = (state: TerminalState, reason: StateReason, modelWords?: string): HarnessRunResult => {
    if (ownMemory) memory.close();
    machine.moveTo(state, reason);
    const durationMs = Math.round(performance.now() - started);
    events.emit({ type: 'run_finished', state, reason, steps: step, durationMs, ...usage });
    return { runId: options.runId, state, reason, steps: step, durationMs, usage: { ...usage }, changedFiles: [...changedFiles], criteria, ...(modelWords === undefined ? {} : { modelWords }), ...(acceptance ? { acceptance } : {}), model: provider.id };
  };

  if (options.resume) events.emit({ type: 'run_resumed', runId: options.runId, stepsTaken: options.resume.stepsTaken, model: provider.id });
  else events.emit({ type: 'run_started', runId: options.runId, task: task.text, model: provider.id, toolMode: options.toolMode, repo: workspace.root, ...(options.startedByResume ? { byResume: true as const } : {}) });
  step = options.resume?.stepsTaken ?? 0;
  const cutOff = reconcileCutOffOperations();
  machine.moveTo('IN_PROGRESS', { kind: options.resume ? 'resumed' : 'started', detail: options.resume ? `the run goes on after step ${step} with a fresh context` : 'the model is working on the task' });

  const system = systemPrompt(path.basename(workspace.root), contracts.some((contract) => contract.effect === 'write'), completion?.name);
  const messages: ChatMessage[] = [{ role: 'user', content: taskMessage(task, completion?.name) }];
  if (options.resume) messages.push({ role: 'user', content: resumeMessage(options.resume.handoff, cutOff, missingOf(criteria)) });
  if (options.resume && memory.facts().length > 0) messages.push(pinnedMemoryMessage(memory));
  let ladder = 0;
  let warnings = 0;
  let misses = 0;
  let stalledTurns = 0;
  let bestSatisfied = criteria.filter((criterion) => criterion.satisfied).length;
  let fewestMissing = Number.POSITIVE_INFINITY;
  /** Calls that may have changed something (any effect but read), counted so a completion can tell whether anything acted since the last. */
  let acted = 0;
  /**
   * The last rejected completion and what it was judged on, to answer an unchanged retry without
   * running the checks again. "Unchanged" is what the loop can see: no call with an effect ran
   * (writes; commands, which may touch anything, dependencies included; run_check, whose fresh
   * result the model may have seen differ) and the snapshot acceptance judges is byte-identical
   * to the one the checks ran on, which also catches edits from outside the harness and files
   * the checks themselves changed. Unseen: outside changes to files the snapshot leaves out
   * (ignored files, dependencies, the handbook) and checks that fail by chance; run_check is the
   * model's way to have them judged afresh.
   */
  let lastRejection: { acted: number; digest: string; missing: string[]; criteria: CriterionStatus[] } | undefined;

  /** The rung the next escalation reaches and where the ladder stands after it: without a stronger model to switch to, that rung is skipped. */
  const nextRung = (): { level: (typeof LADDER)[number]; after: number } => {
    const rungAt = (index: number): (typeof LADDER)[number] => LADDER[Math.min(index, LADDER.length - 1)]!;
    const level = rungAt(ladder);
    if (level === 'stronger_model' && (!options.escalationProvider || provider === options.escalationProvider)) return { level: rungAt(ladder + 1), after: ladder + 2 };
    return { level, after: ladder + 1 };
  };

  /** Climbs one rung; returns the words for the model, or a reason to block when the ladder is spent. */
  const escalate = (findings: readonly string[]): { note: string } | { blocked: StateReason } => {
    const { level, after } = nextRung();
    ladder = after;
    if (level !== 'blocked') warnings++;
    stalledTurns = 0;
    const diagnosis = findings.join('; ');
    events.emit({ type: 'escalated', step, level, detail: diagnosis });
    switch (level) {
      case 'nudge':
        events.emit({ type: 'nudge', step, message: diagnosis });
        return { note: `The harness stopped a loop: ${diagnosis}. Do something different from what you have been doing.` };
      case 'redecompose':
        return { note: `The harness stopped a loop again: ${diagnosis}. Stop and re-plan: list what the exit criteria still miss (${missingOf(criteria).join('; ') || 'see the task'}), break the rest of the work into small steps, and take the first one now. If it cannot be done, call task_blocked.` };
      case 'stronger_model':
        provider = options.escalationProvider!;
        return { note: `A stronger model (${provider.id}) takes over after repeated loops: ${diagnosis}. Take a different approach.` };
      case 'blocked':
        return { blocked: { kind: 'loop', detail: `the harness broke a loop the model did not leave after ${warnings} warning(s): ${diagnosis}` } };
    }
  };

  for (step = step + 1; ; step++) {
    if (step > task.limits.maxSteps) {
      step--;
      return finish('FAILED', { kind: 'max_steps', detail: `the task used all ${task.limits.maxSteps} steps without completing` });
    }
    if (signal.aborted) {
      step--;
      return finish('FAILED', abortReason(deadline, task.limits.wallClockMs));
    }

    events.emit({ type: 'turn_started', step, model: provider.id });
    const prepared = prepareRequest();
    if ('exceeded' in prepared) {
      events.emit({ type: 'budget_exceeded', step, ...prepared.exceeded });
      return finish('FAILED', { kind: 'token_budget', detail: `the ${prepared.exceeded.budget} budget of ${prepared.exceeded.limit} tokens would be exceeded (${prepared.exceeded.tokens})` });
    }
    events.emit({ type: 'model_request', step, model: provider.id, messages: messages.length, tools: chatTools.length, estimatedTokens: prepared.estimate });
    let response: ChatResponse;
    try {
      response = await provider.complete(prepared.request, {
        onRetry: (retry) => events.emit({ type: 'model_retry', step, attempt: retry.attempt, error: retry.error.message, delayMs: retry.delayMs }),
      });
    } catch (error) {
      if (signal.aborted) return finish('FAILED', abortReason(deadline, task.limits.wallClockMs));
      if (ProviderError.isInstance(error)) return finish('FAILED', { kind: 'provider', detail: error.message });
      throw error;
    }
    budget.record(response.usage, prepared.estimate);
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    events.emit({
      type: 'model_response',
      step,
      model: response.model,
      text: response.text,
      toolCalls: response.toolCalls.map((call) => ({ id: call.id, name: call.name })),
      stopReason: response.stopReason,
      ...response.usage,
    });

    if (response.stopReason === 'refusal') {
      // A refusal is a policy answer, not a transient failure: asking again would only repeat it.
      return finish('BLOCKED', { kind: 'refusal', detail: `the model refused${response.refusal ? `: ${response.refusal}` : ''}; review the task before running it again` });
    }

    const reading = readActions(options.toolMode, response, step);
    messages.push(assistantMessage(options.toolMode, response, reading));
    if (reading.kind !== 'actions') {
      misses++;
      const missing = missingActionReply(reading, response.text, on('reconciler'), completion?.name);
      events.emit({ type: 'action_missing', step, kind: missing.kind, detail: missing.detail });
      if (misses >= task.limits.actionMisses) return finish('BLOCKED', { kind: 'no_action', detail: `the model ended ${misses} turns in a row without acting (last: ${missing.detail})` });
      messages.push({ role: 'user', content: missing.reply });
      continue;
    }
    misses = 0;

    const results: ActionResult[] = [];
    const notes: string[] = [];
    const findings: string[] = [];
    let submittedCloser: string[] | undefined;
    for (const action of reading.actions) {
      events.emit({ type: 'tool_proposed', step, callId: action.id, tool: action.name, arguments: action.arguments });
      const terminalInput = terminalInputOf(action.name, completion);
      if (terminalInput) {
        if (action.argumentsError !== undefined) {
          results.push(reject(action, 'invalid-arguments', action.argumentsError));
          continue;
        }
        const input = terminalInput.safeParse(action.arguments ?? {});
        if (!input.success) {
          results.push(reject(action, 'invalid-arguments', argumentProblem(action.name, input.error.issues)));
          continue;
        }
        if (action.name === 'task_blocked') return finish('BLOCKED', { kind: 'model_blocked', detail: (input.data as { reason: string }).reason }, (input.data as { reason: string }).reason);
        if (action.name === 'need_input') return finish('NEEDS_INPUT', { kind: 'question', detail: (input.data as { question: string }).question }, (input.data as { question: string }).question);
        if (completion) {
          const verdict = await completion.verify(input.data);
          if ('accepted' in verdict) return finish('COMPLETE', { kind: 'verified', detail: `the harness checked ${completion.name} and accepted it` }, verdict.summary);
          events.emit({ type: 'complete_rejected', step, missing: verdict.missing });
          // A submission with fewer failures than any before is progress, as a newly met criterion is.
          if (verdict.missing.length < fewestMissing) {
            fewestMissing = verdict.missing.length;
            submittedCloser = verdict.missing;
          }
          results.push({ action, isError: true, content: `Not accepted: the harness checked your ${completion.name} and found:\n${verdict.missing.map((line) => `- ${line}`).join('\n')}\nFix every one and call ${completion.name} again.` });
          continue;
        }
        // Ablation control only: without verification the model's word is taken, which is what the lab measures.
        if (!on('exitCriteria')) return finish('COMPLETE', { kind: 'unverified', detail: 'the model declared completion; exit-criteria verification is switched off' }, (input.data as { summary: string }).summary);
        const accepted = await verifyAndAccept();
        if ('file' in accepted) {
          acceptance = accepted;
          return finish('COMPLETE', { kind: 'verified', detail: 'every exit criterion passed when the harness checked it' }, (input.data as { summary: string }).summary);
        }
        const { missing, reused } = accepted;
        events.emit({ type: 'complete_rejected', step, missing, ...(reused ? { reused } : {}) });
        results.push({ action, isError: true, content: rejectionText(missing, reused === true) });
        continue;
      }
      const outcome = await dispatch(action);
      results.push(outcome.result);
      findings.push(...outcome.findings.map((finding) => finding.message));
      // One rung per turn, since the model could not react between calls it sent at once; but when that rung is
      // the last, the run stops here: the turn's later calls were planned inside the loop the guards just broke.
      if (outcome.findings.length > 0 && nextRung().level === 'blocked') {
        const rung = escalate(findings);
        if ('blocked' in rung) {
          refuseRest(reading.actions.slice(reading.actions.indexOf(action) + 1), rung.blocked.detail);
          return finish('BLOCKED', rung.blocked);
        }
      }
    }

    const verified = !completion && reading.actions.some((action) => action.name === 'task_complete');
    const current = await verifier.cheapStatus(version);
    // A verification this turn is the better account of where the task stands: keep it for the result.
    if (!verified) criteria = current;
    const satisfied = current.filter((criterion) => criterion.satisfied).length;
    if (satisfied > bestSatisfied || submittedCloser) {
      bestSatisfied = Math.max(bestSatisfied, satisfied);
      guards.recordProgress();
      stalledTurns = 0;
      events.emit({ type: 'progress', step, satisfied: current.filter((criterion) => criterion.satisfied).map((criterion) => criterion.id), missing: submittedCloser ?? missingOf(current) });
    } else if (++stalledTurns >= task.limits.stallTurns && on('loopGuards')) {
      const message = `no progress against the exit criteria for ${stalledTurns} turns`;
      events.emit({ type: 'loop_detected', step, kind: 'stall', message });
      findings.push(message);
    }
    if (findings.length > 0) {
      const rung = escalate(findings);
      if ('blocked' in rung) return finish('BLOCKED', rung.blocked);
      notes.push(rung.note);
    }
    messages.push(...resultMessages(options.toolMode, results, notes.length === 0 ? undefined : notes.join('\n\n')));
  }

  /**
   * The request for this turn, within the token budgets: a conversation near the window is
   * compacted first (facts promoted to the run's memory, old turns summarized), keeping fewer
   * recent turns if it must; a request still over a budget is not sent.
   */
  function prepareRequest(): { request: ChatRequest; estimate: number } | { exceeded: { budget: 'context' | 'turn' | 'task'; limit: number; tokens: number } } {
    const build = (): ChatRequest => actionRequest(options.toolMode, { system, messages, maxTokens, signal }, chatTools);
    let request = build();
    let estimate = estimateTokens(request);
    if (options.components?.compaction !== false) {
      for (const keepRecentTurns of [task.limits.compactKeepTurns, 1, 0]) {
        if (!budget.needsCompaction(estimate)) break;
        const compacted = compactConversation(messages, { step, keepRecentTurns }, memory);
        if (compacted.summarized === 0) continue;
        const tokensBefore = estimate;
        messages.splice(0, messages.length, ...compacted.messages);
        request = build();
        estimate = estimateTokens(request);
        events.emit({
          type: 'compacted',
          step,
          summarized: compacted.summarized,
          removedMessages: compacted.removedMessages,
          promoted: compacted.promoted,
          factIds: compacted.factIds,
          fromStep: compacted.steps?.from ?? step,
          toStep: compacted.steps?.to ?? step,
          tokensBefore,
          tokensAfter: estimate,
        });
      }
    }
    const limits = task.limits.tokens;
    const calibrated = budget.calibrated(estimate);
    if (calibrated > limits.contextWindow - maxTokens) return { exceeded: { budget: 'context', limit: limits.contextWindow - maxTokens, tokens: calibrated } };
    if (budget.overTurnBudget(estimate)) return { exceeded: { budget: 'turn', limit: limits.perTurnInputTokens!, tokens: calibrated } };
    if (budget.overTaskBudget(estimate)) return { exceeded: { budget: 'task', limit: limits.perTaskTokens!, tokens: budget.used.totalTokens + calibrated } };
    return { request, estimate };
  }

  /**
   * Runs every exit criterion on a snapshot of the files and, when all pass and nothing
   * changed while the checks ran, writes the acceptance record: no record, no COMPLETE.
   */
  async function verifyAndAccept(): Promise<{ file: string; snapshotDigest: string } | { missing: string[]; reused?: true }> {
    const before = snapshotWorkspace(workspace.root, task.scope);
    if (lastRejection && lastRejection.acted === acted && lastRejection.digest === before.digest) {
      criteria = lastRejection.criteria;
      return { missing: lastRejection.missing, reused: true };
    }
    lastRejection = undefined;
    const checks: CheckRun[] = [];
    criteria = await verifier.verify(version, (check, outcome) => {
      context.onCheck(check, outcome);
      checks.push({ name: check.name, command: check.command, ...(check.cwd === undefined ? {} : { cwd: check.cwd }), exitCode: outcome.exitCode, durationMs: outcome.durationMs, outputDigest: outcome.outputDigest });
    });
    const missing = missingOf(criteria);
    if (missing.length > 0) {
      lastRejection = { acted, digest: before.digest, missing, criteria };
      return { missing };
    }
    const moved = changedSince(workspace.root, before);
    if (moved.length > 0) return { missing: [`files changed while the checks ran, so the tested bytes are not the files now: ${moved.slice(0, 10).join(', ')}`] };
    const file = await writeAcceptanceRecord(workspace.root, {
      version: 1,
      runId: options.runId,
      ...(task.planId ? { planId: task.planId } : {}),
      task: task.text,
      acceptedAt: new Date().toISOString(),
      checks,
      criteria: criteria.map((criterion) => ({ id: criterion.id, satisfied: criterion.satisfied })),
      snapshot: before,
      tool: { name: 'harness-handbook', version: toolVersion() },
      node: process.version,
      model: provider.id,
      toolMode: options.toolMode,
    });
    events.emit({ type: 'accepted', step, file, snapshotDigest: before.digest, files: Object.keys(before.files).length });
    return { file, snapshotDigest: before.digest };
  }

  /**
   * Before a call goes out again after an earlier attempt of it was cut off: done means it is
   * not sent; unknown means the model is told so once and must look before it asks again.
   */
  function reconcileBeforeResending(tool: string, args: unknown): { rule: string; reason: string } | undefined {
    let verdict: { rule: string; reason: string } | undefined;
    for (const operation of options.operations!.unresolvedFor(tool, args)) {
      const { outcome, detail } = reconcile(operation);
      options.operations!.reconcile(operation.opId, outcome, detail);
      events.emit({ type: 'operation_reconciled', step, opId: operation.opId, tool, outcome, detail });
      if (outcome === 'done') verdict = { rule: 'already-done', reason: `an earlier attempt of this exact call was cut off but took effect (${detail}), so it is not run again` };
      else if (outcome === 'unknown') verdict ??= { rule: 'unresolved-operation', reason: `an earlier attempt of this exact call was cut off (timeout or crash) and it is unknown whether it took effect (${detail}): check the result first; if you ask for it again, it will run` };
    }
    return verdict;
  }

  /** Calls a crash or timeout cut off are settled before anything is sent again: done, not done, or unknown (said so to the model). */
  function reconcileCutOffOperations(): Array<{ operation: StartedOperation; outcome: ReconcileOutcome; detail: string }> {
    if (!options.operations) return [];
    return options.operations.unresolved().map((operation) => {
      const { outcome, detail } = reconcile(operation);
      options.operations!.reconcile(operation.opId, outcome, detail);
      events.emit({ type: 'operation_reconciled', step, opId: operation.opId, tool: operation.tool, outcome, detail });
      return { operation, outcome, detail };
    });
  }

  function reconcile(operation: StartedOperation): { outcome: ReconcileOutcome; detail: string } {
    return options.reconcileEffect?.(operation) ?? reconcileFromJournal(journal, workspace, operation);
  }

  function on(component: HarnessComponent): boolean {
    return options.components?.[component] !== false;
  }

  /** A guard's finding, unless the ablation lab switched off the component that raises it. */
  function enabledFinding(finding: LoopFinding | undefined): LoopFinding | undefined {
    if (!finding) return undefined;
    return on(finding.kind === 'breaker' ? 'circuitBreaker' : 'loopGuards') ? finding : undefined;
  }

  function reject(action: ModelAction, rule: string, reason: string): ActionResult {
    events.emit({ type: 'tool_rejected', step, callId: action.id, tool: action.name, rule, reason });
    return { action, isError: true, content: `Rejected (${rule}): ${reason}` };
  }

  /** Calls of a turn the run stopped in the middle of: each is answered, so the log shows none was lost or run. */
  function refuseRest(actions: readonly ModelAction[], why: string): void {
    for (const action of actions) {
      events.emit({ type: 'tool_proposed', step, callId: action.id, tool: action.name, arguments: action.arguments });
      reject(action, 'run-stopped', `not run: the run stopped earlier in this turn because ${why}`);
    }
  }

  async function dispatch(action: ModelAction): Promise<{ result: ActionResult; findings: LoopFinding[] }> {
    if (action.argumentsError !== undefined) return { result: reject(action, 'invalid-arguments', action.argumentsError), findings: [] };
    const contract = contractOf.get(action.name);
    if (!contract) return { result: reject(action, 'unknown-tool', `there is no tool named "${action.name}"; the tools are ${chatTools.map((tool) => tool.name).join(', ')}`), findings: [] };
    const input = contract.input.safeParse(action.arguments ?? {});
    if (!input.success) return { result: reject(action, 'invalid-arguments', argumentProblem(action.name, input.error.issues)), findings: [] };

    const refused = enabledFinding(guards.check(action.name, input.data));
    if (refused) {
      events.emit({ type: 'loop_detected', step, kind: refused.kind, message: refused.message });
      return { result: reject(action, refused.kind, refused.message), findings: [refused] };
    }

    const approval = await decideApproval(contract, input.data, policy, options.approver);
    if (approval.rule === 'ask') events.emit({ type: 'approval_requested', step, callId: action.id, tool: action.name, arguments: input.data });
    if (approval.rule === 'ask' || !approval.approved) events.emit({ type: 'approval_decided', step, callId: action.id, tool: action.name, approved: approval.approved, by: approval.by });
    if (!approval.approved) {
      const why = approval.by === 'non_interactive' ? 'needs approval and nobody can give it in a non-interactive run (allow it in the policy file)' : approval.by === 'user' ? 'was declined by the user' : 'is denied by the approval policy';
      return { result: reject(action, 'approval', `${action.name} ${why}`), findings: [] };
    }

    const tracked = options.operations !== undefined && on('operationIds') && contract.effect !== 'read' && !contract.repeatSafe;
    if (tracked) {
      const earlier = options.operations!.doneBefore(action.name, input.data);
      if (earlier) {
        return { result: reject(action, 'already-done', `this exact call already succeeded in this run before it was interrupted (operation ${earlier.opId}), so it is not run again. Its result was:\n${earlier.content}`), findings: [] };
      }
      const cut = reconcileBeforeResending(action.name, input.data);
      if (cut) return { result: reject(action, cut.rule, cut.reason), findings: [] };
    }
    const opId = tracked ? options.operations!.begin({ callId: action.id, tool: action.name, arguments: input.data, step }) : undefined;
    context.operationId = opId;
    const callStarted = performance.now();
    if (contract.effect !== 'read') acted++;
    const output = await runContract(contract, input.data);
    const durationMs = Math.round(performance.now() - callStarted);
    context.operationId = undefined;
    // A call cut off by its timeout may have acted: it stays open, to be reconciled before it is sent again.
    if (opId !== undefined && !output.uncertain) options.operations!.finish(opId, output);
    const findings = guards.record(action.name, input.data, { ok: output.ok, effect: contract.effect, ...(output.ok ? {} : { error: failureKey(output) }) }).filter((finding) => enabledFinding(finding) !== undefined);
    for (const finding of findings) events.emit({ type: 'loop_detected', step, kind: finding.kind, message: finding.message });
    if (output.rule !== undefined) return { result: reject(action, output.rule, output.content), findings };
    events.emit({
      type: 'tool_result',
      step,
      callId: action.id,
      tool: action.name,
      effect: contract.effect,
      ok: output.ok,
      summary: output.content.split('\n')[0]!.slice(0, 200),
      durationMs,
      ...(output.data ? { data: output.data } : {}),
    });
    return { result: { action, isError: !output.ok, content: output.content }, findings };
  }

  /** Runs a tool under its timeout; only read-only or repeat-safe tools are tried again after a throw. */
  async function runContract(contract: AnyToolContract, input: unknown): Promise<ToolOutput> {
    const attempts = 1 + (contract.effect === 'read' || contract.repeatSafe ? contract.retries : 0);
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const callSignal = AbortSignal.any([signal, AbortSignal.timeout(contract.timeoutMs)]);
      try {
        return await withTimeout(contract.run(input, context, callSignal), callSignal, contract);
      } catch (error) {
        if (error instanceof PathRefused) return { ok: false, content: error.message, rule: error.rule };
        lastError = error;
        if (signal.aborted) break;
      }
    }
    const cutOff = lastError instanceof CutOff;
    return { ok: false, content: `${contract.name} failed: ${lastError instanceof Error ? lastError.message : String(lastError)}`, ...(cutOff && contract.effect !== 'read' ? { uncertain: true } : {}) };
  }
}

/** A call that was running when its timeout or the run's end cut it off. */
class CutOff extends Error {}

function withTimeout<T>(work: Promise<T>, signal: AbortSignal, contract: AnyToolContract): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new CutOff(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? `timed out after ${contract.timeoutMs} ms` : 'the run was stopped'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What the circuit breaker compares between failures: exit code and exact output for commands, the message otherwise. */
function failureKey(output: ToolOutput): string {
  const digest = output.data?.outputDigest;
  if (typeof digest === 'string') return `exit ${String(output.data?.exitCode)} output ${digest}`;
  return output.content.split('\n')[0] ?? output.content;
}

function rejectionText(missing: readonly string[], reused: boolean): string {
  const list = missing.map((line) => `- ${line}`).join('\n');
  if (!reused) return `Not complete: the harness checked the exit criteria and these fail:\n${list}`;
  return `Not complete, and not checked again: nothing changed since your last task_complete (no tool acted, the files are byte-identical), so these still fail as they did:\n${list}\nChange something first; run_check runs a check again if you think its result could differ.`;
}

/** The schema of a call that ends the run, or undefined for any other call; a run's own completion tool replaces task_complete. */
function terminalInputOf(name: string, completion: CompletionTool | undefined): z.ZodType | undefined {
  if (completion) {
    if (name === completion.name) return completion.input;
    if (name === 'task_complete') return undefined;
  }
  return isTerminalTool(name) ? TERMINAL_TOOL_INPUTS[name] : undefined;
}

/** A completion tool stands in for verified exit criteria only where nothing was changed, and must not shadow another tool. */
function assertCompletionFits(completion: CompletionTool, contracts: readonly AnyToolContract[]): void {
  const changing = contracts.filter((contract) => contract.effect !== 'read').map((contract) => contract.name);
  if (changing.length > 0) throw new Error(`a run with its own completion tool (${completion.name}) may only read, but its tools include ${changing.join(', ')}`);
  if (isTerminalTool(completion.name) || contracts.some((contract) => contract.name === completion.name)) throw new Error(`the completion tool's name ${completion.name} is taken`);
}

function abortReason(deadline: AbortSignal, wallClockMs: number): StateReason {
  return deadline.aborted ? { kind: 'wall_clock', detail: `the task ran past its ${wallClockMs} ms wall-clock limit` } : { kind: 'aborted', detail: 'the run was stopped' };
}
