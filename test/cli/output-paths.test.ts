import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync } from '../helpers/cli-run.js';

const handbook = (args: string[]) => runCli(args, { timeout: 20_000 });
const handbookAsync = (args: string[]) => runCliAsync(args, { timeout: 20_000 });
/** A server's refusal run to its end; a killed server has no exit code: the generous limit only ends a run that would hang. */
const serverAsync = (args: string[]) => runCliAsync(args, { timeout: 120_000 });

// Each case is a concurrent test of its own: one after another, their CLI starts added up under one
// timeout on a loaded machine. None writes into the handbook built once below.
describe('output paths a command cannot write into', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  });

  const throughFiles: Array<[string, string, (file: string) => string, (file: string) => string]> = [
    ['--out', 'a file', (file) => file, (file) => file],
    ['--out', 'through a file', (file) => path.join(file, 'pages'), (file) => `${file}/pages: ${file}`],
    ['--html', 'a file', (file) => file, (file) => file],
    ['--html', 'through a file', (file) => path.join(file, 'pages'), (file) => `${file}/pages: ${file}`],
  ];
  it.concurrent.for(throughFiles)('render says an %s that is %s, is not a folder, and writes nothing', async ([option, , target, named]) => {
    const file = path.join(scratchDirectory(), 'notes.txt');
    writeFileSync(file, 'mine');
    expectOneLineError(await handbookAsync(['render', '--repo', repo, option, target(file)]), 2, new RegExp(`^handbook: ${named(file)} is a file, not a folder \\(pass ${option} a folder`));
    expect(existsSync(path.join(repo, '.handbook', 'markdown'))).toBe(false);
  });

  // Node's recursive mkdir retried without end there, so the command hung.
  it.concurrent.for(['--out', '--html'])('render fails at once with one line on a folder the file system will not create (/proc): %s', async (option) => {
    expectOneLineError(await handbookAsync(['render', '--repo', repo, option, '/proc/handbook-test/pages']), 2, /^handbook: cannot create the folder \/proc\/handbook-test: no such file or folder/);
  });

  it.concurrent('build fails at once with one line on a --db whose folder the file system will not create', async () => {
    expectOneLineError(await handbookAsync(['build', repo, '--db', '/proc/handbook-test/handbook.db', '--no-progress']), 2, /^handbook: cannot create the folder \/proc\/handbook-test: no such file or folder/);
  });

  const servers = [['serve', '--port', '0'], ['mcp']];

  // They start before a build and wait for one; no build ever makes a folder a database.
  it.concurrent.for(servers)('serve and mcp refuse a --db that is a folder at once, instead of waiting for a handbook there: %s', async (args) => {
    expectOneLineError(await handbookAsync([...args, '--repo', repo, '--db', scratchDirectory()]), 2, /^handbook: the handbook database path .* is a folder \(pass the path of a database file/);
  });

  /** A file of text, and an application's database, each in a folder of its own. */
  const notHandbooks: Array<[string, () => string, number, string]> = [
    ['junk', () => {
      const junk = path.join(scratchDirectory(), 'notes.txt');
      writeFileSync(junk, 'my notes, not a database\n');
      return junk;
    }, 4, 'is not a readable handbook database'],
    ["another application's database", () => {
      const other = path.join(scratchDirectory(), 'other.db');
      const database = new Database(other);
      database.exec('CREATE TABLE accounts (name TEXT)');
      database.close();
      return other;
    }, 2, 'is not a handbook database'],
  ];
  const serverCases = notHandbooks.flatMap((notHandbook) => servers.map((args): [string, string, (typeof notHandbooks)[number], string[]] => [args[0]!, notHandbook[0], notHandbook, args]));
  // No build would write them either, so a server waited for ever, logging "not ready".
  it.concurrent.for(serverCases)('%s refuses a --db that is %s at once, in the words of the read commands, and leaves it as it was', async ([, , [, write, code, refusal], args]) => {
    const file = write();
    const bytes = readFileSync(file);
    const read = await handbookAsync(['overview', '--repo', repo, '--db', file]);
    expectOneLineError(read, code, new RegExp(`^handbook: ${file} ${refusal} \\(pass --db the path of a handbook database`));
    const served = await serverAsync([...args, '--repo', repo, '--db', file]);
    expectOneLineError(served, code, /^handbook: /);
    expect(served.stderr).toBe(read.stderr);
    expect(readFileSync(file)).toEqual(bytes);
  });

  // serve ran on, its watcher writing a handbook schema into the file and then finding no build in it.
  it.concurrent.for(servers)('serve and mcp refuse an empty --db file at once, in the words of the read commands, and leave it empty: %s', async (args) => {
    const empty = path.join(scratchDirectory(), 'handbook.db');
    writeFileSync(empty, '');
    const read = await handbookAsync(['overview', '--repo', repo, '--db', empty]);
    expectOneLineError(read, 3, /^handbook: the handbook database at .* is empty \(run `handbook build` to write it\)$/m);
    const served = await serverAsync([...args, '--repo', repo, '--db', empty]);
    expectOneLineError(served, 3, /^handbook: /);
    expect(served.stderr).toBe(read.stderr);
    expect(statSync(empty).size).toBe(0);
  });

  // A damaged handbook's answers say to delete it and build again, and the server follows the new one.
  it('mcp still starts on a damaged handbook, whose answers say to delete it and build again', () => {
    const damaged = copyOfFixture();
    expect(handbook(['build', damaged, '--no-progress']).code).toBe(0);
    const built = path.join(damaged, '.handbook', 'handbook.db');
    // Its header, and with it the handbook's mark, stays; every page past the first is garbage.
    const bytes = readFileSync(built);
    writeFileSync(built, Buffer.concat([bytes.subarray(0, 4096), Buffer.alloc(bytes.length - 4096, 0x5a)]));
    expectOneLineError(handbook(['overview', '--repo', damaged]), 4, /^handbook: the handbook database is not readable: .* \(delete it and run `handbook build` again\)/);
    const served = runCli(['mcp', '--repo', damaged, '--db', built], { timeout: 120_000 });
    expect(served.code, served.stderr).toBe(0);
    expect(served.stderr).toMatch(/^handbook mcp: serving .* over stdio$/m);
  });
});
