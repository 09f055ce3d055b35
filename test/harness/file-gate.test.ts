import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import picomatch from 'picomatch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExitCriteriaVerifier } from '../../src/harness/exit-criteria.js';
import { liveSourceReader } from '../../src/locate/live-source.js';
import { ReadLedger } from '../../src/harness/read-ledger.js';
import { exitCriteriaSchema } from '../../src/harness/task.js';
import type { ToolContext } from '../../src/harness/tool-context.js';
import type { ToolOutput } from '../../src/harness/tool-contract.js';
import type { AnyToolContract } from '../../src/harness/tool-set.js';
import { listFilesTool, readFileTool } from '../../src/harness/tools/read-tools.js';
import { createFileTool, deleteFileTool, editFileTool } from '../../src/harness/tools/write-tools.js';
import { PathRefused, Workspace, type WorkspaceOptions } from '../../src/harness/workspace.js';
import { act, call, copyOfTaskFixture, runScripted } from '../helpers/harness-run.js';
import { scratchDirectory } from '../helpers/paths.js';

/**
 * Attacks timed inside an operation, between its last check and its next system call: a hook
 * runs once right before the first matching openSync or renameSync. Everything else passes through.
 */
const interposed = vi.hoisted(() => ({ hooks: [] as Array<{ call: 'openSync' | 'renameSync'; file: RegExp; run: () => void }> }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const before = (call: 'openSync' | 'renameSync', file: unknown): void => {
    const index = interposed.hooks.findIndex((hook) => hook.call === call && hook.file.test(String(file)));
    if (index >= 0) interposed.hooks.splice(index, 1)[0]!.run();
  };
  const openSync = ((file: string, ...rest: unknown[]) => {
    before('openSync', file);
    return (fs.openSync as (...args: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  const renameSync: typeof fs.renameSync = (from, to) => {
    before('renameSync', to);
    fs.renameSync(from, to);
  };
  return { ...fs, default: { ...fs, openSync, renameSync }, openSync, renameSync };
});

const SECRET = 'outside secret\n';
const DECOY = 'export const decoy = "outside";\n';
const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;

/**
 * A repository and, beside it, an "outside" folder, both under `top`, which is what the
 * snapshots cover: `top/box/repo/../../x` still lands where a snapshot sees it.
 */
interface Sandbox {
  top: string;
  root: string;
  outside: string;
  scope: string[];
  workspace: Workspace;
}

function sandbox(scope: string[] = ['src/**'], options: WorkspaceOptions = {}): Sandbox {
  const top = scratchDirectory('file-gate-');
  const root = path.join(top, 'box', 'repo');
  const outside = path.join(top, 'box', 'outside');
  const files: Record<string, string> = {
    'repo/src/a.ts': 'export const a = 1;\n',
    'repo/src/b.ts': 'export const b = 2;\n',
    'repo/src/lib/a.ts': 'export const lib = 1;\n',
    'repo/package.json': '{ "name": "repo" }\n',
    'repo/README.md': '# repo\n',
    'repo/docs/guide.md': 'guide\n',
    'repo/.git/config': '[core]\n',
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/.handbook/state.json': '{}\n',
    'repo/vendor/sub/.git/config': '[core]\n',
    'outside/secret.txt': SECRET,
    'outside/a.ts': DECOY,
    'outside/dir/deep.txt': 'deep\n',
  };
  for (const [file, text] of Object.entries(files)) {
    const absolute = path.join(top, 'box', file);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, text);
  }
  return { top, root, outside, scope, workspace: new Workspace(root, scope, options) };
}

/** Every entry under `top` that is not inside the repository's scope, with a digest of what it is; never opens special files. */
function guardedSnapshot(box: Sandbox, scope: string[] = box.scope): Map<string, string> {
  const inScope = picomatch(scope, { dot: true });
  const entries = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const absolute = path.join(folder, name);
      const inRepo = path.relative(box.root, absolute);
      const guarded = inRepo.startsWith('..') || !inScope(inRepo.split(path.sep).join('/'));
      const stats = lstatSync(absolute);
      if (guarded) entries.set(path.relative(box.top, absolute), describeEntry(absolute, stats));
      if (stats.isDirectory()) walk(absolute);
    }
  };
  walk(box.top);
  return entries;
}

function describeEntry(absolute: string, stats: Stats): string {
  if (stats.isSymbolicLink()) return `link -> ${readlinkSync(absolute)}`;
  if (stats.isDirectory()) return 'folder';
  if (stats.isFile()) return `file ${createHash('sha256').update(readFileSync(absolute)).digest('hex')} ino ${stats.ino} links ${stats.nlink} mode ${stats.mode}`;
  return stats.isFIFO() ? 'fifo' : stats.isSocket() ? 'socket' : 'device';
}

/** Runs an attack on the gate itself; returns the rule that refused it, asserting nothing guarded changed. */
function gateRefusal(box: Sandbox, attack: () => unknown): string | undefined {
  const before = guardedSnapshot(box);
  let rule: string | undefined;
  try {
    attack();
  } catch (error) {
    if (!(error instanceof PathRefused)) throw error;
    rule = error.rule;
  }
  expect(guardedSnapshot(box)).toEqual(before);
  return rule;
}

async function contextFor(workspace: Workspace, maxWriteBytes = 2_000_000): Promise<ToolContext> {
  const verifier = await ExitCriteriaVerifier.start(workspace, exitCriteriaSchema.parse({}), {
    runCheck: () => Promise.reject(new Error('these tests run no checks')),
    typecheck: () => {
      throw new Error('these tests run no typecheck');
    },
    readSource: liveSourceReader(workspace.root),
  });
  let version = 0;
  return {
    workspace,
    ledger: new ReadLedger(),
    verifier,
    get version() {
      return version;
    },
    noteWrite: () => {
      version++;
    },
    createdFiles: new Set(),
    findHallucinatedImports: () => [],
    search: undefined,
    onCheck: () => undefined,
    commandTimeoutMs: 1_000,
    maxWriteBytes,
    operationId: undefined,
    // The journal writes under .handbook/, which these tests assert no attack touches; it has its own tests.
    journalWrite: async () => undefined,
  };
}

/** Runs a tool as the loop does: a PathRefused becomes a refusal naming its rule. */
async function runTool(contract: AnyToolContract, input: unknown, context: ToolContext): Promise<ToolOutput> {
  try {
    return await contract.run(contract.input.parse(input), context, new AbortController().signal);
  } catch (error) {
    if (error instanceof PathRefused) return { ok: false, content: error.message, rule: error.rule };
    throw error;
  }
}

type Operation = 'read' | 'edit' | 'create' | 'delete' | 'list';

function toolCall(operation: Operation, requested: string): [AnyToolContract, Record<string, unknown>] {
  switch (operation) {
    case 'read':
      return [readFileTool, { path: requested }];
    case 'edit':
      return [editFileTool, { path: requested, old_text: 'export', new_text: 'hacked' }];
    case 'create':
      return [createFileTool, { path: requested, content: 'hacked\n' }];
    case 'delete':
      return [deleteFileTool, { path: requested }];
    case 'list':
      return [listFilesTool, { path: requested }];
  }
}

/** Runs an attack through a real tool; returns its output, asserting nothing guarded changed. */
async function toolAttack(box: Sandbox, operation: Operation, requested: string, context?: ToolContext): Promise<ToolOutput> {
  const before = guardedSnapshot(box);
  const [contract, input] = toolCall(operation, requested);
  const output = await runTool(contract, input, context ?? (await contextFor(box.workspace)));
  expect(guardedSnapshot(box)).toEqual(before);
  return output;
}

interface Attack {
  name: string;
  operation: Operation;
  path: string | ((box: Sandbox) => string);
  rule: string;
}

const REFUSED: Attack[] = [
  { name: '../ out of the root', operation: 'read', path: '../outside/secret.txt', rule: 'outside-root' },
  { name: '../ on an edit', operation: 'edit', path: '../outside/a.ts', rule: 'outside-root' },
  { name: 'a/../../ climbing past the root', operation: 'create', path: 'a/../../outside/new.txt', rule: 'outside-root' },
  { name: './../', operation: 'create', path: './../x.txt', rule: 'outside-root' },
  { name: 'src/..//../ with a doubled slash', operation: 'create', path: 'src/..//../x.txt', rule: 'outside-root' },
  { name: 'three levels up to the snapshot root', operation: 'create', path: 'src/../../../x.txt', rule: 'outside-root' },
  { name: 'a trailing slash', operation: 'delete', path: '../outside/secret.txt/', rule: 'outside-root' },
  { name: 'listing the parent', operation: 'list', path: '../', rule: 'outside-root' },
  { name: 'an absolute path outside', operation: 'read', path: (box) => path.join(box.outside, 'secret.txt'), rule: 'outside-root' },
  { name: 'an absolute path outside, deleted', operation: 'delete', path: (box) => path.join(box.outside, 'secret.txt'), rule: 'outside-root' },
  { name: 'the root itself, deleted', operation: 'delete', path: '.', rule: 'outside-root' },
  { name: 'the root itself, as an absolute path', operation: 'create', path: (box) => box.root, rule: 'outside-root' },
  { name: 'a NUL byte', operation: 'read', path: 'src/a.ts\u0000.txt', rule: 'control-character' },
  { name: 'a newline', operation: 'create', path: 'src/a\n.ts', rule: 'control-character' },
  { name: 'a carriage return', operation: 'edit', path: 'src/a.ts\r', rule: 'control-character' },
  { name: 'DEL', operation: 'create', path: 'src/a\u007f.ts', rule: 'control-character' },
  { name: 'a C1 control (NEL)', operation: 'create', path: 'src/a\u0085.ts', rule: 'control-character' },
  { name: 'a line separator', operation: 'create', path: 'src/a\u2028.ts', rule: 'control-character' },
  { name: 'a right-to-left override', operation: 'create', path: 'src/\u202Est.exe', rule: 'control-character' },
  { name: 'a bidi isolate', operation: 'read', path: 'src/\u2066a.ts', rule: 'control-character' },
  { name: '.git at the top, read', operation: 'read', path: '.git/config', rule: 'protected-folder' },
  { name: '.git at the top, edited', operation: 'edit', path: '.git/config', rule: 'protected-folder' },
  { name: 'a git hook created', operation: 'create', path: '.git/hooks/pre-commit', rule: 'protected-folder' },
  { name: '.handbook deleted', operation: 'delete', path: '.handbook/state.json', rule: 'protected-folder' },
  { name: 'a nested .git (submodule)', operation: 'edit', path: 'vendor/sub/.git/config', rule: 'protected-folder' },
  { name: 'a nested .git inside the scope', operation: 'create', path: 'src/lib/.git/hooks/post-checkout', rule: 'protected-folder' },
  { name: 'a nested .handbook inside the scope', operation: 'create', path: 'src/.handbook/state.json', rule: 'protected-folder' },
  { name: '.git reached only after normalizing', operation: 'read', path: 'src/./../.git/config', rule: 'protected-folder' },
  { name: '.GIT in upper case', operation: 'read', path: '.GIT/config', rule: 'protected-folder' },
  { name: '.Handbook in mixed case', operation: 'create', path: '.Handbook/x', rule: 'protected-folder' },
  { name: '.git. with a trailing dot (stripped by Windows)', operation: 'create', path: 'src/.git./config', rule: 'protected-folder' },
  { name: 'a fullwidth ．git', operation: 'create', path: 'src/．git/config', rule: 'protected-folder' },
  { name: '.g\u200Dit with a zero-width joiner', operation: 'create', path: 'src/.g\u200Dit/config', rule: 'protected-folder' },
  { name: 'src/../package.json, in scope only before normalizing', operation: 'edit', path: 'src/../package.json', rule: 'outside-scope' },
  { name: 'src/../docs/ created', operation: 'create', path: 'src/../docs/new.md', rule: 'outside-scope' },
  { name: 'SRC/ on a case-sensitive file system', operation: 'create', path: 'SRC/a.ts', rule: 'outside-scope' },
  { name: 'README.md deleted', operation: 'delete', path: 'README.md', rule: 'outside-scope' },
];

describe('the file gate refuses, through the real tools, and nothing outside the scope changes', () => {
  it.each(REFUSED)('$name ($operation) → $rule', async (attack) => {
    const box = sandbox();
    const requested = typeof attack.path === 'string' ? attack.path : attack.path(box);
    const output = await toolAttack(box, attack.operation, requested);
    expect(output).toMatchObject({ ok: false, rule: attack.rule });
  });

  it('names the rule and the path, with control characters escaped so the message cannot be spoofed', async () => {
    const box = sandbox();
    expect((await toolAttack(box, 'read', '../outside/secret.txt')).content).toContain('"../outside/secret.txt"');
    expect((await toolAttack(box, 'create', 'src/\u202Est.exe')).content).toContain('"src/\\u202est.exe"');
    expect((await toolAttack(box, 'edit', 'src/../package.json')).content).toMatch(/"package\.json" is outside the task's scope \(src\/\*\*\)/);
    expect((await toolAttack(box, 'read', 'src/./../.git/config')).content).toContain('".git/config" is inside .git/');
    expect(() => box.workspace.resolve('../x', 'read')).toThrow(expect.objectContaining({ name: 'PathRefused', rule: 'outside-root', message: expect.stringContaining('"../x"') }));
  });

  it('refuses glob patterns that climb out of the listed folder', async () => {
    const box = sandbox();
    const context = await contextFor(box.workspace);
    expect(await runTool(listFilesTool, { pattern: '../**' }, context)).toMatchObject({ ok: false, rule: 'outside-root' });
    expect(await runTool(listFilesTool, { path: 'src', pattern: '{..,lib}/*' }, context)).toMatchObject({ ok: false, rule: 'outside-root' });
    expect(await runTool(listFilesTool, { pattern: path.join(box.outside, '*') }, context)).toMatchObject({ ok: false, rule: 'outside-root' });
  });

  it('lists no protected folder, at any depth or case, and nothing outside the root', async () => {
    const box = sandbox();
    mkdirSync(path.join(box.root, '.GIT'));
    writeFileSync(path.join(box.root, '.GIT/config'), 'x');
    symlinkSync(box.outside, path.join(box.root, 'src/out'));
    const output = await runTool(listFilesTool, {}, await contextFor(box.workspace));
    expect(output.ok).toBe(true);
    expect(output.content.split('\n')).toEqual(['docs/guide.md', 'package.json', 'README.md', 'src/a.ts', 'src/b.ts', 'src/lib/a.ts'].sort());
  });
});

describe('encoded and look-alike names are literal names: they stay where they are written', () => {
  it.each([
    { name: 'backslashes (a file name character on Linux)', requested: 'src/..\\..\\x.txt' },
    { name: 'percent-encoded ../', requested: 'src/%2e%2e%2f%2e%2e%2fx.txt' },
    { name: 'fullwidth full stops', requested: 'src/．．/．．/x.txt' },
    { name: 'fullwidth solidus', requested: 'src/..／..／x.txt' },
    { name: 'a glob star', requested: 'src/*' },
    { name: 'a name starting with two dots', requested: 'src/..foo' },
  ])('$name', async ({ requested }) => {
    const box = sandbox();
    const output = await toolAttack(box, 'create', requested);
    expect(output).toMatchObject({ ok: true, data: { path: requested } });
    expect(readFileSync(path.join(box.root, requested), 'utf8')).toBe('hacked\n');
    expect(readFileSync(path.join(box.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('reads a backslashed ..\\ name as a missing file, not as the folder above', async () => {
    const box = sandbox();
    expect(await toolAttack(box, 'read', '..\\outside\\secret.txt')).toMatchObject({ ok: false, rule: 'not-found' });
  });

  it('matches glob metacharacters in a path literally against the scope', async () => {
    const box = sandbox(['src/a.ts']);
    expect(await toolAttack(box, 'create', 'src/[a].ts')).toMatchObject({ ok: false, rule: 'outside-scope' });
    expect(await toolAttack(box, 'create', 'src/?.ts')).toMatchObject({ ok: false, rule: 'outside-scope' });
  });
});

describe('symbolic links', () => {
  it('refuses a symlinked file that leads outside, for reads and every write', async () => {
    const box = sandbox();
    symlinkSync(path.join(box.outside, 'a.ts'), path.join(box.root, 'src/leak.ts'));
    for (const operation of ['read', 'edit', 'create', 'delete'] as const) {
      expect(await toolAttack(box, operation, 'src/leak.ts')).toMatchObject({ ok: false, rule: 'symlink' });
    }
    expect(gateRefusal(box, () => box.workspace.writeText('src/leak.ts', 'hacked'))).toBe('symlink');
  });

  it('refuses a symlinked parent folder that leads outside, for read, list, edit, create and delete', async () => {
    const box = sandbox();
    symlinkSync(box.outside, path.join(box.root, 'src/out'));
    expect(await toolAttack(box, 'read', 'src/out/secret.txt')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'list', 'src/out')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'edit', 'src/out/a.ts')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'create', 'src/out/new.txt')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'create', 'src/out/dir/deeper/new.txt')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'delete', 'src/out/secret.txt')).toMatchObject({ rule: 'symlink' });
  });

  it('refuses writes through a link to a file inside the root but outside the scope, and allows reading it', async () => {
    const box = sandbox();
    symlinkSync('../package.json', path.join(box.root, 'src/package.json'));
    expect(await toolAttack(box, 'edit', 'src/package.json')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'delete', 'src/package.json')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'read', 'src/package.json')).toMatchObject({ ok: true });
  });

  it('refuses writes through a symlinked folder inside the root, which would carry them past the scope', async () => {
    const box = sandbox();
    symlinkSync('../docs', path.join(box.root, 'src/docs'));
    expect(await toolAttack(box, 'create', 'src/docs/new.md')).toMatchObject({ rule: 'symlink' });
    expect(gateRefusal(box, () => box.workspace.writeText('src/docs/guide.md', 'hacked'))).toBe('symlink');
    expect(await toolAttack(box, 'read', 'src/docs/guide.md')).toMatchObject({ ok: true });
  });

  it('refuses a link inside the root that leads into .git, judged by where it leads', async () => {
    const box = sandbox();
    symlinkSync('../.git', path.join(box.root, 'src/g'));
    symlinkSync('../.git/config', path.join(box.root, 'src/config'));
    expect(await toolAttack(box, 'read', 'src/g/config')).toMatchObject({ rule: 'protected-folder' });
    expect(await toolAttack(box, 'read', 'src/config')).toMatchObject({ rule: 'protected-folder' });
    expect(await toolAttack(box, 'list', 'src/g')).toMatchObject({ rule: 'protected-folder' });
    expect(await toolAttack(box, 'create', 'src/g/hooks/pre-commit')).toMatchObject({ rule: 'symlink' });
  });

  it('refuses to create over a dangling symlink, and nothing appears where it points', async () => {
    const box = sandbox();
    symlinkSync(path.join(box.outside, 'planted.txt'), path.join(box.root, 'src/dangling.ts'));
    expect(await toolAttack(box, 'create', 'src/dangling.ts')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'read', 'src/dangling.ts')).toMatchObject({ rule: 'symlink' });
    expect(gateRefusal(box, () => box.workspace.createText('src/dangling.ts', 'hacked'))).toBe('symlink');
    expect(existsSync(path.join(box.outside, 'planted.txt'))).toBe(false);
  });

  it('refuses /dev/null behind a symlink', async () => {
    const box = sandbox();
    symlinkSync('/dev/null', path.join(box.root, 'src/null.ts'));
    expect(await toolAttack(box, 'read', 'src/null.ts')).toMatchObject({ rule: 'symlink' });
    expect(await toolAttack(box, 'edit', 'src/null.ts')).toMatchObject({ rule: 'symlink' });
  });

  it('refuses a folder swapped for a symlink between the check and the write, read, create or delete', () => {
    const box = sandbox();
    const lib = path.join(box.root, 'src/lib');
    expect(box.workspace.resolve('src/lib/a.ts', 'write').relative).toBe('src/lib/a.ts');
    renameSync(lib, path.join(box.root, 'src/lib-moved'));
    symlinkSync(box.outside, lib);
    expect(gateRefusal(box, () => box.workspace.writeText('src/lib/a.ts', 'hacked'))).toBe('symlink');
    expect(gateRefusal(box, () => box.workspace.createText('src/lib/new.ts', 'hacked'))).toBe('symlink');
    expect(gateRefusal(box, () => box.workspace.remove('src/lib/a.ts'))).toBe('symlink');
    expect(gateRefusal(box, () => box.workspace.readText('src/lib/a.ts'))).toBe('symlink');
    expect(readFileSync(path.join(box.outside, 'a.ts'), 'utf8')).toBe(DECOY);
  });

  it('refuses a file swapped for a symlink between the check and the write or delete', () => {
    const box = sandbox();
    expect(box.workspace.resolve('src/a.ts', 'write').relative).toBe('src/a.ts');
    rmSync(path.join(box.root, 'src/a.ts'));
    symlinkSync(path.join(box.outside, 'a.ts'), path.join(box.root, 'src/a.ts'));
    expect(gateRefusal(box, () => box.workspace.writeText('src/a.ts', 'hacked'))).toBe('symlink');
    expect(gateRefusal(box, () => box.workspace.remove('src/a.ts'))).toBe('symlink');
  });

  it('never writes, creates, deletes or reads outside while another process keeps swapping a folder for a link to outside', async () => {
    const box = sandbox();
    const lib = path.join(box.root, 'src/lib');
    const swapper = path.join(box.top, 'swapper.cjs');
    writeFileSync(swapper, SWAPPER);
    const before = guardedSnapshot(box);
    const child = spawn(process.execPath, [swapper, lib, `${lib}-real`, box.outside, '1500'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => child.stdout.once('data', resolve));

    const outcomes = { done: 0, refused: 0, failed: 0 };
    const leaks: string[] = [];
    const until = Date.now() + 1_500;
    for (let attempt = 0; Date.now() < until; attempt++) {
      try {
        if (attempt % 4 === 0) box.workspace.writeText('src/lib/a.ts', `export const lib = ${attempt};\n`);
        if (attempt % 4 === 1) box.workspace.createText(`src/lib/new-${attempt}.ts`, 'created\n');
        if (attempt % 4 === 2) box.workspace.remove(`src/lib/new-${attempt - 1}.ts`);
        if (attempt % 4 === 3) {
          const read = box.workspace.readText('src/lib/a.ts');
          if (read.status === 'text' && !read.text.startsWith('export const lib')) leaks.push(read.text);
        }
        outcomes.done++;
      } catch (error) {
        if (error instanceof PathRefused) outcomes.refused++;
        else outcomes.failed++;
      }
    }
    expect(await exited).toBe(0);
    expect(leaks).toEqual([]);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(guardedSnapshot(box)).toEqual(before);
  });
});

