import { z } from 'zod';
import { readJsonInput } from '../text/read-json-input.js';
import type { ApprovalRule, ToolContract } from './tool-contract.js';
import { POLICY_TOOL_NAMES } from './tool-set.js';

const rule = z.enum(['auto', 'ask', 'deny']);

/**
 * Which calls run by themselves. `tools` overrides a tool's own rule; `commands.allow` lists
 * run_command commands that need no approval, exactly as written or as a prefix ending in ` *`.
 */
export const approvalPolicySchema = z
  .object({
    tools: z
      .record(z.string(), rule)
      .superRefine((tools, context) => {
        for (const name of Object.keys(tools)) {
          if (!POLICY_TOOL_NAMES.includes(name)) context.addIssue({ code: 'custom', path: [name], message: `no tool is named "${name}" (the tools are ${POLICY_TOOL_NAMES.join(', ')})` });
        }
      })
      .default({}),
    commands: z.object({ allow: z.array(z.string().trim().min(1)).default([]) }).strict().default({ allow: [] }),
  })
  .strict();
export type ApprovalPolicy = z.output<typeof approvalPolicySchema>;

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { tools: {}, commands: { allow: [] } };

export interface ApprovalRequest {
  tool: string;
  arguments: unknown;
}

/** Asks the user; absent when nobody is there to ask, and then `ask` means no. */
export type Approver = (request: ApprovalRequest) => Promise<boolean>;

export interface ApprovalDecision {
  approved: boolean;
  by: 'policy' | 'user' | 'non_interactive';
  rule: ApprovalRule;
}

export function readApprovalPolicy(file: string): ApprovalPolicy {
  return readJsonInput(file, approvalPolicySchema, 'approval policy', 'write {"tools": {"run_command": "auto"}, "commands": {"allow": ["npm test"]}}');
}

export async function decideApproval(contract: ToolContract<unknown, unknown>, args: unknown, policy: ApprovalPolicy, approver: Approver | undefined): Promise<ApprovalDecision> {
  const ruleFor = commandAllowed(contract.name, args, policy) ? 'auto' : (policy.tools[contract.name] ?? contract.approval);
  if (ruleFor === 'auto') return { approved: true, by: 'policy', rule: ruleFor };
  if (ruleFor === 'deny') return { approved: false, by: 'policy', rule: ruleFor };
  if (!approver) return { approved: false, by: 'non_interactive', rule: ruleFor };
  return { approved: await approver({ tool: contract.name, arguments: args }), by: 'user', rule: ruleFor };
}

function commandAllowed(tool: string, args: unknown, policy: ApprovalPolicy): boolean {
  if (tool !== 'run_command') return false;
  const command = (args as { command?: unknown }).command;
  if (typeof command !== 'string') return false;
  const trimmed = command.trim();
  // A prefix allows plain words after it, never anything the shell would read as a second command,
  // a substitution or a redirection (a newline ends a command as surely as `;` does).
  return policy.commands.allow.some((allowed) => (allowed.endsWith(' *') ? trimmed.startsWith(allowed.slice(0, -1)) && !/[\n\r;&|`$<>()\\]/.test(trimmed) : trimmed === allowed));
}
