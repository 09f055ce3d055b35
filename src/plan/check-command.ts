import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PathRefused, Workspace } from '../harness/workspace.js';
import { hasTestScript, readPackageManifest } from './package-manifest.js';

/**
 * The commands a check may be: the runners the offline planner writes, followed by nothing but
 * test files. apply runs a plan's checks through the shell without asking anyone, so a command
 * that merely names a test file somewhere (`rm -rf src test/a.test.js`, `true test/a.test.js`)
 * would run what nobody approved, or let a change pass unchecked.
 */
const RUNNERS: readonly (readonly string[])[] = [
  ['node', '--test'],
  ['node'],
  ['npx', 'vitest', 'run'],
  ['npx', 'jest'],
  ['npx', 'mocha'],
  ['vitest', 'run'],
  ['jest'],
  ['mocha'],
  ['python', '-m', 'pytest'],
  ['python3', '-m', 'pytest'],
  ['uv', 'run', 'pytest'],
  ['pytest'],
];
const RUNNER_NAMES = RUNNERS.map((runner) => runner.join(' ')).join(', ');

/** A check as the gate judges it: its command, and the package folder it runs in (the root when absent). */
export interface CheckCommand {
  command: string;
  cwd?: string | undefined;
}

/** Why `check` may not check a plan, or undefined when it runs the repository's tests and nothing else. */
export function checkCommandProblem(root: string, check: CheckCommand, isTestFile: (file: string) => boolean): string | undefined {
  const folder = check.cwd ?? '';
  if (check.cwd !== undefined) {
    const problem = folderProblem(root, check.cwd);
    if (problem) return problem;
  }
  // Files are named from the folder the command runs in; the handbook names them from the root.
  const fromRoot = (file: string) => path.posix.normalize(path.posix.join(folder, file));
  const text = check.command.trim();
  // `&&` alone joins runs (it stops at the first failure); anything else the shell would act on is refused.
  if (/[;|&`$<>()\\\n\r]/.test(text.replace(/ && /g, ' '))) return 'a check is a test command, not a shell program';
  const segments = text.split(' && ').map(words);
  const named = segments.flat().filter((word) => isTestFile(fromRoot(word)));
  const scripts = segments.filter(isTestScript);
  if (named.length === 0 && scripts.length === 0) return 'it names no test file: a check runs the tests that reach the targets, or `npm test`';
  if (scripts.length > 0 && !hasTestScript(readPackageManifest(path.join(root, folder)))) return check.cwd === undefined ? 'the repository has no test script' : `${check.cwd} has no test script`;
  for (const segment of segments) {
    if (isTestScript(segment)) continue;
    const runner = RUNNERS.find((candidate) => candidate.every((word, index) => segment[index] === word));
    const files = runner ? segment.slice(runner.length) : [];
    if (!runner || files.length === 0 || !files.every((file) => isTestFile(fromRoot(file)))) {
      return `\`${segment.join(' ')}\` is not a test runner on test files: a check is \`npm test\` or one of ${RUNNER_NAMES} followed by the test files only`;
    }
  }
  const outside = named.filter((file) => path.posix.isAbsolute(file) || fromRoot(file).startsWith('../'));
  if (outside.length > 0) return `it names test files outside the repository: ${outside.join(', ')}`;
  const missing = named.filter((file) => !existsSync(path.join(root, fromRoot(file))));
  return missing.length > 0 ? `it names test files that do not exist: ${missing.join(', ')}` : undefined;
}

/**
 * Why a check may not run in `folder`: it must be a package folder of the repository, named from
 * its root. Judged by the file gate, as a plan's new files are: no climbing out, no link leading
 * out, nothing in .git or .handbook.
 */
function folderProblem(root: string, folder: string): string | undefined {
  let relative: string;
  try {
    relative = new Workspace(root).resolve(folder, 'read').relative;
  } catch (error) {
    if (error instanceof PathRefused) return `its folder ${folder} is not a folder of the repository named from its root`;
    throw error;
  }
  if (relative === '') return `its folder ${folder} is not a folder of the repository named from its root`;
  if (relative !== folder) return `its folder ${folder} is not named from the repository's root: name it ${relative}`;
  if (folder.split('/').includes('node_modules')) return `its folder ${folder} is not the repository's own code`;
  const absolute = path.join(root, folder);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) return `its folder ${folder} does not exist`;
  if (!existsSync(path.join(absolute, 'package.json'))) return `its folder ${folder} is not a package (no package.json): a check runs in the repository's root or in one of its packages`;
  return undefined;
}

/** A segment's words, a quoted file name unquoted; quotes can hold no expansion, since `$` and backticks are refused. */
function words(segment: string): string[] {
  return (segment.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
}

function isTestScript(segment: readonly string[]): boolean {
  return segment[0] === 'npm' && ((segment.length === 2 && segment[1] === 'test') || (segment.length === 3 && segment[1] === 'run' && segment[2] === 'test'));
}

