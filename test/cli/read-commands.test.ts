import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';

function handbook(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the read commands as a user meets them', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  });

  it('graph stats names the repository and database it read, not where the handbook was built, once the folder is copied or moved', () => {
    const copy = path.join(scratchDirectory(), 'moved-harness');
    cpSync(repo, copy, { recursive: true });
    const json = handbook(['graph', 'stats', '--repo', copy, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ root: copy, database: path.join(copy, '.handbook', 'handbook.db') });
    const text = handbook(['graph', 'stats', '--repo', copy]);
    expect(text.stdout.split('\n')[0]).toBe(`handbook for ${copy}`);
  });
});
