import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { HandbookError } from '../errors.js';
import { editPlanSchema, type EditPlan } from './edit-plan.js';
import { makeFolder } from '../text/make-folder.js';

export function plansFolder(root: string): string {
  return path.join(root, '.handbook', 'plans');
}

/** Writes the plan as JSON (what apply reads) and as Markdown (what a reviewer reads), each atomically. */
export async function savePlan(root: string, plan: EditPlan): Promise<{ json: string; markdown: string }> {
  const folder = plansFolder(root);
  makeFolder(folder);
  const json = path.join(folder, `${plan.id}.json`);
  const markdown = path.join(folder, `${plan.id}.md`);
  await writeFileAtomic(json, `${JSON.stringify(editPlanSchema.parse(plan), null, 2)}\n`);
  await writeFileAtomic(markdown, renderPlanMarkdown(plan));
  return { json, markdown };
}

/** A plan by id (under .handbook/plans) or by the path of its JSON file; checked, never trusted. */
export function loadPlan(root: string, reference: string): EditPlan {
  const file = /^plan-[\w-]+$/.test(reference) ? path.join(plansFolder(root), `${reference}.json`) : path.resolve(reference);
  const hint = 'pass a plan id that `handbook plan` printed, or the path of its .json file';
  if (!existsSync(file)) throw new HandbookError('INVALID_INPUT', `no plan ${reference}`, hint);
  if (statSync(file).isDirectory()) throw new HandbookError('INVALID_INPUT', `plan ${file} is a folder, not a plan file`, hint);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HandbookError('INVALID_INPUT', `plan ${file} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = editPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HandbookError('INVALID_INPUT', `plan ${file} is not valid at ${issue.path.join('.') || 'the top'}: ${issue.message}`);
  }
  return parsed.data;
}

export function renderPlanMarkdown(plan: EditPlan): string {
  const planner = plan.planner.kind === 'offline' ? 'the offline planner (deterministic, no model)' : `the llm planner (${plan.planner.model})`;
  const lines = [
    `# Plan ${plan.id}: ${plan.status}`,
    '',
    `> ${plan.request}`,
    '',
    plan.summary,
    '',
    `Planned on handbook generation ${plan.generation} by ${planner}, ${plan.createdAt}.`,
    '',
  ];
  if (plan.failures.length > 0) lines.push('## Why it was rejected', '', ...plan.failures.map((failure) => `- ${failure}`), '');
  lines.push('## Targets', '', ...(plan.targets.length === 0 ? ['(none)'] : plan.targets.map((target) => `- **${target.action}** \`${target.symbol}\` ${target.file}:${target.line}-${target.endLine}: ${target.intent}. _${target.why}_`)), '');
  lines.push('## Context to read', '', ...(plan.context.length === 0 ? ['(none)'] : plan.context.map((item) => `- \`${item.symbol}\` ${item.file}:${item.line}-${item.endLine} (${item.relation}): ${item.why}`)), '');
  lines.push('## Scope', '', ...plan.scope.map((file) => `- ${file}`), ...plan.newFiles.map((file) => `- ${file} (new)`), '');
  lines.push('## Checks', '', ...plan.checks.map((check) => `- \`${check.command}\`${check.cwd === undefined ? '' : ` in ${check.cwd}`}: ${check.reason}`), ...(plan.typecheck ? ['- the repository type-checks (tsconfig.json)'] : []), '');
  lines.push('## Risks', '', ...(plan.risks.length === 0 ? ['(no shared state coupled)'] : plan.risks.map((risk) => `- ${risk.why}`)), '');
  return `${lines.join('\n')}`;
}
