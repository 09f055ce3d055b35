export { buildHandbook, type BuildOptions, type BuildProgress } from './api/build-handbook.js';
export { openHandbook, type Handbook } from './api/open-handbook.js';
export type { BuildSummary } from './api/build-summary.js';
export type { AnalysisResult, AnalyzeOptions, AnalysisProgress } from './analyze/analyze-repository.js';
export { analyzeRepository } from './api/analyze.js';
export { ProgramGraph, type Neighbour, type StateAccess } from './graph/program-graph.js';
export * from './graph/model.js';
export { HandbookError, type ErrorCode } from './errors.js';
export { renderHandbook, type RenderOptions } from './api/render-handbook.js';
export type { Behavior, OrganizedHandbook, Stage, StageMember, Overview, RegisterEntry, Stager } from './organize/model.js';
export { behaviorById, stageById } from './organize/model.js';
export { SEED_SKELETON, type StageDefinition } from './organize/skeleton.js';
export { parseModelSpec, formatModelSpec, type ModelSpec, type OnlineModelSpec, type OnlineModelSpecText } from './llm/model-spec.js';
export { createProvider } from './api/create-provider.js';
export type { CreateProviderOptions } from './llm/create-provider.js';
export { withRetries, retryDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from './llm/retrying-provider.js';
export { ProviderError, PROVIDER_ERROR_KINDS, type ProviderErrorKind } from './llm/provider-error.js';
export type {
  ChatProvider,
  ChatRequest,
  ChatResponse,
  ChatMessage,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatResponseFormat,
  ChatStopReason,
  TokenUsage,
  CompleteOptions,
  RetryEvent,
} from './llm/chat-types.js';
export { askHandbook, type AskOptions, type AskResult, type AskLocation, MAX_REQUEST_CHARACTERS } from './api/ask-handbook.js';
export { handbookStatus, type StatusReport } from './api/handbook-status.js';
export { syncHandbook, LiveHandbook, type SyncOptions, type SyncSummary } from './api/live-handbook.js';
export type { SkippedFile } from './analyze/discover-files.js';
export { shortName } from './graph/unit-name.js';
export { linesPhrase } from './text/line-list.js';
export { liveResolverOf } from './api/live-resolution.js';
export { inPlace, liveFieldsOf, livePlaceJson, livePlacesById, livePlacesOf, liveSpotOf, liveLinesOf, type LiveFields, type LivePlace, type UnitResolver } from './locate/live-place.js';
export { liveDeclarationOf, type LiveDeclaration } from './locate/live-declaration.js';
export { declarationNote, nameNote, placeNote } from './locate/live-place-notes.js';
export type { ResolvedLocation } from './locate/live-resolver.js';
export { quoted } from './text/quoted.js';
export {
  watchHandbook,
  DEFAULT_DEBOUNCE_MS,
  MAX_DEBOUNCE_MS,
  type WatchOptions,
  type WatchHandle,
  type WatchEvent,
  type WatchReadyEvent,
  type WatchSyncEvent,
  type WatchErrorEvent,
  type WatchClosedEvent,
} from './watch/watch-handbook.js';
export type { RunTaskOptions, ResumeTaskOptions, RunTaskResult } from './api/run-task.js';
export { acceptanceStatuses, type AcceptanceRecord, type AcceptanceStatus } from './harness/acceptance.js';
export type { HarnessRunResult } from './harness/harness-loop.js';
export { harnessEventSchema, type HarnessEvent, type HarnessEventType } from './harness/events.js';
export { readEventLog } from './harness/event-log.js';
export { taskSpecSchema, type TaskSpec, type TaskSpecInput, type ExitCriteria, type TaskLimits } from './harness/task.js';
export { TASK_STATES, type TaskState, type TerminalState, type StateReason } from './harness/task-state.js';
export { approvalPolicySchema, type ApprovalPolicy, type Approver, type ApprovalRequest } from './harness/approval-policy.js';
export type { CriterionStatus } from './harness/exit-criteria.js';
export { TOOL_MODES, type ToolMode } from './llm/tool-modes.js';
export { ScriptedProvider, modelScriptSchema, type ModelScript } from './llm/scripted-provider.js';
export { Journal, type JournalOptions, type JournalChange, type RollbackReport, type RestoredEntry, type RefusedEntry } from './harness/journal.js';
export { journalEntrySchema, fileStateSchema, JOURNAL_KINDS, type JournalEntry, type FileState, type JournalKind } from './harness/journal-entry.js';
export { JOURNAL_PROBLEMS, type VerifyReport, type JournalProblem } from './harness/journal-verify.js';
export { JOURNAL_KEY_ENV } from './harness/journal-key.js';
export { workspaceJournalFiles, type JournalFiles } from './harness/journal-files.js';
export { verifyJournal, rollbackJournal, type RollbackOptions } from './api/journal.js';
export type { PlanOptions, PlanResult } from './api/plan-request.js';
export type { ApplyOptions, ApplyResult } from './api/apply-plan.js';
export { editPlanSchema, type EditPlan, type PlanTarget, type PlanContext, type PlanCheck, type PlanRisk } from './plan/edit-plan.js';
export { loadPlan } from './plan/plan-store.js';
export type { ModelPlanOptions, ModelPlanResult } from './api/plan-request.js';
export { planSubmissionSchema, SUBMIT_PLAN, type PlanSubmission } from './plan/llm-planner.js';
export type { HandbookServerOptions, ServeOptions } from './mcp/handbook-server.js';
export type { ViewerServer, ViewerServerOptions } from './serve/viewer-server.js';
export { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from './serve/viewer-defaults.js';
export type { StaticSite, StaticSiteOptions } from './serve/static-site.js';
export { unitFileName, unitIdOfFileName } from './serve/unit-file-name.js';

// The harness loop, planners, MCP server and viewer bring the compiler, a tokenizer and the MCP
// SDK with them (about half a second of loading): they load on first call, so `build`, `ask`
// and a library import that needs neither do not pay for them.
type RunTaskModule = typeof import('./api/run-task.js');
type PlanModule = typeof import('./api/plan-request.js');
type McpModule = typeof import('./mcp/handbook-server.js');

export const runTask: RunTaskModule['runTask'] = async (...args) => (await import('./api/run-task.js')).runTask(...args);
export const resumeTask: RunTaskModule['resumeTask'] = async (...args) => (await import('./api/run-task.js')).resumeTask(...args);
export const planRequest: PlanModule['planRequest'] = async (...args) => (await import('./api/plan-request.js')).planRequest(...args);
export const planWithModel: PlanModule['planWithModel'] = async (...args) => (await import('./api/plan-request.js')).planWithModel(...args);
export const applyPlan: typeof import('./api/apply-plan.js').applyPlan = async (...args) => (await import('./api/apply-plan.js')).applyPlan(...args);
export const serveHandbook: McpModule['serveHandbook'] = async (...args) => (await import('./mcp/handbook-server.js')).serveHandbook(...args);
/** The MCP server of a handbook, not yet connected to a transport. */
export async function createHandbookServer(...args: Parameters<McpModule['createHandbookServer']>): Promise<ReturnType<McpModule['createHandbookServer']>> {
  return (await import('./mcp/handbook-server.js')).createHandbookServer(...args);
}
export const startViewerServer: typeof import('./serve/viewer-server.js').startViewerServer = async (...args) => (await import('./serve/viewer-server.js')).startViewerServer(...args);
export const writeStaticSite: typeof import('./serve/static-site.js').writeStaticSite = async (...args) => (await import('./serve/static-site.js')).writeStaticSite(...args);
/** Refuses a folder `writeStaticSite` would refuse, before anything else is written (the absolute folder). */
export const assertStaticSiteFolder = async (...args: Parameters<typeof import('./serve/static-site.js').assertStaticSiteFolder>): Promise<string> => (await import('./serve/static-site.js')).assertStaticSiteFolder(...args);
