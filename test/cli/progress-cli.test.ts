import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';

describe('build progress', () => {
  // `script` gives the build a terminal for stderr while stdout goes to a file, as `build --json > out.json` in a shell does.
  it('shows on a terminal with --json too, and leaves stdout pure JSON', () => {
    const repo = copyOfFixture();
    const folder = scratchDirectory();
    const json = path.join(folder, 'summary.json');
    const terminal = path.join(folder, 'terminal.log');
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const run = spawnSync('script', ['-qec', `${quote(process.execPath)} ${quote(CLI)} build ${quote(repo)} --json > ${quote(json)}`, terminal], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ root: repo });
    expect(readFileSync(terminal, 'utf8')).toMatch(/parsing|resolving calls|writing handbook/);
  });
});
