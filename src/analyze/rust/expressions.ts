import type { Expression, Step } from './rust-facts.js';

/** The expression with one more step. */
export function extend(expression: Expression, step: Step): Expression {
  return { root: expression.root, steps: [...expression.steps, step] };
}

/** Whether an expression read as a value can reach a unit or a slot: a path, or a local's field; a call records itself. */
export function isRead(expression: Expression): boolean {
  if (expression.steps.some((step) => step.kind === 'call' || step.kind === 'method')) return false;
  const root = expression.root.kind;
  if (root === 'path' || root === 'item' || root === 'type') return true;
  return root === 'local' && expression.steps.some((step) => step.kind === 'field' || step.kind === 'index');
}
