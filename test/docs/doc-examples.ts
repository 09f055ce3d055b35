import { spawn, spawnSync } from 'node:child_process';
import { cpSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

/**
 * The examples of the documentation that show their output, and how to run them.
 *
 * A checked example is a fenced block opened with ```console. In it, a line starting with `$ ` is a
 * command, and the lines after it, up to the next `$ ` line or the end of the block, are what it
 * prints (stderr and stdout together, as a terminal shows them). `$ handbook ...` and
 * `$ npx handbook ...` run the built CLI; any other command runs in bash as written. A command
 * that ends with a comment `# exit N` must exit with N; any other must exit 0. The commands of a
 * page run in order, in a scratch folder that stands for the root of a clone: it holds copies of
 * fixtures/mini-harness, fixtures/task-repo and fixtures/scripts, committed to git.
 *
 * Blocks fenced as ```sh, ```json or ```toml are not run: they are for examples that need a model,
 * the network or a long-running server.
 */

/** Where the pages say the clone is: the scratch folder is printed as this path. */
export const DOCUMENTED_ROOT = '/home/you/harness-handbook';

/** The pages whose console blocks are checked. */
export const DOCUMENTED_PAGES = ['README.md', 'docs/commands.md', 'docs/freshness.md', 'docs/planning.md', 'docs/harness-loop.md', 'docs/mcp.md', 'docs/viewer.md', 'docs/architecture.md', 'docs/benchmarks.md'];

export interface DocExample {
  /** The command as the page shows it, after `$ `. */
  command: string;
  /** 0-based index of the command's line in the page. */
  commandLine: number;
  /** The lines the page shows as its output: [outputStart, outputEnd) of the page's lines. */
  outputStart: number;
  outputEnd: number;
  expected: string;
  /** The exit code the page promises: its `# exit N` comment, or 0. */
  exitCode: number;
}

const FENCE_OPEN = /^```console\s*$/;
const FENCE_CLOSE = /^```\s*$/;
const PROMPT = '$ ';
const EXIT_COMMENT = /\s+#\s*exit\s+(\d+)\s*$/;

/** Every command of a page's console blocks, in page order. */
export function findExamples(text: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  let inBlock = false;
  let open: DocExample | undefined;
  const close = (end: number) => {
    if (!open) return;
    open.outputEnd = end;
    open.expected = lines.slice(open.outputStart, end).join('\n');
    examples.push(open);
    open = undefined;
  };
  lines.forEach((line, index) => {
    if (!inBlock) {
      inBlock = FENCE_OPEN.test(line);
      return;
    }
    if (FENCE_CLOSE.test(line)) {
      close(index);
      inBlock = false;
      return;
    }
    if (line.startsWith(PROMPT)) {
      close(index);
      const command = line.slice(PROMPT.length);
      const exit = EXIT_COMMENT.exec(command);
      open = { command, commandLine: index, outputStart: index + 1, outputEnd: index + 1, expected: '', exitCode: exit ? Number(exit[1]) : 0 };
      return;
    }
    if (!open) throw new Error(`line ${index + 1}: a console block must start with a \`$ \` command line, not "${line}"`);
  });
  if (inBlock) throw new Error('a console block is not closed');
  return examples;
}

/** Run ids (`20261207-010032-39a58f`) and plan ids (`plan-20261207-005940-f8717e`) carry the time they were made. */
const GENERATED_ID = /\b\d{8}-\d{6}-[0-9a-z]{6}\b/g;

/**
 * What may differ between two runs of the same example, and between a reader's machine and the
 * page: times, dates, generated ids, commit hashes (the reader's clone has its own), and token
 * estimates (the task prompt names the repository's path, whose length varies).
 */
export function normalize(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<timestamp>')
    .replace(GENERATED_ID, '<id>')
    .replace(/\b\d+(?:\.\d+)? ?(?:ms|s)\b/g, '<duration>')
    .replace(/"(\w*Ms)": \d+/g, '"$1": <duration>')
    .replace(/\b[0-9a-f]{40}\b/g, '<commit>')
    .replace(/\bcommit [0-9a-f]{7,12}\b/g, 'commit <commit>')
    .replace(/\babout \d+ tokens\b/g, 'about <n> tokens')
    .replace(/\b\d+ tokens in, \d+ out\b/g, '<n> tokens in, <n> out')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

/** The generated ids a text names, in order, each once. */
export function generatedIds(text: string): string[] {
  return [...new Set(text.match(GENERATED_ID) ?? [])];
}

export interface Workspace {
  root: string;
  /** The output as the page shows it: the scratch folder printed as the documented clone. */
  asDocumented(output: string): string;
}

const FIXTURES = ['mini-harness', 'task-repo', 'scripts'];
/** A fixed author and date, so the commit the examples print is the same on every run. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'docs',
  GIT_AUTHOR_EMAIL: 'docs@example.com',
  GIT_COMMITTER_NAME: 'docs',
  GIT_COMMITTER_EMAIL: 'docs@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** A scratch folder laid out as the root of a clone, with the fixtures the examples use, committed. */
export function createWorkspace(): Workspace {
  const root = scratchDirectory('handbook-docs-');
  for (const fixture of FIXTURES) {
    cpSync(path.join(PROJECT_ROOT, 'fixtures', fixture), path.join(root, 'fixtures', fixture), {
      recursive: true,
      filter: (source) => !source.split(path.sep).includes('.handbook'),
    });
  }
  writeFileSync(path.join(root, '.gitignore'), '.handbook/\n');
  for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'fixtures']]) {
    const result = spawnSync('git', args, { cwd: root, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  }
  const real = realpathSync(root);
  const shown = [real, root].filter((place, index, all) => all.indexOf(place) === index).sort((a, b) => b.length - a.length);
  return {
    root,
    asDocumented: (output) => shown.reduce((text, place) => text.split(place).join(DOCUMENTED_ROOT), output),
  };
}

export interface CommandResult {
  code: number | null;
  output: string;
}

/** Keys that would send an example to a model: the examples run offline, whatever the caller's shell holds. */
const MODEL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'OPENAI_COMPATIBLE_API_KEY'];

/** Runs one command as the page shows it, in bash, with `handbook` (and `npx handbook`) the built CLI; stderr joins stdout. */
export function runDocumentedCommand(command: string, cwd: string): Promise<CommandResult> {
  const environment: NodeJS.ProcessEnv = { ...process.env, HANDBOOK_DOC_NODE: process.execPath, HANDBOOK_DOC_CLI: CLI };
  for (const variable of MODEL_VARIABLES) delete environment[variable];
  const script = ['handbook() { "$HANDBOOK_DOC_NODE" "$HANDBOOK_DOC_CLI" "$@"; }', 'exec 2>&1', command.replace(/^npx handbook\b/, 'handbook')].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A command line as the page should show it for the exit code it had. */
export function withExitComment(command: string, code: number | null): string {
  const bare = command.replace(EXIT_COMMENT, '');
  return code === 0 ? bare : `${bare}  # exit ${code}`;
}
