import { copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook } from '../../src/index.js';
import { copyOfFixture } from '../helpers/paths.js';
import { openAiError, startFakeOpenAi } from '../llm/fake-openai-server.js';

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

/** Removes a database with its WAL and shared-memory files, as `rm .handbook/handbook.db*` does. */
function removeDatabase(database: string): void {
  const folder = path.dirname(database);
  for (const name of readdirSync(folder).filter((candidate) => candidate.startsWith(path.basename(database)))) rmSync(path.join(folder, name));
}

describe('a build whose database leaves its path while the model places units', () => {
  /** A model server that runs `meanwhile` on its first request, then fails every call, so the stager falls back offline and the build goes on to store. */
  async function modelOptions(meanwhile: () => void) {
    let first = true;
    const server = await startFakeOpenAi(() => {
      if (first) meanwhile();
      first = false;
      return openAiError(500, 'server_error', 'try later');
    });
    return { model: 'openai:gpt-test', provider: { env: { OPENAI_API_KEY: 'sk-test' }, baseUrlOverride: `${server.url}/v1`, baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 1 } };
  }

  it('says the database was deleted and stores nothing, instead of reporting a handbook nobody can read', async () => {
    const repo = copyOfFixture();
    const database = path.join(repo, '.handbook', 'handbook.db');
    const options = await modelOptions(() => removeDatabase(database));
    await expect(buildHandbook(repo, options)).rejects.toMatchObject({
      code: 'NO_HANDBOOK',
      message: `the handbook database ${database} was deleted while the build ran, so nothing was stored`,
      hint: 'run `handbook build` again',
    });
    expect(existsSync(database)).toBe(false);
  });

  it('says the database was replaced and leaves the one now in its place as it was', async () => {
    const repo = copyOfFixture();
    const database = path.join(repo, '.handbook', 'handbook.db');
    const other = path.join(repo, 'other.db');
    await buildHandbook(repo, { database: other });
    const options = await modelOptions(() => {
      removeDatabase(database);
      copyFileSync(other, database);
    });
    await expect(buildHandbook(repo, options)).rejects.toMatchObject({ code: 'NO_HANDBOOK', message: expect.stringMatching(/was replaced while the build ran, so nothing was stored$/) });
    const after = openHandbook(repo);
    expect(after.generation.id).toBe(1);
    expect(after.organized.stager).toEqual({ kind: 'offline' });
  });
});
