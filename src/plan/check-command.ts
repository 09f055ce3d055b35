import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
  const packageRuns = segments.filter(isPackageTestRun);
  if (named.length === 0 && scripts.length === 0 && packageRuns.length === 0) return 'it names no test file: a check runs the tests that reach the targets, or `npm test`';
  if (scripts.length > 0 && !hasTestScript(readPackageManifest(path.join(root, folder)))) return check.cwd === undefined ? 'the repository has no test script' : `${check.cwd} has no test script`;
  for (const segment of segments) {
    if (isTestScript(segment)) continue;
    if (isPackageTestRun(segment)) {
      const problem = packageTestProblem(root, fromRoot, segment);
      if (problem) return problem;
      continue;
    }
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

/** `go test` and `cargo test` run the tests of packages, not of files: they are judged by the packages they name. */
function isPackageTestRun(segment: readonly string[]): boolean {
  return (segment[0] === 'go' || segment[0] === 'cargo') && segment[1] === 'test';
}

/**
 * Why a `go test` or `cargo test` run may not check a plan: `go test` takes only package folders
 * of the repository (`./internal/agent`, or `./internal/...` for every package below); `cargo test`
 * takes nothing, or `-p` with a package a Cargo.toml of the repository declares. Both compile what
 * they name before they run its tests, so even a package without tests is checked.
 */
function packageTestProblem(root: string, fromRoot: (file: string) => string, segment: readonly string[]): string | undefined {
  const [runner, , ...rest] = segment;
  if (runner === 'go') {
    if (rest.length === 0) return '`go test` names no package: name the package folders whose tests reach the targets (`go test ./internal/agent`)';
    for (const pattern of rest) {
      const match = /^\.\/(.*?)(\/\.\.\.)?$/.exec(pattern);
      const folder = match ? fromRoot(match[1] === '' ? '.' : match[1]!) : undefined;
      if (!match || folder === undefined || folder.startsWith('../') || !existsSync(path.join(root, folder)) || !statSync(path.join(root, folder)).isDirectory()) {
        return `\`${pattern}\` is not a package folder of the repository: \`go test\` takes ./folder or ./folder/...`;
      }
      // A package without tests still compiles under `go test`: it checks the build, as a typecheck does.
      if (!holdsFile(path.join(root, folder), (name) => name.endsWith('.go'), match[2] !== undefined)) return `${pattern} holds no Go file`;
    }
    return undefined;
  }
  if (rest.length === 0) return undefined;
  if (rest.length !== 2 || rest[0] !== '-p') return '`cargo test` takes nothing, or `-p PACKAGE` alone';
  return cargoPackages(root).has(rest[1]!) ? undefined : `no Cargo.toml of the repository declares the package ${rest[1]}`;
}

/** Whether a folder (or, `deep`, any folder below it) holds a file whose name passes `test`. */
function holdsFile(folder: string, test: (name: string) => boolean, deep: boolean): boolean {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isFile() && test(entry.name)) return true;
    if (deep && entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'target' && entry.name !== 'vendor' && holdsFile(path.join(folder, entry.name), test, true)) return true;
  }
  return false;
}

/** The package a Cargo.toml declares (`[package]`'s `name`), undefined for a workspace manifest without one. */
export function cargoPackageName(manifest: string): string | undefined {
  return /^\[package\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(manifest)?.[1];
}

/** The package names the repository's Cargo.toml files declare (`[package] name = "..."`), to a few levels down. */
export function cargoPackages(root: string): Set<string> {
  const names = new Set<string>();
  const visit = (folder: string, depth: number): void => {
    const manifest = path.join(folder, 'Cargo.toml');
    if (existsSync(manifest)) {
      const name = cargoPackageName(readFileSync(manifest, 'utf8'));
      if (name) names.add(name);
    }
    if (depth === 0) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'target' && entry.name !== 'node_modules') visit(path.join(folder, entry.name), depth - 1);
    }
  };
  visit(root, 3);
  return names;
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

