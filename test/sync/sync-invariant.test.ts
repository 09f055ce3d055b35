import { readFileSync, renameSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, syncHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

type Edit = { name: string; apply: (repo: string) => void };

const edit = (repo: string, file: string, change: (text: string) => string): void => {
  const target = path.join(repo, file);
  writeFileSync(target, change(readFileSync(target, 'utf8')));
};

/** The edits the issue names, in an order where each one leaves something for the next. */
const SCRIPT: Edit[] = [
  { name: 'add a function', apply: (repo) => edit(repo, 'src/security/secrets.ts', (text) => `${text}\nexport function maskAll(texts: string[]): string[] {\n  return texts.map((text) => maskSecrets(text));\n}\n`) },
  { name: 'change a body', apply: (repo) => edit(repo, 'src/security/secrets.ts', (text) => text.replace('if (value.length <= 12) return REDACTED;', 'if (value.length <= 16) return REDACTED;\n  if (value.startsWith("x")) return maskSecrets(value);')) },
  { name: 'rename a function and its uses', apply: (repo) => {
    for (const file of ['src/security/secrets.ts', 'src/observability/logger.ts', 'src/session/sessionStore.ts', 'src/tools/shell.ts']) edit(repo, file, (text) => text.replaceAll('maskSecrets', 'redactSecrets'));
  } },
  { name: 'rename a callee but not its callers', apply: (repo) => edit(repo, 'src/security/secrets.ts', (text) => text.replace('export function redactValue(', 'export function hideValue(')) },
  { name: 'move a function to another file', apply: (repo) => {
    edit(repo, 'src/security/secrets.ts', (text) => text.replace(/\nexport function maskAll[\s\S]*?\n}\n/, '\n'));
    edit(repo, 'src/tools/truncate.ts', (text) => `import { redactSecrets } from '../security/secrets.js';\n${text}\nexport function maskAll(texts: string[]): string[] {\n  return texts.map((text) => redactSecrets(text));\n}\n`);
  } },
  { name: 'delete a function', apply: (repo) => edit(repo, 'src/context/tokens.ts', (text) => text.replace(/\n(\/\*\*[^]*?\*\/\n)?export function countHistoryTokens[\s\S]*?\n}\n/, '\n')) },
  { name: 'add a file', apply: (repo) => writeFileSync(path.join(repo, 'src/security/audit.ts'), "import { redactSecrets } from './secrets.js';\n\nexport const auditTrail: string[] = [];\n\n/** Records an action with secrets masked. */\nexport function audit(action: string): void {\n  auditTrail.push(redactSecrets(action));\n}\n") },
  { name: 'use the added file', apply: (repo) => edit(repo, 'src/tools/shell.ts', (text) => `import { audit } from '../security/audit.js';\n${text.replace(/(export async function \w+\([^)]*\)[^{]*\{)/, '$1\n  audit("shell");')}`) },
  { name: 'rename a file', apply: (repo) => {
    mkdirSync(path.join(repo, 'src/audit'), { recursive: true });
    renameSync(path.join(repo, 'src/security/audit.ts'), path.join(repo, 'src/audit/trail.ts'));
    edit(repo, 'src/audit/trail.ts', (text) => text.replace("'./secrets.js'", "'../security/secrets.js'"));
  } },
  { name: 'delete a file', apply: (repo) => rmSync(path.join(repo, 'src/context/compaction.ts')) },
  { name: 'introduce a syntax error', apply: (repo) => edit(repo, 'src/providers/retry.ts', (text) => text.replace('export async function', 'export async function (( broken')) },
  { name: 'fix it', apply: (repo) => edit(repo, 'src/providers/retry.ts', (text) => text.replace('export async function (( broken', 'export async function')) },
  { name: 'a syntax error that nests what follows it', apply: (repo) => edit(repo, 'src/tools/files.ts', (text) => text.replace('export async function editFileTool', 'class {\nexport async function editFileTool')) },
  { name: 'fix that too', apply: (repo) => edit(repo, 'src/tools/files.ts', (text) => text.replace('class {\nexport async function editFileTool', 'export async function editFileTool')) },
];

