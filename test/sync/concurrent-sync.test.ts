import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, syncHandbook, type SyncOptions } from '../../src/index.js';
import { changeFile, expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { CLI, scratchDirectory } from '../helpers/paths.js';

/**
 * Two syncs at once: one analyzes the tree, a file changes, another sync reads it and writes first.
 * The first must not then write its older view over the other's (an update in place rewrites the
 * stages and overview whole, and would leave the newer file's units in no stage).
 */
describe('a sync whose handbook another process wrote while it analyzed', () => {
  for (const keepOpen of [true, false]) {
    it(`does not write its older view over the newer one, keepOpen=${keepOpen}`, async () => {
      const repo = path.join(scratchDirectory(), 'repo');
      mkdirSync(path.join(repo, 'src'), { recursive: true });
      writeFileSync(path.join(repo, 'src/budget.ts'), 'export function countTokens(text: string): number {\n  return text.length;\n}\n');
      writeFileSync(path.join(repo, 'src/secrets.ts'), 'export function maskSecrets(text: string): string {\n  return text;\n}\n');
      const database = path.join(scratchDirectory(), 'handbook.db');
      await buildHandbook(repo, { database });
      let armed = false;
      let foreignSync: { status: number | null; stderr: string } | undefined;
      const live = keepOpen ? await LiveHandbook.open(repo, { database, onProgress: duringWrite }) : undefined;
      if (live) await live.sync();

      changeFile(repo, 'src/budget.ts', (text) => `${text}export function trimHistory(limit: number): number {\n  return limit;\n}\n`);
      function duringWrite(progress: Parameters<NonNullable<SyncOptions['onProgress']>>[0]): void {
        if (progress.phase !== 'write' || progress.done !== 0 || foreignSync || !armed) return;
        // Saved after this sync read the tree; a sync in another process sees it and writes first.
        changeFile(repo, 'src/secrets.ts', (text) => `${text}export function redactApiKeys(text: string): string {\n  return text;\n}\n`);
        foreignSync = spawnSync(process.execPath, [CLI, 'sync', repo, '--db', database, '--no-progress'], { encoding: 'utf8' });
      }
      armed = true;
      await (live ? live.sync() : syncHandbook(repo, { database, onProgress: duringWrite }));
      armed = false;
      live?.close();
      expect(foreignSync?.status, foreignSync?.stderr).toBe(0);
      await expectSameAsColdBuild(repo, database, 'a sync that another process overtook');
    });
  }
});
