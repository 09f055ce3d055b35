import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli } from '../helpers/cli-run.js';

const handbook = (args: string[]) => runCli(args, { timeout: 20_000 });

describe('output paths a command cannot write into', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  });

  it('render says an --out or --html that is a file, or runs through one, is not a folder, and writes nothing', () => {
    const file = path.join(scratchDirectory(), 'notes.txt');
    writeFileSync(file, 'mine');
    for (const option of ['--out', '--html']) {
      expectOneLineError(handbook(['render', '--repo', repo, option, file]), 2, new RegExp(`^handbook: ${file} is a file, not a folder \\(pass ${option} a folder`));
      expectOneLineError(handbook(['render', '--repo', repo, option, path.join(file, 'pages')]), 2, new RegExp(`^handbook: ${file}/pages: ${file} is a file, not a folder \\(pass ${option} a folder`));
    }
    expect(existsSync(path.join(repo, '.handbook', 'markdown'))).toBe(false);
  });

  // Node's recursive mkdir retried without end there, so the command hung.
  it('render fails at once with one line on a folder the file system will not create (/proc)', () => {
    for (const option of ['--out', '--html']) {
      expectOneLineError(handbook(['render', '--repo', repo, option, '/proc/handbook-test/pages']), 2, /^handbook: cannot create the folder \/proc\/handbook-test: no such file or folder/);
    }
  });

  it('build fails at once with one line on a --db whose folder the file system will not create', () => {
    expectOneLineError(handbook(['build', repo, '--db', '/proc/handbook-test/handbook.db', '--no-progress']), 2, /^handbook: cannot create the folder \/proc\/handbook-test: no such file or folder/);
  });

  // They start before a build and wait for one; no build ever makes a folder a database.
  it('serve and mcp refuse a --db that is a folder at once, instead of waiting for a handbook there', () => {
    const folder = scratchDirectory();
    for (const args of [['serve', '--port', '0'], ['mcp']]) {
      expectOneLineError(handbook([...args, '--repo', repo, '--db', folder]), 2, /^handbook: the handbook database path .* is a folder \(pass the path of a database file/);
    }
  });

  // No build would write them either, so a server waited for ever, logging "not ready".
  it('serve and mcp refuse a --db that is junk or another application\'s database at once, in the words of the read commands, and leave it as it was', () => {
    const folder = scratchDirectory();
    const junk = path.join(folder, 'notes.txt');
    writeFileSync(junk, 'my notes, not a database\n');
    const other = path.join(folder, 'other.db');
    const database = new Database(other);
    database.exec('CREATE TABLE accounts (name TEXT)');
    database.close();
    const bytes = readFileSync(other);
    // A killed server has no exit code: the generous limit only ends a run that would hang.
    const run = (args: string[]) => runCli(args, { timeout: 120_000 });
    for (const [file, code, refusal] of [[junk, 4, 'is not a readable handbook database'], [other, 2, 'is not a handbook database']] as const) {
      const read = run(['overview', '--repo', repo, '--db', file]);
      expectOneLineError(read, code, new RegExp(`^handbook: ${file} ${refusal} \\(pass --db the path of a handbook database`));
      for (const args of [['serve', '--port', '0'], ['mcp']]) {
        const served = run([...args, '--repo', repo, '--db', file]);
        expectOneLineError(served, code, /^handbook: /);
        expect(served.stderr).toBe(read.stderr);
      }
    }
    expect(readFileSync(junk, 'utf8')).toBe('my notes, not a database\n');
    expect(readFileSync(other)).toEqual(bytes);
  });

  // serve ran on, its watcher writing a handbook schema into the file and then finding no build in it.
  it('serve and mcp refuse an empty --db file at once, in the words of the read commands, and leave it empty', () => {
    const empty = path.join(scratchDirectory(), 'handbook.db');
    writeFileSync(empty, '');
    const read = handbook(['overview', '--repo', repo, '--db', empty]);
    expectOneLineError(read, 3, /^handbook: the handbook database at .* is empty \(run `handbook build` to write it\)$/m);
    for (const args of [['serve', '--port', '0'], ['mcp']]) {
      // A killed server has no exit code: the generous limit only ends a run that would hang.
      const served = runCli([...args, '--repo', repo, '--db', empty], { timeout: 120_000 });
      expectOneLineError(served, 3, /^handbook: /);
      expect(served.stderr).toBe(read.stderr);
    }
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
