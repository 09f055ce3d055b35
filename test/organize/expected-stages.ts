/**
 * Where a maintainer of the fixture harness would look for each unit, written by hand from
 * reading the code. Several stages are listed where a maintainer would accept either.
 */
const S = {
  startup: 'startup',
  loop: 'agent-loop',
  context: 'context-assembly',
  model: 'model-call',
  parsing: 'response-parsing',
  boundary: 'tool-boundary',
  execution: 'tool-execution',
  security: 'security',
  results: 'results',
  recovery: 'recovery',
  compaction: 'context-management',
  persistence: 'persistence',
  observability: 'observability',
} as const;

type StageId = (typeof S)[keyof typeof S];

const file = (path: string, units: Record<string, StageId | StageId[]>): Array<[string, StageId[]]> =>
  Object.entries(units).map(([symbol, stages]) => [`${path}#${symbol}`, Array.isArray(stages) ? stages : [stages]]);

export const EXPECTED_STAGES: Array<[string, StageId[]]> = [
  ...file('src/index.ts', { CliArgs: S.startup, parseArgs: S.startup, main: S.startup }),
  ...file('src/agent/agentLoop.ts', {
    TurnOutcome: S.loop, CompactionReason: [S.compaction, S.loop], activeRunId: S.loop, currentRunId: S.loop, AgentLoop: S.loop,
    'AgentLoop.constructor': S.loop, 'AgentLoop.onAbort': [S.loop, S.recovery], 'AgentLoop.run': S.loop, 'AgentLoop.step': S.loop,
    'AgentLoop.handleToolCalls': [S.loop, S.execution], 'AgentLoop.isApproved': [S.boundary, S.loop],
  }),
  ...file('src/agent/promptBuilder.ts', { BASE_PROMPT: S.context, APPROVAL_NOTES: [S.context, S.boundary], buildSystemPrompt: S.context, buildMessages: S.context }),
  ...file('src/config/loadConfig.ts', {
    ApprovalMode: [S.startup, S.boundary], LogLevel: [S.startup, S.observability], HarnessConfig: S.startup, DEFAULT_CONFIG: S.startup,
    APPROVAL_MODES: [S.startup, S.boundary], LOG_LEVELS: [S.startup, S.observability], loadConfig: S.startup, readJsonFile: S.startup,
    readEnv: S.startup, validateConfig: S.startup,
  }),
  ...file('src/context/compaction.ts', { COMPACT_AT_RATIO: S.compaction, KEEP_RECENT_MESSAGES: S.compaction, SUMMARY_PROMPT: S.compaction, shouldCompact: S.compaction, compactHistory: S.compaction }),
  ...file('src/context/tokens.ts', { CHARS_PER_TOKEN: S.compaction, MESSAGE_OVERHEAD_TOKENS: S.compaction, estimateTokens: S.compaction, countHistoryTokens: S.compaction }),
  ...file('src/hooks.ts', {
    MAX_REQUEST_MESSAGES: [S.model, S.context], defaultHooks: [S.loop, S.execution, S.observability, S.model],
    'defaultHooks.onToolResult': [S.execution, S.results, S.observability], 'defaultHooks.onError': [S.recovery, S.loop, S.observability],
    'defaultHooks.beforeModelCall': [S.model, S.context], Hooks: [S.loop, S.execution, S.observability, S.model],
  }),
  ...file('src/observability/logger.ts', {
    LEVEL_ORDER: S.observability, Logger: S.observability, 'Logger.constructor': S.observability, 'Logger.child': S.observability,
    'Logger.info': S.observability, 'Logger.warn': S.observability, 'Logger.error': [S.observability, S.recovery], 'Logger.write': S.observability,
    describeError: [S.observability, S.recovery],
  }),
  ...file('src/observability/telemetry.ts', { Span: S.observability, MAX_BUFFERED_SPANS: S.observability, spans: S.observability, recordToolCall: S.observability, pendingSpanCount: S.observability, flushTelemetry: S.observability }),
  ...file('src/providers/provider.ts', {
    Role: [S.model, S.context], ToolCall: [S.model, S.execution, S.parsing], Message: [S.model, S.context], ToolSpec: [S.model, S.execution],
    ModelRequest: S.model, StopReason: [S.parsing, S.model], ModelResponse: [S.model, S.parsing], ModelProvider: S.model,
  }),
  ...file('src/providers/baseHttpProvider.ts', {
    HttpError: [S.model, S.recovery], 'HttpError.constructor': [S.model, S.recovery], DEFAULT_TIMEOUT_MS: S.model, BaseHttpProvider: S.model,
    'BaseHttpProvider.constructor': S.model, 'BaseHttpProvider.headers': S.model, 'BaseHttpProvider.post': S.model,
  }),
  ...file('src/providers/anthropicProvider.ts', {
    TextBlock: [S.model, S.parsing], ToolUseBlock: [S.model, S.parsing], ToolResultBlock: [S.model, S.parsing, S.results], ContentBlock: [S.model, S.parsing],
    WireMessage: S.model, MessagesRequest: S.model, MessagesResponse: [S.model, S.parsing], AnthropicProvider: S.model,
    'AnthropicProvider.constructor': S.model, 'AnthropicProvider.complete': S.model, 'AnthropicProvider.headers': S.model,
    'AnthropicProvider.toWireFormat': S.model, toWireMessage: S.model,
  }),
  ...file('src/providers/openaiProvider.ts', {
    ChatToolCall: [S.model, S.parsing], ChatMessage: S.model, ChatCompletionRequest: S.model, ChatCompletionResponse: [S.model, S.parsing],
    OpenAIProvider: S.model, 'OpenAIProvider.constructor': S.model, 'OpenAIProvider.complete': S.model, 'OpenAIProvider.toWireFormat': S.model,
    toStopReason: [S.parsing, S.model],
  }),
  ...file('src/providers/retry.ts', { RETRY_DEFAULTS: S.recovery, RetryOptions: S.recovery, isRetryableStatus: S.recovery, computeBackoff: S.recovery, withRetry: S.recovery, isRetryable: S.recovery, sleep: S.recovery }),
  ...file('src/providers/createProvider.ts', { ProviderKind: [S.model, S.startup], OPENAI_MODEL_PREFIXES: [S.model, S.startup], providerKindFor: [S.model, S.startup], requireEnv: [S.startup, S.model], createProvider: [S.model, S.startup] }),
  ...file('src/security/secrets.ts', { SECRET_PATTERNS: S.security, ASSIGNMENT_PATTERN: S.security, REDACTED: S.security, redactValue: S.security, maskSecrets: S.security }),
  ...file('src/session/sessionStore.ts', {
    SessionFile: S.persistence, SESSION_ID_PATTERN: S.persistence, SessionStore: S.persistence, 'SessionStore.constructor': S.persistence,
    'SessionStore.count': S.persistence, 'SessionStore.id': S.persistence, 'SessionStore.id~2': S.persistence, 'SessionStore.appendMessage': S.persistence,
    'SessionStore.save': S.persistence, 'SessionStore.load': S.persistence, 'SessionStore.fileFor': S.persistence,
  }),
  ...file('src/tools/approval.ts', {
    GUARDED_TOOLS: S.boundary, requiresApproval: S.boundary, askUserApproval: S.boundary, ApprovalGate: S.boundary,
    'ApprovalGate.check': S.boundary, 'ApprovalGate.remember': S.boundary, 'ApprovalGate.reset': S.boundary,
  }),
  ...file('src/tools/files.ts', {
    readFileSchema: [S.execution, S.boundary], editFileSchema: [S.execution, S.boundary], writeFileSchema: [S.execution, S.boundary],
    resolveInWorkspace: [S.execution, S.boundary], readFileTool: S.execution, editFileTool: S.execution, writeFileTool: S.execution,
  }),
  ...file('src/tools/registry.ts', {
    ToolHandler: S.execution, ToolResult: [S.execution, S.results], EMPTY_SCHEMA: [S.boundary, S.execution], ToolRegistry: S.execution,
    'ToolRegistry.register': S.execution, 'ToolRegistry.has': S.execution, 'ToolRegistry.list': S.execution, 'ToolRegistry.dispatch': S.execution,
    'ToolRegistry.dispatch.finish': [S.execution, S.results], registerBuiltinTools: S.execution,
  }),
  ...file('src/tools/shell.ts', { shellSchema: [S.execution, S.boundary], MAX_OUTPUT_CHARS: [S.execution, S.results], DEFAULT_TIMEOUT_MS: S.execution, CapturedProcess: [S.execution, S.results], runShellTool: S.execution, capture: [S.execution, S.results] }),
  ...file('src/tools/truncate.ts', { DEFAULT_MAX_CHARS: S.results, HEAD_RATIO: S.results, truncateOutput: S.results }),
  ...file('src/tools/validate.ts', { PrimitiveType: S.boundary, ToolSchema: S.boundary, validateToolArgs: S.boundary, 'validateToolArgs.typeOf': S.boundary }),
  ...file('src/tools/webFetch.ts', { webFetchSchema: [S.execution, S.boundary], DEFAULT_MAX_CHARS: [S.execution, S.results], FETCH_TIMEOUT_MS: S.execution, webFetchTool: S.execution, stripTags: [S.execution, S.results] }),
];