describe('a folder or file swapped inside an operation, at the worst moment', () => {
  afterEach(() => {
    expect(interposed.hooks.splice(0), 'every interposed attack ran').toEqual([]);
  });

  const swapLibForLink = (box: Sandbox) => (): void => {
    renameSync(path.join(box.root, 'src/lib'), path.join(box.root, 'src/lib-moved'));
    symlinkSync(box.outside, path.join(box.root, 'src/lib'));
  };

  it('refuses a write whose folder became a link just before its temp file was opened, and leaves no temp file outside', () => {
    const box = sandbox();
    interposed.hooks.push({ call: 'openSync', file: /\.gate-[0-9a-f]+\.tmp$/, run: swapLibForLink(box) });
    expect(gateRefusal(box, () => box.workspace.writeText('src/lib/a.ts', 'hacked'))).toBe('symlink');
    expect(readdirSync(path.join(box.root, 'src/lib-moved'))).toEqual(['a.ts']);
  });

  it('never lands a write outside when the folder becomes a link just before the rename: the temp file exists only in the real folder', () => {
    const box = sandbox();
    interposed.hooks.push({ call: 'renameSync', file: /src\/lib\/a\.ts$/, run: swapLibForLink(box) });
    const before = guardedSnapshot(box);
    expect(() => box.workspace.writeText('src/lib/a.ts', 'hacked')).toThrow(/ENOENT/);
    expect(guardedSnapshot(box)).toEqual(before);
    expect(readdirSync(path.join(box.root, 'src/lib-moved'))).toEqual(['a.ts']);
  });

  it('refuses a create whose folder became a link just before the exclusive open, and removes what it created there', () => {
    const box = sandbox();
    interposed.hooks.push({ call: 'openSync', file: /src\/lib\/new\.ts$/, run: swapLibForLink(box) });
    expect(gateRefusal(box, () => box.workspace.createText('src/lib/new.ts', 'hacked'))).toBe('symlink');
    expect(existsSync(path.join(box.outside, 'new.ts'))).toBe(false);
  });

  it('refuses a read whose folder became a link just before the open, judged by where the descriptor really is', () => {
    const box = sandbox();
    writeFileSync(path.join(box.outside, 'a.ts'), DECOY);
    interposed.hooks.push({ call: 'openSync', file: /src\/lib\/a\.ts$/, run: swapLibForLink(box) });
    expect(gateRefusal(box, () => box.workspace.readText('src/lib/a.ts'))).toBe('symlink');
  });

  it.skipIf(!HAS_MKFIFO)('does not block on a FIFO swapped in just before a read opens the file', () => {
    const box = sandbox();
    const file = path.join(box.root, 'src/a.ts');
    let writer: ReturnType<typeof spawn> | undefined;
    interposed.hooks.push({
      call: 'openSync',
      file: /src\/a\.ts$/,
      run: () => {
        rmSync(file);
        execFileSync('mkfifo', [file]);
        // Should the open block, this writer releases it after two seconds, and the time check fails.
        writer = spawn('sh', ['-c', 'sleep 2; exec 3>"$0"', file], { stdio: 'ignore' });
      },
    });
    const started = Date.now();
    try {
      expect(gateRefusal(box, () => box.workspace.readText('src/a.ts'))).toBe('not-a-regular-file');
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      writer?.kill();
    }
  });

  it('refuses an edit when its file became a link to outside just before the rename', () => {
    const box = sandbox();
    const file = path.join(box.root, 'src/a.ts');
    interposed.hooks.push({ call: 'openSync', file: /\.gate-[0-9a-f]+\.tmp$/, run: () => (rmSync(file), symlinkSync(path.join(box.outside, 'a.ts'), file)) });
    expect(gateRefusal(box, () => box.workspace.writeText('src/a.ts', 'hacked'))).toBe('symlink');
    expect(readFileSync(path.join(box.outside, 'a.ts'), 'utf8')).toBe(DECOY);
  });
});

