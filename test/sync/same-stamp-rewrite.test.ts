import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { LONG_AGO, rewriteKeepingSizeAndTime } from '../helpers/same-stamp.js';

/** Builds a copy of the fixture whose `file` was last modified long ago, and keeps it open as `watch` does. */
async function keptOpenCopy(file: string, prepare: (target: string) => void = () => undefined): Promise<{ repo: string; database: string; live: LiveHandbook }> {
  const repo = copyOfFixture();
  const target = path.join(repo, file);
  prepare(target);
  utimesSync(target, LONG_AGO, LONG_AGO);
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  const live = await LiveHandbook.open(repo, { database });
  expect((await live.sync()).upToDate).toBe(true);
  return { repo, database, live };
}

describe('a kept-open sync after a rewrite that keeps size and modification time', () => {
  it('reads a source file again', async () => {
    const file = 'src/security/secrets.ts';
    const { repo, database, live } = await keptOpenCopy(file);
    try {
      rewriteKeepingSizeAndTime(path.join(repo, file), (text) => text.replaceAll('redactValue', 'redactValux'));
      expect(await live.sync()).toMatchObject({ upToDate: false, modified: [file] });
    } finally {
      live.close();
    }
    await expectSameAsColdBuild(repo, database, 'same size and mtime');
  });

  it('judges the content again, leaving out a file that became generated code', async () => {
    const file = 'src/hooks.ts';
    // A leading comment as long as the generated-code marker that will replace it.
    const { repo, database, live } = await keptOpenCopy(file, (target) => writeFileSync(target, `// plain hand-written notes\n${readFileSync(target, 'utf8')}`));
    try {
      rewriteKeepingSizeAndTime(path.join(repo, file), (text) => text.replace('// plain hand-written notes', '// @generated: do not edit!'));
      expect(await live.sync()).toMatchObject({ upToDate: false, removed: [file], skipped: [{ file, reason: 'generated' }] });
    } finally {
      live.close();
    }
    await expectSameAsColdBuild(repo, database, 'now generated, same size and mtime');
  });

  it('reads a tsconfig again', async () => {
    const { repo, database, live } = await keptOpenCopy('tsconfig.json');
    try {
      // logger.ts imports through this alias: renamed, the import leads nowhere.
      rewriteKeepingSizeAndTime(path.join(repo, 'tsconfig.json'), (text) => text.replace('"@harness/*"', '"@harnesx/*"'));
      expect(await live.sync()).toMatchObject({ upToDate: false, fullRebuild: 'compiler settings changed' });
    } finally {
      live.close();
    }
    await expectSameAsColdBuild(repo, database, 'tsconfig, same size and mtime');
  });
});
