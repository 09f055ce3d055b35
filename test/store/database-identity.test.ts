import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { askHandbook, buildHandbook, handbookStatus, openHandbook, syncHandbook } from '../../src/index.js';
import { HANDBOOK_APPLICATION_ID } from '../../src/store/database-identity.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { refusal } from '../helpers/refusal.js';

function pragmas(file: string): { applicationId: number; version: number } {
  const connection = new Database(file, { readonly: true });
  try {
    return { applicationId: connection.pragma('application_id', { simple: true }) as number, version: connection.pragma('user_version', { simple: true }) as number };
  } finally {
    connection.close();
  }
}

/** An application's own SQLite database, as a user might pass it with --db by mistake. */
function applicationDatabase(userVersion: number): string {
  const file = path.join(scratchDirectory(), 'app.db');
  const connection = new Database(file);
  connection.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO users (name) VALUES ('ada')");
  connection.pragma(`user_version = ${userVersion}`);
  connection.close();
  return file;
}

function readersAndWriters(repo: string, database: string): Record<string, () => unknown> {
  return {
    build: () => buildHandbook(repo, { database }),
    sync: () => syncHandbook(repo, { database }),
    open: () => openHandbook(repo, { database }),
    status: () => handbookStatus(repo, { database }),
    ask: () => askHandbook(repo, 'where are secrets masked?', { database }),
  };
}

describe('a handbook database is known before anything is written to it', () => {
  it.each([2, 0])("refuses another application's database (user_version %i) for every command, and leaves its bytes as they were", async (userVersion) => {
    const repo = copyOfFixture();
    const database = applicationDatabase(userVersion);
    const before = readFileSync(database);
    for (const [name, action] of Object.entries(readersAndWriters(repo, database))) {
      const error = await refusal(action);
      expect({ name, code: error.code, message: error.message }).toEqual({ name, code: 'INVALID_INPUT', message: `${database} is not a handbook database` });
      expect(error.hint).toMatch(/a new path/);
    }
    expect(readFileSync(database).equals(before)).toBe(true);
    expect(existsSync(`${database}-wal`)).toBe(false);
    expect(existsSync(`${database}.routing`)).toBe(false);
  });

  it('says a file that is not a database is not a readable handbook, and offers to delete only a damaged handbook of its own', async () => {
    const repo = copyOfFixture();
    const garbage = path.join(scratchDirectory(), 'notes.txt');
    writeFileSync(garbage, 'root:x:0:0:root:/root:/bin/bash\n'.repeat(200));
    for (const action of Object.values(readersAndWriters(repo, garbage))) {
      const error = await refusal(action);
      expect(error.code).toBe('DATABASE_CORRUPT');
      expect(error.message).toBe(`${garbage} is not a readable handbook database`);
      expect(error.hint).not.toMatch(/delete/);
    }
    const damaged = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database: damaged });
    const connection = new Database(damaged);
    connection.exec('DROP TABLE generations');
    connection.close();
    const error = await refusal(() => openHandbook(repo, { database: damaged }));
    expect(error.code).toBe('DATABASE_CORRUPT');
    expect(error.hint).toMatch(/^delete it/);
  });

  it('marks a handbook it creates, in a new file or an empty one', async () => {
    const repo = copyOfFixture();
    const fresh = path.join(scratchDirectory(), 'new', 'handbook.db');
    const empty = path.join(scratchDirectory(), 'empty.db');
    writeFileSync(empty, '');
    for (const database of [fresh, empty]) {
      await buildHandbook(repo, { database });
      expect(pragmas(database)).toEqual({ applicationId: HANDBOOK_APPLICATION_ID, version: SCHEMA_VERSION });
    }
  });

  it('reads a handbook from before the mark, and marks it on the next build or sync', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const connection = new Database(database);
    connection.pragma('application_id = 0');
    connection.close();
    expect(openHandbook(repo, { database }).graph.units.length).toBeGreaterThan(0);
    // A reader writes nothing, the mark neither.
    expect(pragmas(database).applicationId).toBe(0);
    expect((await syncHandbook(repo, { database })).upToDate).toBe(true);
    expect(pragmas(database).applicationId).toBe(HANDBOOK_APPLICATION_ID);
  });

  it('migrates a handbook of an older schema, which carries no mark', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    const older = new Database(database);
    older.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 5)) older.exec(migration);
    older.pragma('user_version = 5');
    older.close();
    expect((await refusal(() => openHandbook(repo, { database }))).code).toBe('NO_HANDBOOK');
    await buildHandbook(repo, { database });
    expect(pragmas(database)).toEqual({ applicationId: HANDBOOK_APPLICATION_ID, version: SCHEMA_VERSION });
    expect(openHandbook(repo, { database }).graph.units.length).toBeGreaterThan(0);
  });
});
