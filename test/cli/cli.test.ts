import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT, copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync } from '../helpers/cli-run.js';

function readableByOthers(directory: string): boolean {
  for (let current = directory; ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o005) !== 0o005) return false;
    if (path.dirname(current) === current) return true;
  }
}

const handbook = (args: string[], options: { asUser?: number } = {}) => runCli(args, options);


describe('handbook CLI', () => {
  it('syncs after an edit: status goes from stale (5) to fresh (0), and a second sync is a no-op', () => {
    const repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    writeFileSync(path.join(repo, 'src/security/audit.ts'), "import { maskSecrets } from './secrets.js';\nexport function audit(line: string): string {\n  return maskSecrets(line);\n}\n");
    expect(handbook(['status', repo]).code).toBe(5);
    const human = handbook(['sync', repo, '--no-progress']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/added\s+src\/security\/audit\.ts/);
    expect(handbook(['status', repo]).code).toBe(0);
    const again = handbook(['sync', repo, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ upToDate: true, added: [], modified: [], removed: [], resolvedFiles: 0 });
  });

  // A build named the file with a syntax error; a sync of the same edit said nothing, and status then called the handbook fresh.
  it('names a syntax error in the sync that analyzed it, and again while it stays, as the build does', () => {
    const repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    writeFileSync(path.join(repo, 'src/security/secrets.ts'), `${readFileSync(path.join(repo, 'src/security/secrets.ts'), 'utf8')}\nexport function broken( {\n`);
    const synced = handbook(['sync', repo, '--no-progress']);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^ {2}warnings {3}1 file\(s\) with syntax errors, analyzed partially; first: src\/security\/secrets\.ts:\d+ /m);
    const again = handbook(['sync', repo, '--no-progress']);
    expect(again.stdout).toMatch(/^up to date: .*\n {2}warnings {3}1 file\(s\) with syntax errors/);
  });

  // It printed "resolved 0 files again" and "0 added, 0 changed, 0 removed": a sync that did something, and said nothing of what.
  it('says the overview was written again when only package.json describes the project otherwise', () => {
    const repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const manifest = path.join(repo, 'package.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"description": "', '"description": "Now: '));
    const synced = handbook(['sync', repo, '--no-progress']);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^ {2}project {4}package\.json or the README describe the project otherwise: the overview was written again$/m);
    expect(JSON.parse(handbook(['sync', repo, '--json']).stdout)).toMatchObject({ upToDate: true, projectChanged: false });
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"description": "Now: ', '"description": "'));
    expect(JSON.parse(handbook(['sync', repo, '--json']).stdout)).toMatchObject({ upToDate: false, projectChanged: true, added: [], modified: [], removed: [] });
  });

  it('refuses to sync a repository without a handbook, in one line with exit 3', () => {
    const repo = copyOfFixture();
    expectOneLineError(handbook(['sync', repo]), 3, /no handbook at .*run `handbook build` first/);
  });

  // They wrote a handbook schema into the file, then refused it as holding no build.
  it.concurrent.for(['sync', 'watch'])('refuses to %s into an empty --db file as the read commands do, and leaves it empty', async (command) => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    writeFileSync(database, '');
    expectOneLineError(await runCliAsync([command, repo, '--db', database]), 3, /^handbook: the handbook database at .* is empty \(run `handbook build` to write it\)$/m);
    expect(statSync(database).size).toBe(0);
  });

  it('builds the fixture and prints a summary, or JSON with --json', () => {
    const repo = copyOfFixture();
    const human = handbook(['build', repo]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/files\s+25 analyzed/);
    expect(human.stdout).toMatch(/call sites: \d+ resolved to repository code/);
    const json = handbook(['build', repo, '--json']);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout);
    expect(summary.files).toBe(25);
    expect(summary.units.class).toBe(9);
    expect(summary.calls.resolvedShare).toBeGreaterThan(0.85);
    expect(json.stderr).toBe('');
  });

  // One concurrent test a query: one after another, their CLI starts added up under one timeout on a loaded machine.
  describe('queries on a built handbook', () => {
    let repo: string;
    beforeAll(() => {
      repo = copyOfFixture();
      expect(handbook(['build', repo]).code).toBe(0);
    });

    it.concurrent('answers graph callers by symbol name in JSON', async () => {
      const callers = await runCliAsync(['graph', 'callers', 'maskSecrets', '--repo', repo, '--json']);
      expect(callers.code).toBe(0);
      expect(JSON.parse(callers.stdout).callers.map((caller: { id: string }) => caller.id)).toEqual([
        'src/observability/logger.ts#Logger.write',
        'src/session/sessionStore.ts#SessionStore.save',
        'src/tools/shell.ts#runShellTool',
      ]);
    });

    // `load` assigns `this.id`, which runs the setter (`id~2`); only `main` reads it through the getter.
    const accessors: Array<[string, string[]]> = [
      ['src/session/sessionStore.ts#SessionStore.id~2', ['src/session/sessionStore.ts#SessionStore.load']],
      ['src/session/sessionStore.ts#SessionStore.id', ['src/index.ts#main']],
    ];
    it.concurrent.for(accessors)('answers graph callers of a setter and a getter apart: %s', async ([id, callers]) => {
      expect(JSON.parse((await runCliAsync(['graph', 'callers', id, '--repo', repo, '--json'])).stdout).callers.map((caller: { id: string }) => caller.id)).toEqual(callers);
    });

    it.concurrent('answers graph callees in text', async () => {
      const callees = await runCliAsync(['graph', 'callees', 'src/agent/agentLoop.ts#AgentLoop.step', '--repo', repo]);
      expect(callees.stdout).toMatch(/AnthropicProvider\.complete .*through an interface/);
    });

    it.concurrent('answers graph show by symbol name in text', async () => {
      const show = await runCliAsync(['graph', 'show', 'AgentLoop.run', '--repo', repo]);
      expect(show.stdout).toMatch(/src\/agent\/agentLoop\.ts:58-/);
    });

    it.concurrent('answers graph state in JSON', async () => {
      const state = await runCliAsync(['graph', 'state', 'SessionStore.history', '--repo', repo, '--json']);
      expect(JSON.parse(state.stdout).writers).toHaveLength(5);
    });

    it.concurrent('answers graph stats in JSON', async () => {
      const stats = await runCliAsync(['graph', 'stats', '--repo', repo, '--json']);
      expect(JSON.parse(stats.stdout).files).toBe(25);
    });

    it.concurrent('answers ask with the JSON contract scripts and the benchmark rely on', async () => {
      const json = await runCliAsync(['ask', 'where are secrets masked?', '--repo', repo, '--json', '--limit', '5']);
      expect(json.code).toBe(0);
      const result = JSON.parse(json.stdout);
      expect(result.request).toBe('where are secrets masked?');
      expect(result.frozen).toBe(0);
      expect(result.locations).toHaveLength(5);
      // The hash is the stored one while the code is as built: a script passes it to resolve to learn later whether that code changed.
      const stored = new Map((JSON.parse((await runCliAsync(['graph', 'export', '--repo', repo])).stdout).units as Array<{ id: string; hash: string }>).map((unit) => [unit.id, unit.hash]));
      for (const location of result.locations) {
        expect(Object.keys(location).sort()).toEqual(['behavior', 'endLine', 'file', 'hash', 'line', 'score', 'stage', 'status', 'symbol', 'why']);
        expect(location.hash).toBe(stored.get(`${location.file}#${location.symbol}`));
      }
      expect(result.locations[0].score).toBe(1);
    });

    it.concurrent('answers ask grouped by stage for people', async () => {
      const human = await runCliAsync(['ask', 'where are secrets masked?', '--repo', repo, '--limit', '5']);
      expect(human.stdout).toMatch(/^security$/m);
      expect(human.stdout).toMatch(/src\/security\/secrets\.ts:27\s+maskSecrets/);
    });

    it.concurrent('explains how ask routed a request', async () => {
      const explained = await runCliAsync(['ask', 'where are secrets masked?', '--repo', repo, '--limit', '5', '--explain']);
      expect(explained.stdout).toMatch(/^ {2}files about it {4}src\/security\/secrets\.ts/m);
      expect(explained.stdout).toMatch(/^ {2}folders about it {2}src\/security/m);
    });

    const askRefusals: Array<[string, () => string[], RegExp]> = [
      ['an empty request', () => ['ask', '', '--repo', repo], /the request is empty/],
      ['--limit 0', () => ['ask', 'x', '--repo', repo, '--limit', '0'], /invalid option --limit/],
    ];
    it.concurrent.for(askRefusals)('refuses ask in one line: %s', async ([, args, pattern]) => {
      expectOneLineError(await runCliAsync(args()), 2, pattern);
    });
  });

  it('exports byte-identical graphs for two builds of the same tree', () => {
    const first = copyOfFixture();
    const second = copyOfFixture();
    handbook(['build', first]);
    handbook(['build', second]);
    const a = handbook(['graph', 'export', '--repo', first]);
    const b = handbook(['graph', 'export', '--repo', second]);
    expect(a.code).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(1000);
    expect(a.stdout).toBe(b.stdout);
  });

  it('ends quietly with 141 when the reader of its output goes away, as `| head -1` does', async () => {
    const repo = copyOfFixture();
    handbook(['build', repo, '--no-progress']);
    // The reader is gone before the first write. Closing it after the first chunk instead raced with
    // the parent draining the pipe: the whole export sometimes got through and the CLI rightly exited 0.
    const child = spawn(process.execPath, [CLI, 'graph', 'export', '--repo', repo], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.destroy();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 141, stderr: '' });
  });

  // One concurrent test a command line: one after another, their CLI starts added up under one timeout on a loaded machine.
  const wrongWithoutHandbook: Array<[string, () => string[], number, RegExp]> = [
    ['a missing repository', () => ['build', '/no/such/repo'], 2, /repository not found/],
    ['a file for the repository', () => ['build', path.join(copyOfFixture(), 'package.json')], 2, /not a folder/],
    ['a repository without code', () => ['build', scratchDirectory()], 2, /no TypeScript, JavaScript, Python, Go or Rust files/],
    ['a repository without a handbook', () => ['graph', 'stats', '--repo', copyOfFixture()], 3, /run `handbook build`/],
    ['a size that is no number', () => ['build', '--max-file-size', 'lots'], 2, /invalid option --max-file-size/],
    ['an unknown option', () => ['build', '--bogus'], 2, /unknown option/],
  ];
  it.concurrent.for(wrongWithoutHandbook)('says what is wrong in one line, with a non-zero exit and no stack trace: %s', async ([, args, code, pattern]) => {
    expectOneLineError(await runCliAsync(args()), code, pattern);
  });

  describe('on a built handbook', () => {
    let repo: string;
    beforeAll(() => {
      repo = copyOfFixture();
      expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    });

    // None of them writes the handbook: a refused build stops before it opens the database to write.
    const wrong: Array<[string, () => string[], number, RegExp]> = [
      ['a unit that names nothing', () => ['graph', 'show', 'nothingLikeThis', '--repo', repo], 2, /no unit named/],
      ['a name of two units', () => ['graph', 'show', 'complete', '--repo', repo], 2, /names 2 units/],
      ['a model without provider', () => ['build', repo, '--model', 'gpt4'], 2, /model spec "gpt4" names no provider/],
      ['a missing skeleton', () => ['build', repo, '--skeleton', '/no/such/stages.json'], 2, /the skeleton file .* does not exist/],
      ['a --db of text', () => {
        const corrupt = path.join(scratchDirectory(), 'bad.db');
        writeFileSync(corrupt, 'not a database at all, just text'.repeat(200));
        return ['graph', 'stats', '--repo', repo, '--db', corrupt];
      }, 4, /is not a readable handbook database/],
      ['an empty repository argument', () => ['build', ''], 2, /the repository path is empty/],
      ['a folder as the database', () => ['build', repo, '--db', path.join(repo, 'src')], 2, /is a folder \(pass the path of a database file/],
      ['a plan --out in a missing folder', () => ['plan', 'mask secrets', '--repo', repo, '--out', '/nonexistent/folder/plan.json'], 2, /--out \/nonexistent\/folder\/plan\.json: there is no folder \/nonexistent\/folder \(create the folder first/],
      ['a folder as the export --out', () => ['graph', 'export', '--repo', repo, '--out', path.join(repo, 'src')], 2, /--out .*src: a folder, not a file \(name a file to write\)/],
      ['a file as the render --out', () => ['render', '--repo', repo, '--out', path.join(repo, 'package.json')], 2, /package\.json is a file, not a folder \(pass --out a folder for the pages/],
    ];
    it.concurrent.for(wrong)('says what is wrong in one line, with a non-zero exit and no stack trace: %s', async ([, args, code, pattern]) => {
      expectOneLineError(await runCliAsync(args()), code, pattern);
    });

    // The pages kept the build's lines after an edit, and nothing said so.
    it('says on stderr that the pages show the build when the code moved on since, and nothing while it has not', async () => {
      const copy = copyOfFixture();
      expect(handbook(['build', copy, '--no-progress']).code).toBe(0);
      const fresh = await runCliAsync(['render', '--repo', copy, '--out', path.join(scratchDirectory(), 'fresh')]);
      expect(fresh).toMatchObject({ code: 0, stderr: '' });
      const secrets = path.join(copy, 'src/security/secrets.ts');
      writeFileSync(secrets, `// a line above every unit\n${readFileSync(secrets, 'utf8')}`);
      for (const json of [[], ['--json']]) {
        const stale = await runCliAsync(['render', '--repo', copy, '--out', path.join(scratchDirectory(), 'stale'), ...json]);
        expect(stale.code).toBe(0);
        expect(stale.stderr).toMatch(/^note: the pages show the handbook as built at .*, and the code has moved on since \(.*\); run `handbook sync`, then render again\n$/);
      }
      rmSync(path.join(copy, 'src/security/secrets.ts'));
      expect((await runCliAsync(['render', '--repo', copy, '--out', path.join(scratchDirectory(), 'gone')])).stderr).toMatch(/\(0 changed, 0 moved and 5 frozen entries\)/);
    });

    it.concurrent('refuses to render into a folder of files it did not write, and leaves them', async () => {
      const foreign = path.join(scratchDirectory(), 'notes');
      mkdirSync(path.join(foreign, 'stages'), { recursive: true });
      for (const file of ['overview.md', 'stages/intro.md', 'unassigned.md']) writeFileSync(path.join(foreign, file), 'mine');
      expectOneLineError(await runCliAsync(['render', '--repo', repo, '--out', foreign]), 2, /^handbook: .*notes holds files the handbook did not write \(overview\.md, stages\/intro\.md, unassigned\.md\) \(pick an empty folder/);
      for (const file of ['overview.md', 'stages/intro.md', 'unassigned.md']) expect(readFileSync(path.join(foreign, file), 'utf8')).toBe('mine');
    });

    it.concurrent('says a damaged database is damaged, in one line', async () => {
      const { default: Database } = await import('better-sqlite3');
      const damaged = path.join(scratchDirectory(), 'damaged.db');
      copyFileSync(path.join(repo, '.handbook', 'handbook.db'), damaged);
      const connection = new Database(damaged);
      connection.exec('DROP TABLE units');
      connection.close();
      expectOneLineError(await runCliAsync(['overview', '--repo', repo, '--db', damaged]), 4, /the handbook database is damaged: no such table: units/);
    });
  });

  // One concurrent test a command line: one after another, ten CLI starts took most of a test's minute under load.
  const refusals: Array<[string[], RegExp]> = [
    [['build', '--nope'], /^handbook: unknown option '--nope' \(run `handbook build --help` for its usage\)/],
    [['graph', 'show', 'x', '--jsn'], /^handbook: unknown option '--jsn'\. Did you mean --json\? \(run `handbook graph show --help` for its usage\)/],
    [['frobnicate'], /^handbook: unknown command 'frobnicate' \(run `handbook --help` for its commands\)/],
    [['biuld'], /^handbook: unknown command 'biuld'\. Did you mean build\? \(run `handbook --help` for its commands\)/],
    [['graph', 'frob'], /^handbook: unknown command 'frob' \(run `handbook graph --help` for its commands\)/],
    [['ask'], /^handbook: missing required argument 'request' \(run `handbook ask --help` for its usage\)/],
    [['ask', 'a', 'b', 'c'], /^handbook: too many arguments for 'ask'\. Expected 1 argument but got 3 \(run `handbook ask --help` for its usage\)/],
    [['ask', 'x', '--limit'], /^handbook: option '--limit <n>' argument missing \(run `handbook ask --help` for its usage\)/],
    [['run', '--task', 'x'], /^handbook: required option '--model <spec>' not specified \(run `handbook run --help` for its usage\)/],
    // --json changes what goes to stdout on success, not how a refusal is reported.
    [['ask', 'x', '--json', '--nope'], /^handbook: unknown option '--nope' \(run `handbook ask --help` for its usage\)/],
  ];
  it.concurrent.for(refusals)("refuses a command line commander cannot parse in the CLI's one line, with commander's suggestion and a hint, exit 2: %s", async ([args, pattern]) => {
    expectOneLineError(await runCliAsync(args), 2, pattern);
  });

  const bare: Array<[string[], string, string]> = [
    [[], 'missing command', 'Usage: handbook [options] [command]'],
    [['graph'], "missing command for 'graph'", 'Usage: handbook graph [options] [command]'],
    [['journal'], "missing command for 'journal'", 'Usage: handbook journal [options] [command]'],
    [['help', 'nothing'], "unknown command 'nothing'", 'Usage: handbook [options] [command]'],
  ];
  it.concurrent.for(bare)('prints the help as an error, opened by one error line, for a bare command group: %s', async ([args, problem, usage]) => {
    const result = await runCliAsync(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, second] = result.stderr.split('\n');
    expect(first).toBe(`handbook: ${problem} (pick one of the commands below)`);
    expect(second).toBe(usage);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.concurrent.for([['--help'], ['graph', '--help'], ['help', 'journal'], ['ask', '--help']])('prints the help on stdout with exit 0 when asked for: %s', async (args) => {
    const result = await runCliAsync(args);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: handbook /);
  });

  it.concurrent('prints its version', async () => {
    expect(await runCliAsync(['--version'])).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  const unbuildable: Array<[string[], RegExp]> = [
    [['--include', 'nosuchdir', 'src', 'other'], /--include nosuchdir, other: no such folder in .*mini-harness \(--include takes folders inside the repository, relative to its root\)/],
    [['--include', 'src/agent/agentLoop.ts'], /--include src\/agent\/agentLoop\.ts: a file, not a folder .*include its folder/],
    [['--include', '../outside'], /--include \.\.\/outside: outside .*mini-harness/],
    [['--include', '/etc'], /--include \/etc: outside/],
    [['--max-file-size', '1'], /all \d+ source files in .* were skipped: .*\d+ over the 1-byte --max-file-size .*larger --max-file-size/],
    ...['0', '-5', 'abc', '1.5'].map((size): [string[], RegExp] => [['--max-file-size', size], /invalid option --max-file-size/]),
  ];
  it.concurrent.for(unbuildable)('says which --include is wrong, or why every file was skipped, instead of "no files": %s', async ([options, pattern]) => {
    const repo = copyOfFixture();
    expectOneLineError(await runCliAsync(['build', repo, ...options]), 2, pattern);
    expect(existsSync(path.join(repo, '.handbook'))).toBe(false);
  });

  // status called the handbook stale and said to run `handbook sync`, which then refused.
  it('refuses status as sync refuses it when a folder the handbook was built with is gone, rather than sending the user to sync', () => {
    const repo = copyOfFixture();
    expect(handbook(['build', repo, '--include', 'src/tools', 'src/security', '--no-progress']).code).toBe(0);
    rmSync(path.join(repo, 'src/security'), { recursive: true });
    const refusal = /^handbook: --include src\/security: no such folder in .* \(the handbook was built with these folders; run `handbook build` again to choose others\)$/m;
    expectOneLineError(handbook(['sync', repo, '--no-progress']), 2, refusal);
    expectOneLineError(handbook(['status', repo]), 2, refusal);
    expectOneLineError(handbook(['status', repo, '--json']), 2, refusal);
  });

  it('says a database another process holds locked is locked, in one line', async () => {
    const repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    // Another process holds the write lock past the build's five-second wait.
    const holder = spawn(process.execPath, ['-e', `const D = require(${JSON.stringify(path.join(PROJECT_ROOT, 'node_modules', 'better-sqlite3'))}); const d = new D(${JSON.stringify(path.join(repo, '.handbook', 'handbook.db'))}); d.exec('BEGIN EXCLUSIVE'); process.stdout.write('locked\\n'); setTimeout(() => {}, 20000);`]);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    try {
      expectOneLineError(handbook(['build', repo, '--no-progress']), 4, /the handbook database is locked by another process/);
    } finally {
      holder.kill();
    }
  }, 60_000);

  describe('with a --db built for another repository', () => {
    let first: string;
    let second: string;
    let database: string;
    beforeAll(() => {
      first = copyOfFixture();
      second = copyOfFixture();
      database = path.join(scratchDirectory(), 'shared.db');
      expect(handbook(['build', first, '--db', database, '--no-progress']).code).toBe(0);
    });

    // Each is refused before it writes, so the handbook reads for its own repository after each.
    const commands: Array<[string, () => string[]]> = [
      ['sync', () => ['sync', second, '--db', database, '--no-progress']],
      ['build', () => ['build', second, '--db', database, '--no-progress']],
      ['ask', () => ['ask', 'where are secrets masked?', '--repo', second, '--db', database]],
      ['status', () => ['status', second, '--db', database]],
    ];
    it.concurrent.for(commands)('refuses it in one line with exit 2, and keeps working for its own: %s', async ([, args]) => {
      const refusal = `handbook: the handbook in ${database} was built for ${first}, not ${second} (pass --db for that repository's handbook, or build this repository into a new --db path)\n`;
      expect(await runCliAsync(args())).toEqual({ code: 2, stdout: '', stderr: refusal });
      expect((await runCliAsync(['status', first, '--db', database])).code).toBe(0);
    });

    it('works for its own repository', () => {
      expect(handbook(['ask', 'where are secrets masked?', '--repo', first, '--db', database]).code).toBe(0);
      expect(handbook(['sync', first, '--db', database, '--no-progress']).code).toBe(0);
    });
  });

  it('opens a --db that recorded no repository (as if from before the check), and the next build records its repository', async () => {
    const first = copyOfFixture();
    const second = copyOfFixture();
    const database = path.join(scratchDirectory(), 'shared.db');
    expect(handbook(['build', first, '--db', database, '--no-progress']).code).toBe(0);
    const { default: Database } = await import('better-sqlite3');
    const connection = new Database(database);
    connection.prepare("UPDATE generations SET root = ''").run();
    connection.close();
    expect(handbook(['status', second, '--db', database]).code).toBe(0);
    expect(handbook(['build', second, '--db', database, '--no-progress']).code).toBe(0);
    expectOneLineError(handbook(['status', first, '--db', database]), 2, /was built for .*, not /);
  });

  it("refuses a --db that is another application's database or no database in one line, without writing to it or offering to delete it", async () => {
    const repo = copyOfFixture();
    const { default: Database } = await import('better-sqlite3');
    const application = path.join(scratchDirectory(), 'app.db');
    const connection = new Database(application);
    connection.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    connection.pragma('user_version = 2');
    connection.close();
    const before = readFileSync(application);
    const notHandbook = new RegExp(`^handbook: ${application} is not a handbook database \\(pass --db .*a new path`);
    expectOneLineError(handbook(['build', repo, '--db', application, '--no-progress']), 2, notHandbook);
    expectOneLineError(handbook(['graph', 'stats', '--repo', repo, '--db', application]), 2, notHandbook);
    expect(readFileSync(application).equals(before)).toBe(true);
    const text = path.join(scratchDirectory(), 'passwd');
    writeFileSync(text, 'root:x:0:0:root:/root:/bin/bash\n'.repeat(100));
    const unreadable = handbook(['graph', 'stats', '--repo', repo, '--db', text]);
    expectOneLineError(unreadable, 4, new RegExp(`^handbook: ${text} is not a readable handbook database \\(pass --db .*a new path`));
    expect(unreadable.stderr).not.toMatch(/delete/);
  });

  it('says which key is missing for a model, before doing any work', () => {
    const result = spawnSync(process.execPath, [CLI, 'build', copyOfFixture(), '--model', 'anthropic:claude-test'], {
      encoding: 'utf8',
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANTHROPIC_'))),
    });
    expectOneLineError({ code: result.status, stdout: result.stdout, stderr: result.stderr }, 2, /ANTHROPIC_API_KEY is not set/);
  });

  // Root reads any file, so as root the build runs as an unprivileged user, which needs to
  // reach this checkout; where it cannot, the injected-reader test in bad-input covers the rule.
  it.skipIf(process.getuid?.() === 0 && !readableByOthers(PROJECT_ROOT))('skips an unreadable file and counts it', () => {
    const root = path.join(scratchDirectory(), 'repo');
    mkdirSync(root);
    writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;');
    writeFileSync(path.join(root, 'secret.ts'), 'export const s = 1;');
    chmodSync(path.join(root, 'secret.ts'), 0o000);
    const database = path.join(scratchDirectory(), 'handbook.db');
    // Root reads any file, so the build runs as an unprivileged user when the tests run as root.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      chmodSync(path.dirname(root), 0o755);
      chmodSync(path.dirname(database), 0o777);
      chownSync(root, 65534, 65534);
    }
    const result = handbook(['build', root, '--db', database, '--json'], asRoot ? { asUser: 65534 } : {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).skipped).toEqual({ unreadable: 1 });
  });

  // A handbook built with sudo or in a container belongs to root; as root, the test reads it as
  // another user, and otherwise takes write access away.
  it.skipIf(process.getuid?.() === 0 && !readableByOthers(PROJECT_ROOT))('says a handbook this user may not write is not writable, not that it is no handbook', () => {
    const root = path.join(scratchDirectory(), 'repo');
    mkdirSync(root);
    writeFileSync(path.join(root, 'a.ts'), 'export function a() { return 1; }\n');
    expect(handbook(['build', root, '--no-progress']).code).toBe(0);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(path.dirname(root), 0o755);
    else {
      chmodSync(path.join(root, '.handbook', 'handbook.db'), 0o444);
      chmodSync(path.join(root, '.handbook'), 0o555);
    }
    try {
      for (const args of [['build', root, '--no-progress'], ['overview', '--repo', root], ['status', root]]) {
        const result = handbook(args, asRoot ? { asUser: 65534 } : {});
        expectOneLineError(result, 4, /^handbook: this user may not write the handbook database at .*handbook\.db or its folder \(.*--db/);
      }
      // Its folder writable, the file not: SQLite opens it for reading and fails at the build's first write.
      if (asRoot) chownSync(path.join(root, '.handbook'), 65534, 65534);
      else chmodSync(path.join(root, '.handbook'), 0o755);
      expectOneLineError(handbook(['build', root, '--no-progress'], asRoot ? { asUser: 65534 } : {}), 4, /^handbook: this user may not write the handbook database .*--db/);
    } finally {
      if (!asRoot) chmodSync(path.join(root, '.handbook'), 0o755);
    }
  });
});
