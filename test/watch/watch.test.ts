import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { buildHandbook, openHandbook, watchHandbook, type WatchEvent, type WatchHandle, type WatchSyncEvent } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const LONG = 180_000;

interface Watching {
  handle: WatchHandle;
  events: WatchEvent[];
  syncs(): WatchSyncEvent[];
  errors(): string[];
  /** The first event from now on that satisfies `predicate`. */
  next<T extends WatchEvent>(predicate: (event: WatchEvent) => event is T): Promise<T>;
}

async function builtCopy(): Promise<{ repo: string; database: string }> {
  const repo = copyOfFixture();
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  return { repo, database };
}

/** Watches with the catch-up sync done, so what follows comes from the test's own changes. */
async function startWatching(repo: string, database: string, debounceMs = 100): Promise<Watching> {
  const events: WatchEvent[] = [];
  const waiters: Array<{ predicate: (event: WatchEvent) => boolean; resolve: (event: WatchEvent) => void }> = [];
  const handle = await watchHandbook(repo, {
    database,
    debounceMs,
    onEvent: (event) => {
      events.push(event);
      for (const waiter of waiters.filter((candidate) => candidate.predicate(event))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    },
  });
  await handle.settled();
  return {
    handle,
    events,
    syncs: () => events.filter((event): event is WatchSyncEvent => event.type === 'sync'),
    errors: () => events.flatMap((event) => (event.type === 'error' ? [event.message] : [])),
    next: <T extends WatchEvent>(predicate: (event: WatchEvent) => event is T) => new Promise<T>((resolve) => waiters.push({ predicate, resolve: resolve as (event: WatchEvent) => void })),
  };
}

/**
 * A sync that saw `file` change. Writing it last makes this deterministic: a sync that saw it
 * reread the tree after everything written before it.
 */
const syncOf =
  (file: string) =>
  (event: WatchEvent): event is WatchSyncEvent =>
    event.type === 'sync' && [...event.added, ...event.modified, ...event.removed].includes(file);

const edit = (repo: string, file: string, change: (text: string) => string): void => {
  const target = path.join(repo, file);
  writeFileSync(target, change(readFileSync(target, 'utf8')));
};

const appendFunction = (name: string) => (text: string) => `${text}\nexport function ${name}(): number {\n  return 1;\n}\n`;

/** Deletes the database with its -wal and -shm files, as `rm handbook.db*` does. */
const deleteDatabase = (database: string): void => {
  const folder = path.dirname(database);
  for (const name of readdirSync(folder).filter((candidate) => candidate.startsWith(path.basename(database)))) rmSync(path.join(folder, name));
};

describe('handbook watch', () => {
  it('syncs one edit with one sync and stores what a cold build stores', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    try {
      expect(watching.events.map((event) => event.type)).toEqual(['ready', 'sync']);
      expect(watching.syncs()[0]).toMatchObject({ events: 0, upToDate: true });
      const before = watching.syncs().length;
      edit(repo, 'src/security/secrets.ts', appendFunction('maskNothing'));
      const synced = await watching.next(syncOf('src/security/secrets.ts'));
      await watching.handle.settled();
      expect(watching.syncs().slice(before)).toEqual([synced]);
      expect(synced).toMatchObject({ upToDate: false, added: [], modified: ['src/security/secrets.ts'], removed: [], entries: { added: 1, removed: 0 } });
      // One edit is one change seen, though the system sends 2 to 4 notices of it; chokidar's may come after the sync its notices woke.
      const eventsSince = (): number => watching.syncs().slice(before).reduce((sum, sync) => sum + sync.events, 0);
      await vi.waitFor(() => expect(eventsSince()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      await watching.handle.settled();
      expect(eventsSince()).toBe(1);
      await expectSameAsColdBuild(repo, database, 'one edit');
    } finally {
      await watching.handle.close();
    }
    expect(watching.events.at(-1)?.type).toBe('closed');
    expect(watching.errors()).toEqual([]);
    expect(await watching.handle.stopped()).toBeUndefined();
  });

  /** Watches, makes one change, and expects a sync within 5 s that leaves what a cold build of the tree gives. */
  async function expectSyncedAsColdBuild(repo: string, database: string, what: string, change: () => void): Promise<void> {
    const watching = await startWatching(repo, database);
    try {
      const synced = watching.next((event): event is WatchSyncEvent => event.type === 'sync');
      change();
      const outcome = await Promise.race([synced, new Promise<'none'>((resolve) => setTimeout(() => resolve('none'), 5_000))]);
      expect(outcome).not.toBe('none');
      await watching.handle.settled();
      await expectSameAsColdBuild(repo, database, what);
    } finally {
      await watching.handle.close();
    }
  }

  it('syncs when the README alone changes, whose first paragraph the overview quotes without a package.json description', async () => {
    const repo = copyOfFixture();
    edit(repo, 'package.json', (text) => text.replace(/\n {2}"description": "[^"]*",/, ''));
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    await expectSyncedAsColdBuild(repo, database, 'a README edit', () =>
      edit(repo, 'README.md', (text) => text.replace('mini-harness is a small command-line harness', 'mini-harness is a tiny command-line harness')),
    );
  });

  it('syncs when a file a tsconfig extends changes, whatever it is named', async () => {
    const repo = copyOfFixture();
    edit(repo, 'tsconfig.json', (text) => text.replace(/\n {4}"baseUrl": "\.",\n {4}"paths": \{\n[^}]*\},/, '').replace('{\n', '{\n  "extends": "./configs/base.json",\n'));
    mkdirSync(path.join(repo, 'configs'));
    writeFileSync(path.join(repo, 'configs/base.json'), '{ "compilerOptions": { "paths": { "@harness/*": ["../src/*"] } } }\n');
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    // logger.ts imports through this alias: only the extended file says where it leads.
    await expectSyncedAsColdBuild(repo, database, 'an edit of the file a tsconfig extends', () => edit(repo, 'configs/base.json', (text) => text.replace('../src/*', '../lib/*')));
  });

  it('syncs when a file a tsconfig extends changes though its name is not .json, which chokidar is told to ignore', async () => {
    const repo = copyOfFixture();
    edit(repo, 'tsconfig.json', (text) => text.replace(/\n {4}"baseUrl": "\.",\n {4}"paths": \{\n[^}]*\},/, '').replace('{\n', '{\n  "extends": "./configs/base.jsonc",\n'));
    mkdirSync(path.join(repo, 'configs'));
    writeFileSync(path.join(repo, 'configs/base.jsonc'), '{ "compilerOptions": { "paths": { "@harness/*": ["../src/*"] } } }\n');
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    await expectSyncedAsColdBuild(repo, database, 'an edit of a .jsonc file a tsconfig extends', () => edit(repo, 'configs/base.jsonc', (text) => text.replace('../src/*', '../lib/*')));
  });

  it('ends a burst of 500 file changes (a branch checkout) as a cold build, in far fewer syncs than events', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    try {
      const before = watching.syncs().length;
      mkdirSync(path.join(repo, 'src/plugins'));
      for (let index = 0; index < 480; index += 1) {
        writeFileSync(
          path.join(repo, `src/plugins/plugin${index}.ts`),
          `import { maskSecrets } from '../security/secrets.js';\n\n/** Plugin ${index}. */\nexport function plugin${index}(text: string): string {\n  return maskSecrets(text) + ${index};\n}\n`,
        );
      }
      for (const file of ['src/agent/agentLoop.ts', 'src/agent/promptBuilder.ts', 'src/config/loadConfig.ts', 'src/context/tokens.ts', 'src/hooks.ts', 'src/observability/logger.ts', 'src/providers/retry.ts', 'src/session/sessionStore.ts', 'src/tools/files.ts', 'src/tools/shell.ts']) {
        edit(repo, file, appendFunction(`checkedOut${path.basename(file, '.ts')}`));
      }
      rmSync(path.join(repo, 'src/context/compaction.ts'));
      renameSync(path.join(repo, 'src/tools/webFetch.ts'), path.join(repo, 'src/tools/fetchPage.ts'));
      writeFileSync(path.join(repo, 'src/zzLast.ts'), 'export const last = 1;\n');
      await watching.next(syncOf('src/zzLast.ts'));
      const eventsSince = (): number => watching.syncs().slice(before).reduce((sum, sync) => sum + sync.events, 0);
      // The system's change notices can start a sync before chokidar has reported the new folder's files; those come with a later one.
      await vi.waitFor(() => expect(eventsSince()).toBeGreaterThanOrEqual(480), { timeout: 60_000, interval: 100 });
      await watching.handle.settled();
      await expectSameAsColdBuild(repo, database, 'checkout of a branch');
      const burst = watching.syncs().slice(before);
      const events = eventsSince();
      expect(burst.length * 20).toBeLessThan(events);

      // And back: the whole folder goes at once, which drops most entries and rebuilds from scratch.
      rmSync(path.join(repo, 'src/plugins'), { recursive: true });
      rmSync(path.join(repo, 'src/zzLast.ts'));
      await watching.next(syncOf('src/zzLast.ts'));
      await watching.handle.settled();
      await expectSameAsColdBuild(repo, database, 'checkout back');
      expect(watching.errors()).toEqual([]);
    } finally {
      await watching.handle.close();
    }
  }, LONG);

  it('follows an editor that saves through a temporary file and a swap file', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    try {
      const target = path.join(repo, 'src/tools/shell.ts');
      // Write a temporary file beside it, then rename it over the original (VS Code, JetBrains).
      const swap = path.join(repo, 'src/tools/.shell.ts.swp');
      writeFileSync(swap, 'swap');
      writeFileSync(`${target}.tmp`, appendFunction('savedAtomically')(readFileSync(target, 'utf8')));
      renameSync(`${target}.tmp`, target);
      rmSync(swap);
      const saved = await watching.next(syncOf('src/tools/shell.ts'));
      await watching.handle.settled();
      expect(saved.modified).toEqual(['src/tools/shell.ts']);
      await expectSameAsColdBuild(repo, database, 'save through a temporary file');

      // Move the original to a backup, write the file anew, delete the backup (vim's `backupcopy=no`).
      renameSync(target, `${target}~`);
      writeFileSync(target, appendFunction('savedWithBackup')(readFileSync(`${target}~`, 'utf8')));
      rmSync(`${target}~`);
      await watching.next(syncOf('src/tools/shell.ts'));
      await watching.handle.settled();
      await expectSameAsColdBuild(repo, database, 'save with a backup');
      expect(watching.syncs().flatMap((sync) => [...sync.added, ...sync.modified, ...sync.removed]).filter((file) => !file.endsWith('.ts'))).toEqual([]);
      expect(watching.errors()).toEqual([]);
    } finally {
      await watching.handle.close();
    }
  }, LONG);

  it('survives files and folders that vanish while a sync reads the tree', async () => {
    const { repo, database } = await builtCopy();
    // Syncing on every event keeps syncs running while another process churns the tree.
    const watching = await startWatching(repo, database, 0);
    try {
      const churn = spawn(process.execPath, ['--input-type=module', '-e', CHURN, repo, '2000'], { stdio: 'ignore' });
      await new Promise((resolve) => churn.on('exit', resolve));
      writeFileSync(path.join(repo, 'src/zzLast.ts'), 'export const last = 1;\n');
      await watching.next(syncOf('src/zzLast.ts'));
      await watching.handle.settled();
      expect(watching.syncs().length).toBeGreaterThan(2);
      expect(watching.errors()).toEqual([]);
      await expectSameAsColdBuild(repo, database, 'churn');
    } finally {
      await watching.handle.close();
    }
  }, LONG);

  it('analyzes a file with a syntax error partially and catches up once it is fixed', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    try {
      edit(repo, 'src/providers/retry.ts', (text) => text.replace('export async function', 'export async function (( broken'));
      const broken = await watching.next(syncOf('src/providers/retry.ts'));
      await watching.handle.settled();
      expect(broken.syntaxErrors).toBe(1);
      await expectSameAsColdBuild(repo, database, 'syntax error');
      edit(repo, 'src/providers/retry.ts', (text) => text.replace('export async function (( broken', 'export async function'));
      const fixed = await watching.next(syncOf('src/providers/retry.ts'));
      await watching.handle.settled();
      expect(fixed.syntaxErrors).toBe(0);
      await expectSameAsColdBuild(repo, database, 'syntax error fixed');
      expect(watching.errors()).toEqual([]);
    } finally {
      await watching.handle.close();
    }
  }, LONG);

  // Root reads a file whatever its mode.
  it.skipIf(process.getuid?.() === 0)('leaves out a file it may not read, and takes it back once it may', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    const secret = path.join(repo, 'src/tools/approval.ts');
    try {
      // A mode change alone may raise no event; the edit beside it makes the sync certain.
      chmodSync(secret, 0o000);
      edit(repo, 'src/hooks.ts', appendFunction('afterChmod'));
      const denied = await watching.next(syncOf('src/hooks.ts'));
      await watching.handle.settled();
      expect(denied.unreadable).toBe(1);
      expect(denied.removed).toEqual(['src/tools/approval.ts']);
      await expectSameAsColdBuild(repo, database, 'unreadable file');
      chmodSync(secret, 0o644);
      edit(repo, 'src/hooks.ts', appendFunction('afterChmodBack'));
      const allowed = await watching.next(syncOf('src/tools/approval.ts'));
      await watching.handle.settled();
      expect(allowed.unreadable).toBe(0);
      await expectSameAsColdBuild(repo, database, 'readable again');
      expect(watching.errors()).toEqual([]);
    } finally {
      chmodSync(secret, 0o644);
      await watching.handle.close();
    }
  }, LONG);

  it('reports a sync that fails on a locked database, keeps watching, and retries by itself once the lock is gone', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    const blocker = new Database(database);
    try {
      blocker.exec('BEGIN EXCLUSIVE');
      edit(repo, 'src/tools/files.ts', appendFunction('whileLocked'));
      const failure = await watching.next((event): event is Extract<WatchEvent, { type: 'error' }> => event.type === 'error');
      expect(failure.code).toBe('DATABASE_LOCKED');
      blocker.exec('ROLLBACK');
      // No file event follows: the retry alone stores the change, starting over from the stored generation.
      const recovered = await watching.next(syncOf('src/tools/files.ts'));
      await watching.handle.settled();
      expect(recovered.modified).toEqual(['src/tools/files.ts']);
      await expectSameAsColdBuild(repo, database, 'after a failed store');
    } finally {
      blocker.close();
      await watching.handle.close();
    }
  }, LONG);

  it('stops by itself when its database is deleted, instead of syncing into a file nobody reads', async () => {
    const { repo, database } = await builtCopy();
    const watching = await startWatching(repo, database);
    deleteDatabase(database);
    edit(repo, 'src/tools/files.ts', appendFunction('afterDelete'));
    const stoppedBy = await watching.handle.stopped();
    expect(stoppedBy).toMatchObject({ name: 'HandbookError', code: 'NO_HANDBOOK' });
    expect(watching.events.slice(-2)).toMatchObject([{ type: 'error', code: 'NO_HANDBOOK', fatal: true }, { type: 'closed' }]);
    expect(watching.syncs()).toHaveLength(1);
    await watching.handle.close();
    expect(watching.events.at(-1)?.type).toBe('closed');
  }, LONG);

  it('refuses a debounce longer than a minute, which Node would turn into 1 ms', async () => {
    const { repo, database } = await builtCopy();
    await expect(watchHandbook(repo, { database, debounceMs: 1e10, onEvent: () => undefined })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('waits for a sync in progress when closed, then emits nothing more', async () => {
    const { repo, database } = await builtCopy();
    // Changed while nothing watched: the catch-up sync has 200 files to add.
    for (let index = 0; index < 200; index += 1) writeFileSync(path.join(repo, `src/extra${index}.ts`), `export const extra${index} = ${index};\n`);
    const events: WatchEvent[] = [];
    const handle = await watchHandbook(repo, { database, onEvent: (event) => events.push(event) });
    // One turn of the timers: the catch-up sync, scheduled first, has started when close is called.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await handle.close();
    expect(events.map((event) => event.type)).toEqual(['ready', 'sync', 'closed']);
    expect(events[1]).toMatchObject({ type: 'sync', events: 0 });
    expect((events[1] as WatchSyncEvent).added).toHaveLength(200);
    await handle.settled();
    await handle.close();
    expect(events).toHaveLength(3);
    await expectSameAsColdBuild(repo, database, 'closed during a sync');
  }, LONG);
});

/** Creates and deletes files, folders and symlinks to them as fast as it can, for the given milliseconds. */
const CHURN = `
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const [root, ms] = [process.argv[1], Number(process.argv[2])];
const end = Date.now() + ms;
for (let i = 0; Date.now() < end; i += 1) {
  const src = path.join(root, 'src');
  const folder = path.join(src, 'churn' + (i % 7));
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'f' + i + '.ts'), 'export const v' + i + ' = ' + i + ';\\n');
    try { symlinkSync(folder, path.join(src, 'link' + (i % 5))); } catch {}
    writeFileSync(path.join(src, 'flash' + (i % 3) + '.ts'), 'export function flash' + i + '() { return ' + i + '; }\\n');
    rmSync(path.join(src, 'flash' + ((i + 1) % 3) + '.ts'), { force: true });
    if (i % 2) rmSync(folder, { recursive: true, force: true });
    if (i % 3 === 0) rmSync(path.join(src, 'link' + ((i + 2) % 5)), { force: true });
  } catch {}
}
`;

interface WatchProcess {
  lines: string[];
  stderr(): string;
  line(predicate: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

function spawnWatch(args: string[]): WatchProcess {
  const child = spawn(process.execPath, [CLI, 'watch', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ predicate: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((candidate) => candidate.predicate(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  return {
    lines,
    stderr: () => stderr,
    line: (predicate) => {
      const seen = lines.find(predicate);
      return seen === undefined ? new Promise((resolve) => waiters.push({ predicate, resolve })) : Promise.resolve(seen);
    },
    // 'close', not 'exit': by then everything the process wrote has been read.
    exited: new Promise((resolve) => child.on('close', (code) => resolve(code))),
    kill: (signal) => child.kill(signal),
  };
}

const jsonOf = (line: string): WatchEvent => JSON.parse(line) as WatchEvent;

describe('handbook watch (CLI)', () => {
  it('prints NDJSON events and closes on SIGTERM with exit code 0', async () => {
    const { repo, database } = await builtCopy();
    const watch = spawnWatch([repo, '--db', database, '--json', '--debounce', '50']);
    const ready = jsonOf(await watch.line((line) => jsonOf(line).type === 'ready'));
    expect(ready).toMatchObject({ type: 'ready', root: repo, database });
    await watch.line((line) => jsonOf(line).type === 'sync');
    edit(repo, 'src/security/secrets.ts', appendFunction('maskNothing'));
    const synced = jsonOf(await watch.line((line) => syncOf('src/security/secrets.ts')(jsonOf(line))));
    expect(synced).toMatchObject({ type: 'sync', modified: ['src/security/secrets.ts'], entries: { added: 1 } });
    watch.kill('SIGTERM');
    expect(await watch.exited).toBe(0);
    expect(jsonOf(watch.lines.at(-1)!).type).toBe('closed');
    expect(watch.lines.every((line) => typeof jsonOf(line).time === 'string')).toBe(true);
    expect(watch.stderr()).toBe('');
    await expectSameAsColdBuild(repo, database, 'watched by the CLI');
  }, LONG);

  it('prints one line per sync and closes on SIGINT with exit code 0', async () => {
    const { repo, database } = await builtCopy();
    const watch = spawnWatch([repo, '--db', database]);
    await watch.line((line) => / watching /.test(line));
    await watch.line((line) => / up to date \(\d+ ms\)$/.test(line));
    edit(repo, 'src/tools/shell.ts', appendFunction('runNothing'));
    const synced = await watch.line((line) => / synced /.test(line));
    expect(synced).toMatch(/^\d\d:\d\d:\d\d synced 1 file: 1 entries added, \d+ changed, 0 removed, \d+ restaged \(\d+ ms\)$/);
    watch.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.lines.at(-1)).toMatch(/^\d\d:\d\d:\d\d stopped watching$/);
    expect(watch.stderr()).toBe('');
  }, LONG);

  it('refuses a repository without a handbook with one line and exit code 3', async () => {
    const repo = copyOfFixture();
    const watch = spawnWatch([repo, '--db', path.join(scratchDirectory(), 'none.db')]);
    expect(await watch.exited).toBe(3);
    expect(watch.stderr().trim().split('\n')).toHaveLength(1);
    expect(watch.stderr()).toMatch(/no handbook/);
  });

  it('rejects a debounce that is not a number of milliseconds, or is longer than a minute', async () => {
    const { repo, database } = await builtCopy();
    const watch = spawnWatch([repo, '--db', database, '--debounce', 'soon']);
    expect(await watch.exited).toBe(2);
    expect(watch.stderr()).toMatch(/--debounce/);
    const notDigits = spawnWatch([repo, '--db', database, '--debounce', '1e3']);
    expect(await notDigits.exited).toBe(2);
    expect(notDigits.stderr()).toBe('handbook: invalid option --debounce: a whole number of milliseconds (see `handbook --help`)\n');
    const tooLong = spawnWatch([repo, '--db', database, '--debounce', '10000000000']);
    expect(await tooLong.exited).toBe(2);
    expect(tooLong.stderr()).toBe('handbook: invalid option --debounce: at most 60000 ms (a minute) (see `handbook --help`)\n');
    expect(openHandbook(repo, { database }).summary.generation).toBe(1);
  });

  it('stops with one line and exit 2 when the repository is deleted while watched', async () => {
    const { repo, database } = await builtCopy();
    const watch = spawnWatch([repo, '--db', database]);
    await watch.line((line) => / up to date \(\d+ ms\)$/.test(line));
    rmSync(repo, { recursive: true });
    expect(await watch.exited).toBe(2);
    expect(watch.stderr()).toMatch(/^handbook: the repository .*mini-harness was deleted or replaced while it was watched \(run `handbook watch` again .*\)\n$/);
    expect(watch.lines.at(-1)).toMatch(/ stopped watching$/);
  }, LONG);

  it('stops with one line and exit 3 when its database is deleted, and reports no sync into it', async () => {
    const { repo, database } = await builtCopy();
    const watch = spawnWatch([repo, '--db', database]);
    await watch.line((line) => / up to date \(\d+ ms\)$/.test(line));
    deleteDatabase(database);
    edit(repo, 'src/tools/shell.ts', appendFunction('runNothing'));
    expect(await watch.exited).toBe(3);
    expect(watch.stderr()).toMatch(/^handbook: the handbook database .*handbook\.db was deleted or replaced while it was watched, so syncs could no longer reach it \(.*\)\n$/);
    expect(watch.lines.some((line) => / synced /.test(line))).toBe(false);
    expect(watch.lines.at(-1)).toMatch(/ stopped watching$/);
  }, LONG);
});
