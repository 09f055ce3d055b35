import { z } from 'zod';
import type { ChatTool } from '../llm/chat-types.js';
import type { ToolContext } from './tool-context.js';
import { TERMINAL_TOOLS, type ToolContract } from './tool-contract.js';
import type { CompletionTool } from './tools/completion-tool.js';
import { runCheckTool, runCommandTool } from './tools/exec-tools.js';
import { HANDBOOK_TOOLS } from './tools/handbook-tools.js';
import { listFilesTool, readFileTool, searchTool } from './tools/read-tools.js';
import { TERMINAL_TOOL_DESCRIPTIONS, TERMINAL_TOOL_INPUTS } from './tools/terminal-tools.js';
import { createFileTool, deleteFileTool, editFileTool } from './tools/write-tools.js';

// Contracts differ in their input types; the loop checks input with each one's own schema before run().
export type AnyToolContract = ToolContract<any, ToolContext>;

/** `executor` edits under the task's scope; `planner` only reads, and navigates the handbook when the run has one. */
export const TOOL_SET_NAMES = ['executor', 'planner'] as const;
export type ToolSetName = (typeof TOOL_SET_NAMES)[number];

const READ_TOOLS: AnyToolContract[] = [readFileTool, listFilesTool, searchTool];
const NAVIGATION_TOOLS: AnyToolContract[] = [...HANDBOOK_TOOLS, ...READ_TOOLS];
const EXECUTOR_TOOLS: AnyToolContract[] = [...READ_TOOLS, editFileTool, createFileTool, deleteFileTool, runCheckTool, runCommandTool];

/** Every tool a policy may name: a name that is none of them is a typo, and its rule would silently not apply. */
export const POLICY_TOOL_NAMES: readonly string[] = [...new Set([...EXECUTOR_TOOLS, ...NAVIGATION_TOOLS].map((tool) => tool.name))];

export function toolsOf(set: ToolSetName, withHandbook = false): AnyToolContract[] {
  if (set === 'executor') return EXECUTOR_TOOLS;
  return withHandbook ? NAVIGATION_TOOLS : READ_TOOLS;
}

/**
 * The tools as the model is told about them: every contract plus the terminal signals, each
 * with its JSON schema; a run's own completion tool takes task_complete's place.
 */
export function chatToolsOf(contracts: readonly AnyToolContract[], completion?: CompletionTool): ChatTool[] {
  const tools = contracts.map((contract) => ({ name: contract.name, description: contract.description, inputSchema: jsonSchemaOf(contract.input) }));
  const terminal = TERMINAL_TOOLS.map((name) =>
    name === 'task_complete' && completion
      ? { name: completion.name, description: completion.description, inputSchema: jsonSchemaOf(completion.input) }
      : { name, description: TERMINAL_TOOL_DESCRIPTIONS[name], inputSchema: jsonSchemaOf(TERMINAL_TOOL_INPUTS[name]) },
  );
  return [...tools, ...terminal];
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // `io: 'input'` describes what the model may send (defaults optional); refinements have no JSON form and are checked on receipt.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
