import { utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, watchHandbook, type WatchEvent, type WatchSyncEvent } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { LONG_AGO, rewriteKeepingSizeAndTime } from '../helpers/same-stamp.js';

const LONG = 180_000;

/** Watches a built copy of the fixture whose `file` was last modified long ago (and read since, by the build). */
async function watchedCopy(file: string): Promise<{ repo: string; database: string; nextSync: () => Promise<WatchSyncEvent>; close: () => Promise<string[]> }> {
  const repo = copyOfFixture();
  utimesSync(path.join(repo, file), LONG_AGO, LONG_AGO);
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  const waiters: Array<(event: WatchSyncEvent) => void> = [];
  const errors: string[] = [];
  const handle = await watchHandbook(repo, {
    database,
    debounceMs: 50,
    onEvent: (event: WatchEvent) => {
      if (event.type === 'error') errors.push(event.message);
      if (event.type === 'sync') for (const wake of waiters.splice(0)) wake(event);
    },
  });
  await handle.settled();
  return {
    repo,
    database,
    nextSync: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      await handle.close();
      return errors;
    },
  };
}

describe('watch after a rewrite that keeps size and modification time', () => {
  it('syncs a source file put back with its old size and mtime, which chokidar takes for a read', async () => {
    const file = 'src/security/secrets.ts';
    const watching = await watchedCopy(file);
    try {
      const synced = watching.nextSync();
      rewriteKeepingSizeAndTime(path.join(watching.repo, file), (text) => text.replaceAll('redactValue', 'redactValux'));
      expect(await synced).toMatchObject({ upToDate: false, modified: [file] });
      await expectSameAsColdBuild(watching.repo, watching.database, 'same size and mtime');
    } finally {
      expect(await watching.close()).toEqual([]);
    }
  }, LONG);

  it('syncs a tsconfig put back with its old size and mtime', async () => {
    const watching = await watchedCopy('tsconfig.json');
    try {
      const synced = watching.nextSync();
      rewriteKeepingSizeAndTime(path.join(watching.repo, 'tsconfig.json'), (text) => text.replace('"@harness/*"', '"@harnesx/*"'));
      expect(await synced).toMatchObject({ upToDate: false, fullRebuild: 'compiler settings changed' });
      await expectSameAsColdBuild(watching.repo, watching.database, 'tsconfig, same size and mtime');
    } finally {
      expect(await watching.close()).toEqual([]);
    }
  }, LONG);
});
