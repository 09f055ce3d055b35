import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { readJsonInput } from '../text/read-json-input.js';

/** One execution stage a harness goes through, with the words that tell its code apart. */
export interface StageDefinition {
  id: string;
  name: string;
  description: string;
  /** Words (any case, split and stemmed when used) that mark code belonging to the stage. */
  hints: string[];
  /** Packages whose import marks a file as working in this stage (`openai`, `node:child_process`, `@opentelemetry/`). */
  packages?: string[];
}

/**
 * The built-in skeleton: the stages every coding-agent harness has in some form, in the order a
 * request passes through them. A user skeleton can replace or extend it.
 */
export const SEED_SKELETON: readonly StageDefinition[] = [
  {
    id: 'startup',
    name: 'Configuration and startup',
    description: 'Reads settings, environment and command-line arguments, and wires the harness together before the first turn',
    hints: ['config', 'configuration', 'settings', 'option', 'env', 'environment', 'flag', 'argv', 'args', 'cli', 'startup', 'init', 'initialize', 'bootstrap', 'main', 'load', 'default'],
    packages: ['dotenv', 'yargs', 'commander', 'js-yaml', '@iarna/toml', 'minimist', 'meow'],
  },
  {
    id: 'context-assembly',
    name: 'Context and prompt assembly',
    description: 'Builds what the model sees: system prompt, instructions, memory, history and attached context',
    hints: ['prompt', 'system', 'instruction', 'message', 'messages', 'context', 'memory', 'template', 'build', 'compose', 'include', 'attachment'],
  },
  {
    id: 'agent-loop',
    name: 'Turn loop and orchestration',
    description: 'Drives the conversation turn by turn: sends the request, hands tool calls on, and decides whether to continue or stop',
    hints: ['loop', 'turn', 'turns', 'step', 'run', 'agent', 'session', 'orchestrate', 'orchestrator', 'scheduler', 'continue', 'next', 'executor'],
  },
  {
    id: 'model-call',
    name: 'Model call and streaming',
    description: 'Sends requests to the model provider and consumes the streamed reply',
    hints: ['model', 'llm', 'provider', 'client', 'generate', 'completion', 'chat', 'stream', 'api', 'send', 'request'],
    packages: ['@google/genai', '@google/generative-ai', 'openai', '@anthropic-ai/sdk', 'ai', '@ai-sdk/', '@langchain/', 'langchain', 'ollama', 'groq-sdk', '@mistralai/mistralai'],
  },
  {
    id: 'response-parsing',
    name: 'Response parsing',
    description: 'Turns the model output into text, thoughts and tool calls, and decides what the turn produced',
    hints: ['parse', 'parser', 'response', 'output', 'content', 'part', 'parts', 'candidate', 'thought', 'finish', 'reason', 'extract', 'json'],
  },
  {
    id: 'tool-boundary',
    name: 'Tool boundary: validation, policy, approval',
    description: 'Checks tool calls before they run: argument validation, policy rules and user approval',
    hints: ['validate', 'validation', 'schema', 'policy', 'approval', 'approve', 'confirm', 'confirmation', 'permission', 'allow', 'deny', 'trust', 'safety', 'check', 'guard', 'guarded'],
    packages: ['ajv', 'ajv-formats', 'zod', 'picomatch'],
  },
  {
    id: 'tool-execution',
    name: 'Tool execution',
    description: 'Runs the tools: shell commands, file reads and edits, web access, sub-agents and external tool servers',
    hints: ['tool', 'tools', 'shell', 'command', 'exec', 'execute', 'spawn', 'file', 'edit', 'write', 'read', 'glob', 'grep', 'fetch', 'web', 'mcp', 'subagent', 'invocation', 'invoke', 'dispatch', 'registry', 'sandbox'],
    packages: ['node:child_process', 'execa', 'node-pty', '@lydell/node-pty', 'shell-quote', '@modelcontextprotocol/sdk', 'undici', 'node-fetch', 'html-to-text', 'puppeteer-core', 'playwright', 'diff', 'glob', 'fast-glob', 'fdir'],
  },
  {
    id: 'security',
    name: 'Secrets and sandboxing',
    description: 'Keeps sensitive values out of output, logs and history, and confines what tools can reach',
    hints: ['secret', 'secrets', 'redact', 'mask', 'sanitize', 'credential', 'sensitive', 'sandbox', 'isolate', 'container', 'escape'],
  },
  {
    id: 'results',
    name: 'Results capture and truncation',
    description: 'Captures tool output, truncates and formats it, and hands it back to the conversation',
    hints: ['result', 'results', 'output', 'stdout', 'stderr', 'capture', 'truncate', 'truncation', 'format', 'return'],
  },
  {
    id: 'recovery',
    name: 'Recovery: retries, fallbacks, error handling',
    description: 'Waits and retries on transient failures, falls back to other models, and classifies errors',
    hints: ['retry', 'retries', 'backoff', 'fallback', 'error', 'errors', 'fail', 'failure', 'quota', 'rate', 'limit', 'recover', 'timeout', 'exception', 'transient'],
  },
  {
    id: 'context-management',
    name: 'Context management: token counting and compaction',
    description: 'Counts tokens and shrinks the conversation when it grows too long: compression, summarization, truncation',
    hints: ['token', 'tokens', 'count', 'compress', 'compression', 'compact', 'compaction', 'summarize', 'window', 'budget', 'overflow', 'trim', 'prune'],
    packages: ['tiktoken', 'js-tiktoken', 'gpt-tokenizer', '@dqbd/tiktoken'],
  },
  {
    id: 'persistence',
    name: 'Persistence: sessions, checkpoints, history',
    description: 'Saves and restores sessions, conversation history, checkpoints and other state on disk',
    hints: ['session', 'sessions', 'save', 'persist', 'store', 'storage', 'checkpoint', 'resume', 'restore', 'record', 'recording', 'transcript', 'history', 'snapshot', 'disk'],
    packages: ['better-sqlite3', 'sqlite3', 'proper-lockfile', 'level'],
  },
  {
    id: 'observability',
    name: 'Observability: logging, telemetry, tracing',
    description: 'Logs, metrics, traces and usage telemetry about what the harness did',
    hints: ['log', 'logger', 'logging', 'debug', 'telemetry', 'metric', 'metrics', 'trace', 'tracing', 'span', 'event', 'events', 'usage'],
    packages: ['@opentelemetry/', 'winston', 'pino', 'debug', '@google-cloud/logging'],
  },
  {
    id: 'user-interface',
    name: 'User interface',
    description: 'Shows the conversation and tool activity to the user and takes their input',
    hints: ['ui', 'render', 'display', 'terminal', 'component', 'view', 'theme', 'color', 'keypress', 'input', 'dialog', 'screen'],
    packages: ['ink', 'react', 'chalk', 'ink-spinner', 'ink-gradient', '@inkjs/ui', 'cli-progress'],
  },
];

