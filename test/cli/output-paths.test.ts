import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
});
