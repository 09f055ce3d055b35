export { buildHandbook, type BuildOptions, type BuildProgress } from './api/build-handbook.js';
export { openHandbook, type Handbook } from './api/open-handbook.js';
export type { BuildSummary } from './api/build-summary.js';
export type { AnalysisResult, AnalyzeOptions, AnalysisProgress } from './analyze/analyze-repository.js';
export { analyzeRepository } from './api/analyze.js';
export { ProgramGraph, type Neighbour, type StateAccess } from './graph/program-graph.js';
export * from './graph/model.js';
export { HandbookError, type ErrorCode } from './errors.js';
export { renderHandbook, type RenderOptions } from './api/render-handbook.js';
export type { OrganizedHandbook, Stage, StageMember, Overview, RegisterEntry, Stager } from './organize/model.js';
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
export { shortName } from './graph/unit-name.js';
export {
  watchHandbook,
  DEFAULT_DEBOUNCE_MS,
  type WatchOptions,
  type WatchHandle,
  type WatchEvent,
  type WatchReadyEvent,
  type WatchSyncEvent,
  type WatchErrorEvent,
  type WatchClosedEvent,
} from './watch/watch-handbook.js';
export { runTask, resumeTask, type RunTaskOptions, type ResumeTaskOptions, type RunTaskResult } from './api/run-task.js';
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
export { planRequest, type PlanOptions, type PlanResult } from './api/plan-request.js';
export { applyPlan, type ApplyOptions, type ApplyResult } from './api/apply-plan.js';
export { editPlanSchema, type EditPlan, type PlanTarget, type PlanContext, type PlanCheck, type PlanRisk } from './plan/edit-plan.js';
export { loadPlan } from './plan/plan-store.js';
export { planWithModel, type ModelPlanOptions, type ModelPlanResult } from './api/plan-request.js';
export { planSubmissionSchema, SUBMIT_PLAN, type PlanSubmission } from './plan/llm-planner.js';
export { createHandbookServer, serveHandbook, type HandbookServerOptions, type ServeOptions } from './mcp/handbook-server.js';
export { startViewerServer, DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT, type ViewerServer, type ViewerServerOptions } from './serve/viewer-server.js';
export { writeStaticSite, type StaticSite, type StaticSiteOptions } from './serve/static-site.js';
export { unitFileName, unitIdOfFileName } from './serve/unit-file-name.js';
