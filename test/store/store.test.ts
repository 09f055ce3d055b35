import { spawn } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import { HandbookError } from '../../src/errors.js';
import * as generations from '../../src/store/generations.js';
import { openDatabase } from '../../src/store/open-database.js';
import { PROJECT_ROOT, copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { syntheticRepository } from '../helpers/synthetic-repo.js';

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
  } catch (error) {
    return HandbookError.isInstance(error) ? error.code : `unexpected: ${String(error)}`;
  }
  return undefined;
}

describe('the handbook store', () => {
  it('stores a build and reads back exactly the analyzed graph', async () => {
    const repo = copyOfFixture();
    const summary = await buildHandbook(repo);
    const handbook = openHandbook(repo);
    expect(handbook.generation.id).toBe(summary.generation);
    expect(handbook.graph.units.length).toBe(Object.values(summary.units).reduce((a, b) => a + b, 0));
    expect(handbook.summary.files).toBe(25);
  });

  it('replaces the previous generation on rebuild and keeps no old rows', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const second = await buildHandbook(repo);
    const database = new Database(path.join(repo, '.handbook', 'handbook.db'), { readonly: true });
    const generations = database.prepare('SELECT DISTINCT generation FROM units').all() as Array<{ generation: number }>;
    database.close();
    expect(generations).toEqual([{ generation: second.generation }]);
  });

  it('tells the user to build when there is no handbook', async () => {
    expect(await codeOf(() => openHandbook(copyOfFixture()))).toBe('NO_HANDBOOK');
  });

  it('refuses a corrupt database with a clear error', async () => {
    const repo = copyOfFixture();
    const file = path.join(scratchDirectory(), 'handbook.db');
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    expect(await codeOf(() => openHandbook(repo, { database: file }))).toBe('DATABASE_CORRUPT');
    expect(await codeOf(() => buildHandbook(repo, { database: file }))).toBe('DATABASE_CORRUPT');
  });

  it('refuses a database from a newer schema', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const file = path.join(repo, '.handbook', 'handbook.db');
    const database = new Database(file);
    database.pragma('user_version = 99');
    database.close();
    expect(await codeOf(() => openHandbook(repo))).toBe('DATABASE_TOO_NEW');
    expect(await codeOf(() => buildHandbook(repo))).toBe('DATABASE_TOO_NEW');
  });

  it('lets no second build write while a build writes its generation: it waits for the lock, never clears the one being written', async () => {
    const repo = copyOfFixture();
    const file = path.join(scratchDirectory(), 'handbook.db');
    const built = await buildHandbook(repo, { database: file });
    const rewrite = (database: ReturnType<typeof openDatabase>, searchTerms: ReadonlyMap<string, string>) => {
      const current = generations.currentGenerationOrThrow(database);
      return generations.writeGeneration(database, generations.readGraph(database, current.id), generations.readOrganized(database, current.id), searchTerms, {
        root: current.root, commit: current.commit, createdAt: new Date().toISOString(), settings: current.settings, files: new Map(), summary: () => current.summary,
      });
    };
    const first = openDatabase(file, 'create');
    const second = openDatabase(file, 'create');
    second.pragma('busy_timeout = 0');
    let secondOutcome = 'not run';
    // The second build reaches its write while the first is between its rows.
    class InterleavedTerms extends Map<string, string> {
      override *[Symbol.iterator](): MapIterator<[string, string]> {
        try {
          rewrite(second, generations.readSearchTerms(second, generations.currentGenerationOrThrow(second).id));
          secondOutcome = 'written';
        } catch (error) {
          secondOutcome = String(error);
        }
        yield* super[Symbol.iterator]();
      }
    }
    try {
      const written = rewrite(first, new InterleavedTerms(generations.readSearchTerms(first, built.generation)));
      expect(secondOutcome).toMatch(/SQLITE_BUSY|database is locked/);
      expect(openHandbook(repo, { database: file }).generation.id).toBe(written.generation);
      expect(openHandbook(repo, { database: file }).graph.units.length).toBe(Object.values(built.units).reduce((a, b) => a + b, 0));
      // Once the first is done, the second writes as any later build does.
      rewrite(second, generations.readSearchTerms(second, written.generation));
    } finally {
      first.close();
      second.close();
    }
  });

  it('leaves the previous handbook readable and intact when a build is killed while writing', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const before = JSON.stringify(openHandbook(repo, { database }).graph.toData());
    // The same repository grown large, so that writing its handbook takes long enough to be killed in.
    cpSync(path.join(syntheticRepository(250, 40), 'src'), path.join(repo, 'src'), { recursive: true });
    const child = `
      const { buildHandbook } = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'dist', 'index.js'))});
      await buildHandbook(process.argv[1], { database: process.argv[2], onProgress: (p) => {
        if (p.phase === 'write' && p.done === 0) process.stdout.write('write\\n');
      } });
      process.stdout.write('done\\n');`;
    let killedWhileWriting = 0;
    for (const delay of [0, 15, 40, 80, 150, 300]) {
      const outcome = await new Promise<string>((resolve) => {
        const process_ = spawn(process.execPath, ['--input-type=module', '-e', child, repo, database], { stdio: ['ignore', 'pipe', 'inherit'] });
        let output = '';
        process_.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('write') && !output.includes('done')) setTimeout(() => process_.kill('SIGKILL'), delay);
        });
        process_.on('exit', () => resolve(output));
      });
      const after = openHandbook(repo, { database });
      const stillPrevious = JSON.stringify(after.graph.toData()) === before;
      // A kill after the switch committed leaves the new generation, whole; anything else leaves the old one.
      if (!stillPrevious) {
        expect(after.graph.units.length).toBe(after.summary.units ? Object.values(after.summary.units).reduce((a, b) => a + b, 0) : -1);
        expect(after.graph.units.length).toBeGreaterThan(10_000);
        break;
      }
      if (!outcome.includes('done')) killedWhileWriting += 1;
    }
    expect(killedWhileWriting).toBeGreaterThan(0);
    // A later build cleans up whatever the killed ones left and succeeds.
    const summary = await buildHandbook(repo, { database });
    expect(openHandbook(repo, { database }).generation.id).toBe(summary.generation);
    // Up to seven builds of a 10,000-unit repository: about 50 s on a quiet machine, twice that under load.
  }, 240_000);
});
