import { copyFileSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, watchHandbook, type WatchEvent, type WatchSyncEvent } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const LONG = 180_000;

describe('watch and a symlinked source file', () => {
  it('syncs the link when it is pointed at another file', async () => {
    const repo = copyOfFixture();
    const link = path.join(repo, 'src/tools/shell.ts');
    const text = readFileSync(link, 'utf8');
    copyFileSync(link, path.join(repo, 'src/tools/shellA.ts'));
    writeFileSync(path.join(repo, 'src/tools/shellB.ts'), text.replace('export async function runShellTool', 'export async function runOtherShellTool'));
    unlinkSync(link);
    symlinkSync('shellA.ts', link);
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const syncs: WatchSyncEvent[] = [];
    const errors: string[] = [];
    const handle = await watchHandbook(repo, {
      database,
      debounceMs: 50,
      onEvent: (event: WatchEvent) => {
        if (event.type === 'sync') syncs.push(event);
        if (event.type === 'error') errors.push(event.message);
      },
    });
    try {
      await handle.settled();
      // chokidar follows a link once, so a link replaced by one to another file (`ln -sf`) raises no event of chokidar's own.
      unlinkSync(link);
      symlinkSync('shellB.ts', link);
      await expect.poll(() => syncs.flatMap((sync) => sync.modified), { timeout: 60_000, interval: 100 }).toContain('src/tools/shell.ts');
      await handle.settled();
      await expectSameAsColdBuild(repo, database, 'a link pointed at another file');
    } finally {
      await handle.close();
    }
    expect(errors).toEqual([]);
  }, LONG);
});
