import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook } from '../../src/index.js';
import { copyOfFixture } from '../helpers/paths.js';

const AUDIT = 'export function audit(line: string): string {\n  return line;\n}\n';

const open: LiveHandbook[] = [];

afterEach(() => {
  for (const live of open.splice(0)) live.close();
});

/** A built copy of the fixture and a LiveHandbook on it that has synced once. */
async function syncedOnce(): Promise<{ repo: string; live: LiveHandbook }> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  const live = await LiveHandbook.open(repo);
  open.push(live);
  await live.sync();
  return { repo, live };
}

describe('a LiveHandbook whose database is no longer where it opened it', () => {
  it('refuses to sync into a database deleted under it, and makes no new one', async () => {
    const { repo, live } = await syncedOnce();
    const folder = path.join(repo, '.handbook');
    // The database with its WAL and shared-memory files, as `rm .handbook/handbook.db*` does.
    for (const name of readdirSync(folder).filter((candidate) => candidate.startsWith('handbook.db'))) rmSync(path.join(folder, name));
    writeFileSync(path.join(repo, 'src/security/audit.ts'), AUDIT);
    expect(live.databaseLost()).toBe('deleted');
    await expect(live.sync()).rejects.toMatchObject({
      code: 'NO_HANDBOOK',
      message: `the handbook database ${live.databasePath} was deleted while it was open, so nothing was synced into it`,
      hint: 'run `handbook build` to build it again',
    });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses to sync into a database replaced by a build in its place, and leaves the new one as built', async () => {
    const { repo, live } = await syncedOnce();
    rmSync(path.join(repo, '.handbook'), { recursive: true });
    await buildHandbook(repo);
    const built = openHandbook(repo).generation.id;
    writeFileSync(path.join(repo, 'src/security/audit.ts'), AUDIT);
    expect(live.databaseLost()).toBe('replaced');
    await expect(live.sync()).rejects.toMatchObject({ code: 'NO_HANDBOOK', message: expect.stringMatching(/was replaced while it was open/) });
    const after = openHandbook(repo);
    expect(after.generation.id).toBe(built);
    expect(after.graph.getUnit('src/security/audit.ts#audit')).toBeUndefined();
  });

  it('syncs as before while the database stays where it was', async () => {
    const { repo, live } = await syncedOnce();
    writeFileSync(path.join(repo, 'src/security/audit.ts'), AUDIT);
    expect(live.databaseLost()).toBeUndefined();
    expect((await live.sync()).added).toEqual(['src/security/audit.ts']);
    expect(existsSync(live.databasePath)).toBe(true);
  });
});