describe('sync gives what a cold build gives', () => {
  let repo: string;
  let database: string;
  let live: LiveHandbook;

  beforeAll(async () => {
    repo = copyOfFixture();
    database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    live = await LiveHandbook.open(repo, { database });
  });
  afterAll(() => live?.close());

  it('is a no-op on an empty diff', async () => {
    const summary = await live.sync();
    expect(summary.upToDate).toBe(true);
    expect(summary.resolvedFiles).toBe(0);
  });

  it.each(SCRIPT.map((step, position) => [position + 1, step.name, step] as const))('step %i, %s: the kept-open handbook equals a cold build', async (_position, name, step) => {
    step.apply(repo);
    const summary = await live.sync();
    expect(summary.upToDate).toBe(false);
    expect(summary.fullRebuild).toBeUndefined();
    await expectSameAsColdBuild(repo, database, name);
  });
});

/** A fresh copy of the fixture, built, with a handbook kept open on it for the length of `use`. */
async function withKeptOpenHandbook(use: (repo: string, database: string, live: LiveHandbook) => Promise<void>): Promise<void> {
  const repo = copyOfFixture();
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  const live = await LiveHandbook.open(repo, { database });
  try {
    await use(repo, database, live);
  } finally {
    live.close();
  }
}

/**
 * Another connection (a `handbook sync` process) stores an edit of secrets.ts that is then undone
 * before the kept-open handbook looks: the files are back to what it last saw, but the store is not.
 */
async function storedElsewhereThenUndone(repo: string, database: string, step: Edit): Promise<void> {
  const secrets = path.join(repo, 'src/security/secrets.ts');
  const seen = readFileSync(secrets, 'utf8');
  step.apply(repo);
  await syncHandbook(repo, { database });
  writeFileSync(secrets, seen);
}

describe('a kept-open handbook that another process writes to', () => {
  it('notices the foreign write and starts again from the store instead of trusting what it wrote last', async () => {
    await withKeptOpenHandbook(async (repo, database, live) => {
      SCRIPT[0]!.apply(repo);
      await live.sync();
      await storedElsewhereThenUndone(repo, database, SCRIPT[1]!);
      expect((await live.sync()).upToDate).toBe(false);
      await expectSameAsColdBuild(repo, database, 'after a foreign write');
      // A rebuild by another process replaces the generation; the kept-open handbook follows it too.
      await buildHandbook(repo, { database });
      SCRIPT[2]!.apply(repo);
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'after a foreign rebuild');
    });
  }, 60_000);

  it('notices it too when it has not written anything itself yet', async () => {
    await withKeptOpenHandbook(async (repo, database, live) => {
      expect((await live.sync()).upToDate).toBe(true);
      await storedElsewhereThenUndone(repo, database, SCRIPT[0]!);
      expect((await live.sync()).upToDate).toBe(false);
      await expectSameAsColdBuild(repo, database, 'a foreign write before any of its own');
    });
  }, 60_000);
});

describe('a kept-open handbook keeps its stages when nothing they read moved', () => {
  it('still sees a unit that became exported in an entry file become an entry point, though no word or call changed', async () => {
    await withKeptOpenHandbook(async (repo, database, live) => {
      edit(repo, 'src/index.ts', (text) => `${text}\nfunction printUsage(): void {\n  process.stderr.write('usage');\n}\n`);
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'an uncalled helper');
      edit(repo, 'src/index.ts', (text) => text.replace('\nfunction printUsage(', '\nexport function printUsage('));
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'the helper exported');
      // A body edit that adds no word and no call: the stages are kept, the lines below it move.
      edit(repo, 'src/index.ts', (text) => text.replace("process.stderr.write('usage');", "process.stderr.write('usage');\n  void 0;"));
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'a body edit');
    });
  }, 60_000);
});

