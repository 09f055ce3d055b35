import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';
import type { ChatMessage, ChatRequest, ChatResponse, ChatTool } from './chat-types.js';
import { parseTextActions, textActionInstructions } from './json-text-actions.js';

/**
 * How a model expresses actions. `native` uses the provider's tool calling; `json_text` asks
 * for JSON blocks in plain text, which any model can write; `json_constrained` has the server
 * force the answer into a JSON schema. Each is read back into the same list of actions, so
 * the loop above never knows which one ran.
 */
export const TOOL_MODES = ['native', 'json_text', 'json_constrained'] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

export interface ModelAction {
  /** The provider's call id in native mode; made up by the harness in the JSON modes. */
  id: string;
  name: string;
  arguments: unknown;
  /** Why the arguments could not be read; the call is refused with it and the model may try again. */
  argumentsError?: string;
}

export type ActionReading =
  | { kind: 'actions'; actions: ModelAction[] }
  | { kind: 'none' }
  /** The model tried to act, but what it wrote cannot be read: the problem goes back to it. */
  | { kind: 'malformed'; problem: string };

export interface ActionRequestParts {
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
  signal?: AbortSignal;
}

/** The request for one turn in this mode: the tools as native definitions, as instructions, or as a response schema. */
export function actionRequest(mode: ToolMode, parts: ActionRequestParts, tools: readonly ChatTool[]): ChatRequest {
  const base = { messages: parts.messages, maxTokens: parts.maxTokens, ...(parts.temperature === undefined ? {} : { temperature: parts.temperature }), ...(parts.signal ? { signal: parts.signal } : {}) };
  switch (mode) {
    case 'native':
      return { ...base, system: parts.system, tools: [...tools], toolChoice: 'auto' };
    case 'json_text':
      return { ...base, system: `${parts.system}\n\n${textActionInstructions(tools)}` };
    case 'json_constrained':
      return {
        ...base,
        system: `${parts.system}\n\n${constrainedInstructions(tools)}`,
        responseFormat: { type: 'json_schema', name: 'actions', schema: constrainedSchema(tools) },
      };
  }
}

/** The actions in a response, whatever the mode. */
export function readActions(mode: ToolMode, response: ChatResponse, step: number): ActionReading {
  switch (mode) {
    case 'native':
      return response.toolCalls.length === 0 ? { kind: 'none' } : { kind: 'actions', actions: response.toolCalls.map((call) => ({ ...call })) };
    case 'json_text': {
      const parsed = parseTextActions(response.text);
      if (parsed.kind === 'malformed') return { kind: 'malformed', problem: parsed.problem };
      if (parsed.kind === 'none') return { kind: 'none' };
      return { kind: 'actions', actions: parsed.actions.map((action, index) => ({ id: harnessCallId(step, index), ...action })) };
    }
    case 'json_constrained':
      return readConstrained(response.text, step);
  }
}

/** The assistant turn as it goes back into the conversation. */
export function assistantMessage(mode: ToolMode, response: ChatResponse, reading: ActionReading): ChatMessage {
  if (mode === 'native' && reading.kind === 'actions') {
    // Unreadable arguments go back as an empty object: Anthropic accepts only objects as tool input, and the tool result says what was wrong.
    return { role: 'assistant', content: response.text, toolCalls: reading.actions.map((action) => ({ id: action.id, name: action.name, arguments: action.argumentsError === undefined ? action.arguments : {} })) };
  }
  return { role: 'assistant', content: response.text };
}

export interface ActionResult {
  action: ModelAction;
  content: string;
  isError: boolean;
}

/**
 * Tool results, and any words from the harness, as the next messages. Native results answer
 * their call ids; in the JSON modes the model sees them as one user message.
 */
export function resultMessages(mode: ToolMode, results: readonly ActionResult[], harnessNote?: string): ChatMessage[] {
  const note: ChatMessage[] = harnessNote === undefined ? [] : [{ role: 'user', content: harnessNote }];
  if (mode === 'native') {
    return [...results.map((result): ChatMessage => ({ role: 'tool', toolCallId: result.action.id, content: result.content, ...(result.isError ? { isError: true } : {}) })), ...note];
  }
  if (results.length === 0) return note;
  const text = results.map((result) => `Result of ${result.action.name} (${result.action.id})${result.isError ? ' [error]' : ''}:\n${result.content}`).join('\n\n');
  return [{ role: 'user', content: harnessNote === undefined ? text : `${text}\n\n${harnessNote}` }];
}

function harnessCallId(step: number, index: number): string {
  return `call_${step}_${index + 1}`;
}

/**
 * Strict schemas (OpenAI's `strict: true`) allow no free-form objects, so each action's
 * arguments travel as a JSON string and are parsed here.
 */
function constrainedSchema(tools: readonly ChatTool[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      actions: {
        type: 'array',
        items: {
          type: 'object',
          properties: { tool: { type: 'string', enum: tools.map((tool) => tool.name) }, arguments: { type: 'string', description: 'the tool arguments as a JSON object, written as a string' } },
          required: ['tool', 'arguments'],
          additionalProperties: false,
        },
      },
    },
    required: ['actions'],
    additionalProperties: false,
  };
}

function constrainedInstructions(tools: readonly ChatTool[]): string {
  const list = tools.map((tool) => `- ${tool.name}: ${tool.description}\n  arguments: ${JSON.stringify(tool.inputSchema)}`).join('\n');
  return [
    'Answer only with a JSON object {"actions": [{"tool": NAME, "arguments": "<the arguments as a JSON object, in a string>"}]}.',
    'Give one or more actions every turn. End the task with the tool in the list that declares it done, or with task_blocked or need_input.',
    'Tools:',
    list,
  ].join('\n');
}

const constrainedAnswer = z.object({ actions: z.array(z.object({ tool: z.string().min(1), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) })) });

function readConstrained(text: string, step: number): ActionReading {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'none' };
  const parsed = parseLenient(trimmed);
  if (parsed === undefined) return { kind: 'malformed', problem: 'the answer is not JSON: answer with {"actions": [{"tool": ..., "arguments": "..."}]}' };
  const answer = constrainedAnswer.safeParse(parsed);
  if (!answer.success) return { kind: 'malformed', problem: `the answer does not have the actions shape: ${answer.error.issues[0]?.message ?? 'invalid'} at ${answer.error.issues[0]?.path.join('.') ?? ''}` };
  if (answer.data.actions.length === 0) return { kind: 'none' };
  const actions: ModelAction[] = [];
  for (const [index, action] of answer.data.actions.entries()) {
    const args = typeof action.arguments === 'string' ? parseLenient(action.arguments.trim() === '' ? '{}' : action.arguments) : action.arguments;
    if (args === undefined) return { kind: 'malformed', problem: `the arguments of ${action.tool} are not a JSON object` };
    actions.push({ id: harnessCallId(step, index), name: action.tool, arguments: args });
  }
  return { kind: 'actions', actions };
}

function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(jsonrepair(text));
    } catch {
      return undefined;
    }
  }
}
