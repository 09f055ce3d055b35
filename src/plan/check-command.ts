import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

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
];
const RUNNER_NAMES = RUNNERS.map((runner) => runner.join(' ')).join(', ');

/** Why `command` may not check a plan, or undefined when it runs the repository's tests and nothing else. */
export function checkCommandProblem(root: string, command: string, isTestFile: (file: string) => boolean): string | undefined {
  const text = command.trim();
  // `&&` alone joins runs (it stops at the first failure); anything else the shell would act on is refused.
  if (/[;|&`$<>()\\\n\r]/.test(text.replace(/ && /g, ' '))) return 'a check is a test command, not a shell program';
  const segments = text.split(' && ').map(words);
  const named = segments.flat().filter((word) => isTestFile(word));
  const scripts = segments.filter(isTestScript);
  if (named.length === 0 && scripts.length === 0) return 'it names no test file: a check runs the tests that reach the targets, or `npm test`';
  if (scripts.length > 0 && !hasTestScript(root)) return 'the repository has no test script';
  for (const segment of segments) {
    if (isTestScript(segment)) continue;
    const runner = RUNNERS.find((candidate) => candidate.every((word, index) => segment[index] === word));
    const files = runner ? segment.slice(runner.length) : [];
    if (!runner || files.length === 0 || !files.every((file) => isTestFile(file))) {
      return `\`${segment.join(' ')}\` is not a test runner on test files: a check is \`npm test\` or one of ${RUNNER_NAMES} followed by the test files only`;
    }
  }
  const missing = named.filter((file) => !existsSync(path.join(root, file)));
  return missing.length > 0 ? `it names test files that do not exist: ${missing.join(', ')}` : undefined;
}

/** A segment's words, a quoted file name unquoted; quotes can hold no expansion, since `$` and backticks are refused. */
function words(segment: string): string[] {
  return (segment.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
}

function isTestScript(segment: readonly string[]): boolean {
  return segment[0] === 'npm' && ((segment.length === 2 && segment[1] === 'test') || (segment.length === 3 && segment[1] === 'run' && segment[2] === 'test'));
}

function hasTestScript(root: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    return typeof manifest.scripts?.test === 'string';
  } catch {
    return false;
  }
}