describe('a kept-open handbook and the compiler settings', () => {
  it('reads the tsconfig again when it changes, and resolves everything again under the new settings', async () => {
    await withKeptOpenHandbook(async (repo, database, live) => {
      SCRIPT[0]!.apply(repo);
      expect((await live.sync()).fullRebuild).toBeUndefined();
      // A new path alias: imports spelled with it resolve only under the new settings.
      edit(repo, 'tsconfig.json', (text) => text.replace('"@harness/*": ["src/*"]', '"@harness/*": ["src/*"],\n      "@sec": ["src/security/secrets.ts"]'));
      edit(repo, 'src/tools/truncate.ts', (text) => `import { maskSecrets as viaAlias } from '@sec';\n${text}\nexport const maskedTail = (text: string): string => viaAlias(text);\n`);
      const summary = await live.sync();
      expect(summary.fullRebuild).toBe('compiler settings changed');
      await expectSameAsColdBuild(repo, database, 'a new path alias');
    });
  }, 60_000);

  it('reads a tsconfig again when a file it extends changes', async () => {
    const repo = copyOfFixture();
    writeFileSync(path.join(repo, 'tsconfig.base.json'), readFileSync(path.join(repo, 'tsconfig.json'), 'utf8'));
    writeFileSync(path.join(repo, 'tsconfig.json'), JSON.stringify({ extends: './tsconfig.base.json', include: ['src/**/*.ts'] }, null, 2));
    // Settings files written a while ago, so the kept-open handbook trusts what it read of them until they change.
    const past = new Date(Date.now() - 60_000);
    for (const file of ['tsconfig.json', 'tsconfig.base.json', 'package.json']) utimesSync(path.join(repo, file), past, past);
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      SCRIPT[0]!.apply(repo);
      await live.sync();
      edit(repo, 'tsconfig.base.json', (text) => text.replace('"@harness/*": ["src/*"]', '"@harness/*": ["src/*"],\n      "@sec": ["src/security/secrets.ts"]'));
      edit(repo, 'src/tools/truncate.ts', (text) => `import { maskSecrets as viaAlias } from '@sec';\n${text}\nexport const maskedTail = (text: string): string => viaAlias(text);\n`);
      expect((await live.sync()).fullRebuild).toBe('compiler settings changed');
      await expectSameAsColdBuild(repo, database, 'an alias in the extended tsconfig');
    } finally {
      live.close();
    }
  }, 60_000);
});

describe('a handbook stored under other analysis settings', () => {
  /**
   * Rewrites the stored compiler settings as an earlier version of the tool, or an earlier tsconfig, left them,
   * with what they were read from: settings stored beside the digest of the files as they are now would be
   * taken for the settings those files read to, as `status` takes them, and no sync would read them again.
   */
  const storeSettings = (database: string, change: (compiler: Record<string, unknown>) => void): void => {
    const raw = new Database(database);
    try {
      const { id, settings } = raw.prepare("SELECT id, settings FROM generations WHERE status = 'complete' ORDER BY id DESC LIMIT 1").get() as { id: number; settings: string };
      const parsed = JSON.parse(settings) as { compiler: string; compilerInputs: { files: string[]; digest: string } };
      const compiler = JSON.parse(parsed.compiler) as Record<string, unknown>;
      change(compiler);
      const compilerInputs = { ...parsed.compilerInputs, digest: 'of the files as they were' };
      raw.prepare('UPDATE generations SET settings = ? WHERE id = ?').run(JSON.stringify({ ...parsed, compiler: JSON.stringify(compiler), compilerInputs }), id);
    } finally {
      raw.close();
    }
  };

  it('is analyzed again whole when an earlier version analyzed it, once: the next sync in a new process starts from what this one stored', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    storeSettings(database, (compiler) => delete compiler.analysis);
    const first = await syncHandbook(repo, { database });
    expect(first.fullRebuild).toBe('the handbook was analyzed by another version of harness-handbook');
    await expectSameAsColdBuild(repo, database, 'after an analysis version change');
    expect((await syncHandbook(repo, { database })).upToDate).toBe(true);
  }, 60_000);

  it('keeps the settings a full re-analysis found, so a later sync in a new process does not start over again', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    storeSettings(database, (compiler) => {
      compiler.tsconfigs = ['tsconfig.old.json'];
    });
    expect((await syncHandbook(repo, { database })).fullRebuild).toBe('compiler settings changed');
    SCRIPT[0]!.apply(repo);
    const next = await syncHandbook(repo, { database });
    expect(next.fullRebuild).toBeUndefined();
    await expectSameAsColdBuild(repo, database, 'a sync after a settings change');
  }, 60_000);
});

