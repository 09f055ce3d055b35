import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { askHandbook, buildHandbook, handbookStatus, openHandbook, syncHandbook } from '../../src/index.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { refusal } from '../helpers/refusal.js';

function recordedRoot(database: string): string {
  const connection = new Database(database, { readonly: true });
  try {
    return (connection.prepare("SELECT root FROM generations WHERE status = 'complete'").get() as { root: string }).root;
  } finally {
    connection.close();
  }
}

describe('a handbook belongs to the repository it was built for', () => {
  it('refuses ask, status, sync, open and build of another repository, and leaves the handbook as it was', async () => {
    const first = copyOfFixture();
    const second = copyOfFixture();
    const database = path.join(scratchDirectory(), 'shared.db');
    const built = await buildHandbook(first, { database });
    // An ask of the right repository first leaves a routing snapshot, which the refusal must not read past.
    expect((await askHandbook(first, 'where are secrets masked?', { database })).locations.length).toBeGreaterThan(0);
    const actions: Record<string, () => unknown> = {
      open: () => openHandbook(second, { database }),
      ask: () => askHandbook(second, 'where are secrets masked?', { database }),
      status: () => handbookStatus(second, { database }),
      sync: () => syncHandbook(second, { database }),
      build: () => buildHandbook(second, { database }),
    };
    for (const [name, action] of Object.entries(actions)) {
      const error = await refusal(action);
      expect({ name, code: error.code }).toEqual({ name, code: 'INVALID_INPUT' });
      expect(error.message).toBe(`the handbook in ${database} was built for ${first}, not ${second}`);
      expect(error.hint).toMatch(/pass --db for that repository's handbook, or build this repository into a new --db path/);
    }
    expect(recordedRoot(database)).toBe(first);
    expect(openHandbook(first, { database }).generation.id).toBe(built.generation);
    expect((await handbookStatus(first, { database })).counts.frozen).toBe(0);
    expect((await syncHandbook(first, { database })).upToDate).toBe(true);
  });

  it('takes a symlinked path to the same repository as that repository', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const link = path.join(scratchDirectory(), 'link');
    symlinkSync(repo, link);
    expect(openHandbook(link, { database }).graph.units.length).toBeGreaterThan(0);
    // Not up to date: the stored compiler settings name the path it was built by, so the sync analyzes again.
    expect((await syncHandbook(link, { database })).generation).toBeGreaterThan(0);
  });

  it('keeps the handbook in the repository folder when the folder moves, and records where it is now on sync', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const moved = path.join(scratchDirectory(), 'moved');
    renameSync(repo, moved);
    expect(openHandbook(moved).graph.units.length).toBeGreaterThan(0);
    expect((await syncHandbook(moved)).generation).toBeGreaterThan(0);
    expect(recordedRoot(path.join(moved, '.handbook', 'handbook.db'))).toBe(moved);
  });

  it('says how to start over when an outside handbook\'s repository is gone', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const moved = path.join(scratchDirectory(), 'moved');
    renameSync(repo, moved);
    const error = await refusal(() => openHandbook(moved, { database }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.hint).toBe(`${repo} no longer exists: if the repository moved, delete ${database} and build again; otherwise build this repository into a new --db path`);
  });

  it('opens a database without a recorded root, which its next sync or build adopts', async () => {
    const first = copyOfFixture();
    const second = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(first, { database });
    const forgetRoot = () => {
      const connection = new Database(database);
      connection.prepare("UPDATE generations SET root = ''").run();
      connection.close();
    };
    forgetRoot();
    expect(openHandbook(first, { database }).graph.units.length).toBeGreaterThan(0);
    expect((await syncHandbook(first, { database })).upToDate).toBe(true);
    expect(recordedRoot(database)).toBe(first);
    expect((await refusal(() => openHandbook(second, { database }))).code).toBe('INVALID_INPUT');

    forgetRoot();
    writeFileSync(path.join(first, 'src', 'extra.ts'), 'export function extra(): number { return 1; }\n');
    expect((await syncHandbook(first, { database })).upToDate).toBe(false);
    expect(recordedRoot(database)).toBe(first);

    forgetRoot();
    await buildHandbook(second, { database });
    expect(recordedRoot(database)).toBe(second);
  });
});