/** Swaps a folder for a link to outside and back as fast as it can; tolerates folders the gate makes in between. */
const SWAPPER = `
const { renameSync, rmSync, symlinkSync, unlinkSync } = require('node:fs');
const [folder, moved, outside, ms] = process.argv.slice(2);
// The gate may have made the folder again while it was away (create_file makes missing folders): clear it and retry.
const place = (make) => {
  for (;;) {
    try { return make(); } catch { try { rmSync(folder, { recursive: true, force: true }); } catch { /* still being filled: retry */ } }
  }
};
const end = Date.now() + Number(ms);
process.stdout.write('ready\\n');
while (Date.now() < end) {
  renameSync(folder, moved);
  place(() => symlinkSync(outside, folder));
  unlinkSync(folder);
  place(() => renameSync(moved, folder));
}
`;

describe('hard links', () => {
  it('refuses to edit or delete a hard link to a file outside the repository, and explains why', async () => {
    const box = sandbox();
    linkSync(path.join(box.outside, 'secret.txt'), path.join(box.root, 'src/hard.txt'));
    const edit = await toolAttack(box, 'edit', 'src/hard.txt');
    expect(edit).toMatchObject({ ok: false, rule: 'hard-link' });
    expect(edit.content).toMatch(/"src\/hard\.txt" has 2 hard links/);
    expect(await toolAttack(box, 'delete', 'src/hard.txt')).toMatchObject({ rule: 'hard-link' });
    expect(await toolAttack(box, 'create', 'src/hard.txt')).toMatchObject({ rule: 'no-overwrite' });
    expect(gateRefusal(box, () => box.workspace.writeText('src/hard.txt', 'hacked'))).toBe('hard-link');
    expect(readFileSync(path.join(box.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('refuses to edit a hard link to a file inside the root but outside the scope, and still reads it', async () => {
    const box = sandbox();
    linkSync(path.join(box.root, 'package.json'), path.join(box.root, 'src/package.json'));
    expect(gateRefusal(box, () => box.workspace.writeText('src/package.json', '{}'))).toBe('hard-link');
    expect(await toolAttack(box, 'read', 'src/package.json')).toMatchObject({ ok: true });
  });
});

describe('special files', () => {
  it.skipIf(!HAS_MKFIFO)('refuses a FIFO for read, edit and delete, and a read never blocks on it', async () => {
    const box = sandbox();
    const fifo = path.join(box.root, 'src/pipe.ts');
    execFileSync('mkfifo', [fifo]);
    // Should a read ever open the FIFO and block, this writer releases it after two seconds, and the time check fails.
    const writer = spawn('sh', ['-c', 'sleep 2; exec 3>"$0"', fifo], { stdio: 'ignore' });
    try {
      const started = Date.now();
      expect(await toolAttack(box, 'read', 'src/pipe.ts')).toMatchObject({ ok: false, rule: 'not-a-regular-file' });
      expect(gateRefusal(box, () => box.workspace.readText('src/pipe.ts'))).toBe('not-a-regular-file');
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await toolAttack(box, 'edit', 'src/pipe.ts')).toMatchObject({ rule: 'not-a-regular-file' });
      expect(await toolAttack(box, 'delete', 'src/pipe.ts')).toMatchObject({ rule: 'not-a-regular-file' });
    } finally {
      writer.kill();
    }
  });

  it('refuses a socket for read, edit and delete', async () => {
    const box = sandbox();
    const socket = path.join(box.root, 'src/s.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await toolAttack(box, 'read', 'src/s.sock')).toMatchObject({ rule: 'not-a-regular-file' });
      expect(await toolAttack(box, 'edit', 'src/s.sock')).toMatchObject({ rule: 'not-a-regular-file' });
      expect(await toolAttack(box, 'delete', 'src/s.sock')).toMatchObject({ rule: 'not-a-regular-file' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a device file inside the root', async (context) => {
    const box = sandbox();
    const device = path.join(box.root, 'src/null.ts');
    try {
      execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      context.skip('mknod is not permitted here (needs CAP_MKNOD)');
    }
    expect(await toolAttack(box, 'read', 'src/null.ts')).toMatchObject({ rule: 'not-a-regular-file' });
    expect(gateRefusal(box, () => box.workspace.writeText('src/null.ts', 'x'))).toBe('not-a-regular-file');
  });

  it('refuses a folder as the target of an edit, a write or a delete; reading one points to list_files', async () => {
    const box = sandbox();
    expect(await toolAttack(box, 'edit', 'src/lib')).toMatchObject({ rule: 'not-a-regular-file' });
    expect(await toolAttack(box, 'delete', 'src/lib')).toMatchObject({ rule: 'not-a-regular-file' });
    expect(gateRefusal(box, () => box.workspace.writeText('src/lib', 'x'))).toBe('not-a-regular-file');
    expect(await toolAttack(box, 'read', 'src/lib')).toMatchObject({ rule: 'not-a-file' });
  });
});

describe('overwrites and sizes', () => {
  it('never overwrites through create_file', async () => {
    const box = sandbox();
    expect(await toolAttack(box, 'create', 'src/a.ts')).toMatchObject({ ok: false, rule: 'no-overwrite' });
    expect(readFileSync(path.join(box.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('caps the size of an edit and of a created file, from the tool context or the workspace option', async () => {
    const box = sandbox(['src/**'], { maxWriteBytes: 32 });
    const context = await contextFor(box.workspace, 40);
    await runTool(readFileTool, { path: 'src/a.ts' }, context);
    const grown = await runTool(editFileTool, { path: 'src/a.ts', old_text: '1', new_text: '1'.repeat(40) }, context);
    expect(grown).toMatchObject({ ok: false, rule: 'size-cap' });
    expect(grown.content).toMatch(/"src\/a\.ts" would be \d+ bytes, over the 40-byte limit/);
    expect(await runTool(createFileTool, { path: 'src/big.ts', content: 'x'.repeat(41) }, context)).toMatchObject({ rule: 'size-cap' });
    expect(await runTool(createFileTool, { path: 'src/fits.ts', content: 'x'.repeat(40) }, context)).toMatchObject({ ok: true });
    expect(gateRefusal(box, () => box.workspace.createText('src/big2.ts', 'é'.repeat(17)))).toBe('size-cap');
    expect(existsSync(path.join(box.root, 'src/big.ts'))).toBe(false);
  });
});

describe('the gate in whole scripted tasks', () => {
  it('refuses attacks made by a model, each as a tool_rejected event naming the rule, and the outside stays as it was', async () => {
    const repo = copyOfTaskFixture();
    const outside = scratchDirectory('file-gate-outside-');
    writeFileSync(path.join(outside, 'secret.js'), SECRET);
    symlinkSync(outside, path.join(repo, 'src/out'));
    linkSync(path.join(outside, 'secret.js'), path.join(repo, 'src/hard.js'));
    const before = statSync(path.join(outside, 'secret.js'));
    const run = await runScripted(
      [
        act(call('read_file', { path: 'src/out/secret.js' })),
        act(call('create_file', { path: 'src/out/planted.js', content: 'x' })),
        act(call('read_file', { path: 'src/hard.js' })),
        act(call('edit_file', { path: 'src/hard.js', old_text: 'outside', new_text: 'inside' })),
        act(call('delete_file', { path: 'src/hard.js' })),
        act(call('create_file', { path: '../escape.js', content: 'x' })),
        act(call('create_file', { path: 'test/new.mjs', content: 'x' })),
        act(call('read_file', { path: '.git/config' })),
        act(call('task_blocked', { reason: 'every attack was refused' })),
      ],
      { repo, task: { scope: ['src/**'] }, approver: async () => true },
    );
    expect(run.of('tool_rejected').map((event) => [event.tool, event.rule])).toEqual([
      ['read_file', 'symlink'],
      ['create_file', 'symlink'],
      ['edit_file', 'hard-link'],
      ['delete_file', 'hard-link'],
      ['create_file', 'outside-root'],
      ['create_file', 'outside-scope'],
      ['read_file', 'protected-folder'],
    ]);
    expect(run.of('tool_rejected')[0]!.reason).toContain('src/out/secret.js');
    expect(readdirSync(outside)).toEqual(['secret.js']);
    expect(readFileSync(path.join(outside, 'secret.js'), 'utf8')).toBe(SECRET);
    expect(statSync(path.join(outside, 'secret.js')).mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(path.join(repo, '../escape.js'))).toBe(false);
    expect(run.result.changedFiles).toEqual([]);
  });
});