export const stageDefinitionSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lowercase words joined by hyphens'),
    name: z.string().min(1),
    description: z.string().default(''),
    hints: z.array(z.string().min(1)).min(1),
    packages: z.array(z.string().min(1)).optional(),
  })
  .strict();

const skeletonFileSchema = z
  .object({
    /** replace: use only these stages; extend (default): add them to the seed, replacing a seed stage of the same id. */
    mode: z.enum(['replace', 'extend']).default('extend'),
    stages: z.array(stageDefinitionSchema).min(1),
  })
  .strict();

/** Reads a user skeleton (`--skeleton stages.json`) and merges it with the seed; a malformed file is a clear error. */
export function loadSkeleton(file: string | undefined): StageDefinition[] {
  if (!file) return [...SEED_SKELETON];
  const skeleton = readJsonInput(file, skeletonFileSchema, 'the skeleton file', 'pass a JSON file: { "mode": "extend", "stages": [{ "id", "name", "description", "hints": [...] }] }');
  const ids = skeleton.stages.map((stage) => stage.id);
  const duplicate = ids.find((id, position) => ids.indexOf(id) !== position);
  if (duplicate) throw new HandbookError('INVALID_INPUT', `the skeleton file ${file} defines stage "${duplicate}" twice`, 'give every stage its own id');
  const own: StageDefinition[] = skeleton.stages.map((stage) => ({ ...stage, ...(stage.packages ? { packages: stage.packages } : {}) }));
  if (skeleton.mode === 'replace') return own;
  // Extend: a stage with a seed id takes that seed stage's place; new stages come after the seed.
  const byId = new Map(own.map((stage) => [stage.id, stage]));
  return [...SEED_SKELETON.map((seed) => byId.get(seed.id) ?? seed), ...own.filter((stage) => !SEED_SKELETON.some((seed) => seed.id === stage.id))];
}
