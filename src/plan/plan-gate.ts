import { existsSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { PathRefused, Workspace } from '../harness/workspace.js';
import { type LiveUnit, liveUnitsOf } from '../locate/live-file-units.js';
import type { LiveSourceReader } from '../locate/live-source.js';
import { checkCommandProblem } from './check-command.js';
import type { PlanDraft } from './edit-plan.js';

/** Test folders, and test files by name: JavaScript's `.test.ts` and `.spec.js`, pytest's `test_x.py`, `x_test.py` and `conftest.py`. */
const TEST_FILE = /(^|\/)(__tests__|tests?)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$|_test\.go$/;

/** A test by its name alone, for files the handbook does not list. */
export function looksLikeTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

/**
 * The plan gate: a plan is accepted only when every locator in it resolves fresh against the
 * live repository (the symbol is in its file, at the stated lines, with the stated hash; files are
 * read by `read`, as the handbook's build reads them, so a file it now leaves out cites nothing),
 * every target lies inside the plan's scope and is neither a test nor outside the repository's
 * own code, and there is something to check the change with. Returns every failure, worded so a
 * planner can act on it; an empty list is acceptance.
 */
export async function gatePlan(root: string, plan: PlanDraft, read: LiveSourceReader, isTestFile: (file: string) => boolean = looksLikeTestFile): Promise<string[]> {
  const workspace = new Workspace(root);
  const failures: string[] = [];
  const liveFiles = new Map<string, Map<string, LiveUnit> | string>();
  const unitsOf = async (file: string): Promise<Map<string, LiveUnit> | string> => {
    const known = liveFiles.get(file);
    if (known) return known;
    let units: Map<string, LiveUnit> | string;
    try {
      const live = await liveUnitsOf(read, workspace.name(file).relative);
      units = 'units' in live ? live.units : live.gone;
    } catch (error) {
      if (!(error instanceof PathRefused)) throw error;
      units = `${file} cannot be read: ${error.message}`;
    }
    liveFiles.set(file, units);
    return units;
  };
  const verify = async (role: string, locator: { file: string; symbol: string; line: number; endLine: number; hash: string }): Promise<void> => {
    const where = `${role} ${locator.file}#${locator.symbol}`;
    const units = await unitsOf(locator.file);
    if (typeof units === 'string') return void failures.push(`${where}: ${units}`);
    const live = units.get(locator.symbol);
    if (!live) return void failures.push(`${where}: the symbol is no longer in ${locator.file}`);
    if (live.hash !== locator.hash) return void failures.push(`${where}: its code changed since it was planned (hash ${locator.hash} is now ${live.hash})`);
    if (live.startLine !== locator.line || live.endLine !== locator.endLine) failures.push(`${where}: it moved from lines ${locator.line}-${locator.endLine} to ${live.startLine}-${live.endLine}`);
  };

  if (plan.targets.length === 0) failures.push('the plan has no targets: nothing would change');
  const inScope = picomatch(plan.scope.length === 0 ? ['!**'] : [...plan.scope], { dot: true });
  for (const target of plan.targets) {
    const where = `target ${target.file}#${target.symbol}`;
    if (target.file.split('/').includes('node_modules') || path.isAbsolute(target.file) || target.file.startsWith('../')) {
      failures.push(`${where}: it is outside the repository's own code (an external boundary), which a plan may not edit`);
      continue;
    }
    const named = rootName(workspace, target.file);
    if (named !== undefined && named !== target.file) failures.push(`${where}: name the file ${named}, from the repository's root, as apply matches its scope against that name`);
    if (isTestFile(target.file)) failures.push(`${where}: it is in a test file; a plan changes the code and lets the tests judge it`);
    if (!inScope(target.file)) failures.push(`${where}: ${target.file} is outside the plan's scope (${plan.scope.join(', ') || 'empty'})`);
    // Apply verifies a target by its unit's change; a unit that appears or disappears has no such check yet.
    if (target.action !== 'modify') failures.push(`${where}: apply can verify only targets it modifies, not ones it would ${target.action}; plan the change as a modification of the enclosing unit, or as a new file`);
    else await verify('target', target);
  }
  for (const item of plan.context) await verify('context', item);
  for (const file of plan.newFiles) {
    const unwritable = newFileProblem(workspace, file);
    if (unwritable) {
      failures.push(`new file ${file}: ${unwritable}`);
      continue;
    }
    if (!inScope(file)) failures.push(`new file ${file} is outside the plan's scope`);
    if (existsSync(path.join(root, file))) failures.push(`new file ${file} already exists`);
  }
  const targetFiles = new Set(plan.targets.map((target) => target.file));
  for (const file of plan.scope) {
    if (!targetFiles.has(file) && !plan.newFiles.includes(file)) failures.push(`scope ${file} is neither a target's file nor a new file the plan names: the scope is what the plan changes, nothing wider`);
  }
  if (plan.typecheck && !existsSync(path.join(root, 'tsconfig.json'))) failures.push('the plan asks for a typecheck, but the repository has no tsconfig.json to type-check with');
  for (const check of plan.checks) {
    const problem = checkCommandProblem(root, check, isTestFile);
    if (problem) failures.push(`check ${check.name} (\`${check.command}\`${check.cwd === undefined ? '' : ` in ${check.cwd}`}): ${problem}`);
  }
  if (plan.checks.length === 0 && !plan.typecheck) failures.push('the plan has no check: no test reaches the targets and the repository has no tsconfig.json to type-check');
  return failures;
}

/**
 * Why apply could never create `file`, judged as its file gate judges a write: a plan naming such
 * a file would be accepted and then never complete. The name must also be the one the gate uses
 * (from the root, no `./`), since the plan's scope is matched against that name.
 */
function newFileProblem(workspace: Workspace, file: string): string | undefined {
  let relative: string;
  try {
    relative = workspace.resolve(file, 'write').relative;
  } catch (error) {
    if (error instanceof PathRefused) return `apply could not create it: ${error.message}`;
    throw error;
  }
  if (relative.split('/').includes('node_modules')) return "it is outside the repository's own code (node_modules), which a plan may not edit";
  if (relative !== file) return `name it ${relative}, from the repository's root`;
  return undefined;
}

/** A path as the file gate names it, or undefined when the gate refuses it (the locator check then says why). */
function rootName(workspace: Workspace, file: string): string | undefined {
  try {
    return workspace.name(file).relative;
  } catch (error) {
    if (error instanceof PathRefused) return undefined;
    throw error;
  }
}