describe('handbook sync from the stored handbook (a new process each time)', () => {
  it('follows the same script and equals a cold build after every step', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    for (const step of SCRIPT) {
      step.apply(repo);
      const summary = await syncHandbook(repo, { database });
      expect(summary.upToDate, step.name).toBe(false);
      // Only the changed files and those that could depend on them are resolved again.
      expect(summary.resolvedFiles, step.name).toBeLessThan(summary.build.files);
      await expectSameAsColdBuild(repo, database, step.name);
    }
    // A sync and a cold build per step: 14 s beside one other test run, over 60 s under heavier load.
  }, 180_000);
});

describe('what sync must follow beyond the changed file', () => {
  const write = (repo: string, files: Record<string, string>): void => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
    }
  };

  it('a type inferred through another file: a caller that never names the edited function', async () => {
    const repo = path.join(scratchDirectory(), 'inferred');
    write(repo, {
      'src/shapes.ts': 'export class Alpha { run(): number { return 1; } }\nexport class Beta { run(): number { return 2; } }\n',
      'src/factory.ts': "import { Alpha, Beta } from './shapes';\nexport function makeThing() { return new Alpha(); }\nexport function other() { return new Beta(); }\n",
      'src/holder.ts': "import { makeThing } from './factory';\nexport const thing = makeThing();\n",
      'src/user.ts': "import { thing } from './holder';\nexport function go(): number { return thing.run(); }\n",
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      writeFileSync(path.join(repo, 'src/factory.ts'), "import { Alpha, Beta } from './shapes';\nexport function makeThing() { return new Beta(); }\nexport function other() { return new Beta(); }\n");
      const summary = await live.sync();
      expect(summary.modified).toEqual(['src/factory.ts']);
      await expectSameAsColdBuild(repo, database, 'return another class');
    } finally {
      live.close();
    }
  });

  it('a new implementation of an interface reaches calls through the interface in files that never import it', async () => {
    const repo = path.join(scratchDirectory(), 'dispatch');
    write(repo, {
      'src/tool.ts': 'export interface Tool { execute(input: string): string }\n',
      'src/runner.ts': "import type { Tool } from './tool';\nexport function runAll(tools: Tool[]): string[] { return tools.map((tool) => tool.execute('x')); }\n",
      'src/echo.ts': "import type { Tool } from './tool';\nexport class Echo implements Tool { execute(input: string): string { return input; } }\n",
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    write(repo, { 'src/shout.ts': "import type { Tool } from './tool';\nexport class Shout implements Tool { execute(input: string): string { return input.toUpperCase(); } }\n" });
    const summary = await syncHandbook(repo, { database });
    expect(summary.added).toEqual(['src/shout.ts']);
    await expectSameAsColdBuild(repo, database, 'add an implementation');
  });

  it('a class that gains or drops an interface changes dispatch in files that never name the class', async () => {
    const repo = path.join(scratchDirectory(), 'heritage');
    write(repo, {
      'src/tool.ts': 'export interface Tool { execute(input: string): string }\n',
      'src/runner.ts': "import type { Tool } from './tool';\nexport function runAll(tools: Tool[]): string[] { return tools.map((tool) => tool.execute('x')); }\n",
      'src/echo.ts': "import type { Tool } from './tool';\nexport class Echo implements Tool { execute(input: string): string { return input; } }\n",
      'src/plain.ts': 'export class Plain { execute(input: string): string { return input.trim(); } }\n',
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      write(repo, { 'src/echo.ts': 'export class Echo { execute(input: string): string { return input; } }\n' });
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'drop implements');
      write(repo, { 'src/plain.ts': "import type { Tool } from './tool';\nexport class Plain implements Tool { execute(input: string): string { return input.trim(); } }\n" });
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'gain implements');
    } finally {
      live.close();
    }
  });

  it('a unit whose doc comment changes without its text (the unit above it moved away) gets new search terms', async () => {
    const repo = path.join(scratchDirectory(), 'doc');
    write(repo, { 'src/fetch.ts': '/** Fetches a web page and returns its readable text. */\nexport function fetchPage(url: string): string { return url; }\nexport function stripTags(html: string): string { return html.replace(/<[^>]+>/g, ""); }\n' });
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      write(repo, { 'src/fetch.ts': '/** Fetches a web page and returns its readable text. */\nexport function stripTags(html: string): string { return html.replace(/<[^>]+>/g, ""); }\n' });
      await live.sync();
      await expectSameAsColdBuild(repo, database, 'the doc comment passes to the next unit');
    } finally {
      live.close();
    }
  });

  it('state read from files not resolved again moves with its declaration', async () => {
    const repo = path.join(scratchDirectory(), 'state');
    write(repo, {
      'src/state.ts': 'export let counter = 0;\nexport class Store {\n  items: string[] = [];\n  constructor(private readonly limit: number) {}\n}\nexport interface Options { nested: { depth: number } }\n',
      'src/user.ts': "import { counter, Store, type Options } from './state';\nexport function use(store: Store, options: Options): number {\n  store.items.push('x');\n  return counter + options.nested.depth;\n}\n",
      'src/legacy.js': 'export class Legacy {\n  constructor() {\n    this.count = 0;\n  }\n}\nexport function bump(legacy) {\n  legacy.count += 1;\n}\n',
      'src/reader.js': "import { Legacy } from './legacy.js';\nexport function read() {\n  const legacy = new Legacy();\n  return legacy.count;\n}\n",
    });
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      for (const file of ['src/state.ts', 'src/legacy.js']) {
        writeFileSync(path.join(repo, file), `// a comment that moves every line down\n\n${readFileSync(path.join(repo, file), 'utf8')}`);
        const summary = await live.sync();
        expect(summary.resolvedFiles, file).toBe(1);
        await expectSameAsColdBuild(repo, database, `lines move in ${file}`);
      }
    } finally {
      live.close();
    }
  });

  it('a new project description (package.json, README) is a change: the overview quotes it', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ ...manifest, description: 'A harness that now describes itself differently.' }));
    const summary = await syncHandbook(repo, { database });
    expect(summary.upToDate).toBe(false);
    await expectSameAsColdBuild(repo, database, 'describe the project anew');
    expect((await syncHandbook(repo, { database })).upToDate).toBe(true);
  });

  it('counts every file as resolved again when it rebuilds from scratch, though the dropped files were reached by none', async () => {
    const repo = copyOfFixture();
    mkdirSync(path.join(repo, 'src/generated-once'));
    for (let index = 0; index < 200; index += 1) writeFileSync(path.join(repo, `src/generated-once/leaf${index}.ts`), `export function leaf${index}(): number {\n  return ${index};\n}\n`);
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    rmSync(path.join(repo, 'src/generated-once'), { recursive: true });
    const summary = await syncHandbook(repo, { database });
    expect(summary.fullRebuild).toMatch(/rebuilt from scratch/);
    expect(summary.resolvedFiles).toBe(summary.build.files);
    await expectSameAsColdBuild(repo, database, 'remove a folder nothing imports');
  });

  it('rebuilds from scratch, and says so, when a change would drop most of the handbook', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    for (const folder of ['src/agent', 'src/providers', 'src/tools', 'src/context', 'src/session']) rmSync(path.join(repo, folder), { recursive: true });
    const summary = await syncHandbook(repo, { database });
    expect(summary.fullRebuild).toMatch(/would drop \d+ of \d+ entries .* rebuilt from scratch/);
    await expectSameAsColdBuild(repo, database, 'remove most folders');
  });
});
