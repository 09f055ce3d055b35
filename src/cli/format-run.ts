import type { EditPlan, HarnessEvent, RunTaskResult } from '../index.js';

function clip(text: string, length = 100): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

function argumentsOf(value: unknown): string {
  return clip(JSON.stringify(value ?? {}), 80);
}

/** One line per event, for stderr while a run goes on. */
export function formatRunEvent(event: HarnessEvent): string {
  const at = 'step' in event ? `[${String(event.step).padStart(2)}] ` : '     ';
  switch (event.type) {
    case 'run_started':
      return `${at}run ${event.runId}: ${event.model} (${event.toolMode}) in ${event.repo}${event.byResume ? ', started from the beginning: it was stopped before its first event, so it had done nothing' : ''}`;
    case 'run_resumed':
      return `${at}run ${event.runId} resumed after step ${event.stepsTaken}: ${event.model}`;
    case 'operation_reconciled':
      return `${at}cut-off ${event.tool} (operation ${event.opId.slice(0, 8)}): ${event.outcome.replace('_', ' ')}, ${clip(event.detail, 80)}`;
    case 'task_state':
      return `${at}task ${event.from} → ${event.to}: ${clip(event.reason.detail)}`;
    case 'turn_started':
      return `${at}turn ${event.step} (${event.model})`;
    case 'model_request':
      return `${at}asking the model: ${event.messages} messages, ${event.tools} tools, about ${event.estimatedTokens} tokens`;
    case 'compacted':
      return `${at}compacted steps ${event.fromStep}-${event.toStep}: ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.promoted} facts kept in memory`;
    case 'budget_exceeded':
      return `${at}over the ${event.budget} token budget: ${event.tokens} > ${event.limit}`;
    case 'model_retry':
      return `${at}model call failed (attempt ${event.attempt}): ${clip(event.error, 80)}; retrying in ${event.delayMs} ms`;
    case 'model_response':
      return `${at}model: ${event.toolCalls.length > 0 ? event.toolCalls.map((call) => call.name).join(', ') : event.stopReason}${event.text.trim() ? ` — ${clip(event.text, 70)}` : ''}`;
    case 'tool_proposed':
      return `${at}→ ${event.tool} ${argumentsOf(event.arguments)}`;
    case 'tool_rejected':
      return `${at}✗ ${event.tool} rejected (${event.rule}): ${clip(event.reason)}`;
    case 'approval_requested':
      return `${at}? ${event.tool} needs approval: ${argumentsOf(event.arguments)}`;
    case 'approval_decided':
      return `${at}${event.approved ? 'approved' : 'denied'} ${event.tool} (${event.by.replace('_', '-')})`;
    case 'tool_result':
      return `${at}${event.ok ? '✓' : '✗'} ${event.tool}: ${clip(event.summary)} (${event.durationMs} ms)`;
    case 'check_result':
      return `${at}check ${event.name}: ${event.timedOut ? 'timed out' : `exit ${event.exitCode}`} in ${event.durationMs} ms`;
    case 'progress':
      return `${at}progress: ${event.satisfied.length} criteria met, ${event.missing.length} to go`;
    case 'accepted':
      return `${at}accepted: ${event.files} files at snapshot ${event.snapshotDigest.slice(0, 12)}, record ${event.file}`;
    case 'complete_rejected':
      return `${at}completion rejected${event.reused ? ' (nothing changed, checks not run again)' : ''}: ${clip(event.missing.join('; '))}`;
    case 'action_missing':
      return `${at}no action (${event.kind.replace('_', ' ')}): ${clip(event.detail)}`;
    case 'nudge':
      return `${at}nudge: ${clip(event.message)}`;
    case 'loop_detected':
      return `${at}loop (${event.kind}): ${clip(event.message)}`;
    case 'escalated':
      return `${at}escalated: ${event.level.replace('_', ' ')}`;
    case 'run_finished':
      return `     run finished: ${event.state} after ${event.steps} steps in ${(event.durationMs / 1000).toFixed(1)} s`;
  }
}

/** `repo` is the repository as the user named it, for the resume command a stopped run is shown. */
export function formatRunResult(result: RunTaskResult, repo?: string): string {
  const lines = [
    `${result.state}: ${result.reason.detail}`,
    `  run        ${result.runId} with ${result.model}: ${result.steps} steps, ${(result.durationMs / 1000).toFixed(1)} s, ${result.usage.inputTokens} tokens in, ${result.usage.outputTokens} out`,
    `  changed    ${result.changedFiles.length === 0 ? 'no files' : result.changedFiles.join(', ')}`,
    ...result.criteria.map((criterion) => `  ${criterion.satisfied ? '✓' : '✗'} ${clip(criterion.detail, 120)}`),
    ...(result.modelWords ? [`  model said ${clip(result.modelWords, 200)}`] : []),
    ...(result.acceptance ? [`  accepted   snapshot ${result.acceptance.snapshotDigest.slice(0, 12)}, record ${result.acceptance.file}`] : []),
    `  events     ${result.eventLog}`,
    ...(result.reason.kind === 'aborted' ? [`  resume     handbook resume ${result.runId}${repo === undefined || repo === '.' ? '' : ` --repo ${quoteArgument(repo)}`}`] : []),
  ];
  return lines.join('\n');
}

export function formatPlan(plan: EditPlan, markdown: string): string {
  const files = new Set(plan.targets.map((target) => target.file)).size;
  const lines = [
    `plan ${plan.id}: ${plan.status.toUpperCase()}`,
    `  request    ${plan.request}`,
    `  planner    ${plan.planner.kind === 'offline' ? 'offline (deterministic, no model)' : `llm (${plan.planner.model})`}, on handbook generation ${plan.generation}`,
    `  targets    ${plan.targets.length} in ${files} file(s)`,
    ...plan.targets.map((target) => `    ${target.file}:${target.line} ${target.symbol} (${target.action})`),
    `  context    ${plan.context.length} site(s) to read`,
    `  checks     ${[...plan.checks.map((check) => (check.cwd === undefined ? check.command : `${check.command} (in ${check.cwd})`)), ...(plan.typecheck ? ['typecheck'] : [])].join('; ') || 'none'}`,
    `  risks      ${plan.risks.length === 0 ? 'no shared state coupled' : plan.risks.map((risk) => risk.slot ?? risk.stages.join('+')).join(', ')}`,
    ...plan.failures.map((failure) => `  ✗ ${failure}`),
    `  written    ${markdown}`,
  ];
  return lines.join('\n');
}

/** A command-line argument as one shell word, quoted only when it needs to be. */
function quoteArgument(text: string): string {
  return /^[\w./@+:,=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
