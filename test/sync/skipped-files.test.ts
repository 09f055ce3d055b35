import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, syncHandbook, type SyncSummary } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { CLI, scratchDirectory } from '../helpers/paths.js';

/**
 * A file analysis now leaves out is not a file deleted: sync says which files it skips and why,
 * so a user is not told that a file still on disk was removed.
 */
const MAX_FILE_BYTES = 2_000;
const FILES: Record<string, string> = {
  'src/a.ts': "import { twice } from './b';\nexport function run(): number {\n  return twice(2);\n}\n",
  'src/b.ts': 'export function twice(value: number): number {\n  return value * 2;\n}\n',
  'src/c.ts': 'export function other(): string {\n  return "c";\n}\n',
  'tools/lib/helper.ts': 'export function help(): number {\n  return 3;\n}\n',
};

function tinyRepo(): string {
  const repo = path.join(scratchDirectory(), 'tiny');
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  return repo;
}

const edits: Array<{ name: string; edit: (repo: string) => void; removed: string[]; skipped: SyncSummary['skipped'] }> = [
  {
    name: 'a file overwritten with binary bytes',
    edit: (repo) => writeFileSync(path.join(repo, 'src/b.ts'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02])),
    removed: ['src/b.ts'],
    skipped: [{ file: 'src/b.ts', reason: 'binary' }],
  },
  {
    name: 'a file grown over the size cap',
    edit: (repo) => writeFileSync(path.join(repo, 'src/b.ts'), `${FILES['src/b.ts']}${'// padding\n'.repeat(MAX_FILE_BYTES / 10)}`),
    removed: ['src/b.ts'],
    skipped: [{ file: 'src/b.ts', reason: 'too-large' }],
  },
  {
    // A `lib` folder beside a `src` one is build output: the file is left out with its folder.
    name: 'a folder that became build output',
    edit: (repo) => {
      mkdirSync(path.join(repo, 'tools/src'));
      writeFileSync(path.join(repo, 'tools/src/helper.ts'), FILES['tools/lib/helper.ts']!);
    },
    removed: ['tools/lib/helper.ts'],
    skipped: [{ file: 'tools/lib/helper.ts', reason: 'build-output' }],
  },
  {
    name: 'a file deleted',
    edit: (repo) => rmSync(path.join(repo, 'src/b.ts')),
    removed: ['src/b.ts'],
    skipped: [],
  },
];

describe('sync names the files it now skips', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit, removed, skipped } of edits) {
      it(`${name}, keepOpen=${keepOpen}`, async () => {
        const repo = tinyRepo();
        const database = path.join(scratchDirectory(), 'handbook.db');
        await buildHandbook(repo, { database, maxFileBytes: MAX_FILE_BYTES });
        const live = keepOpen ? await LiveHandbook.open(repo, { database }) : undefined;
        const sync = () => (live ? live.sync() : syncHandbook(repo, { database }));
        if (live) await live.sync();
        edit(repo);
        const summary = await sync();
        live?.close();
        // `removed` keeps its meaning (files whose entries left the handbook); `skipped` tells which of them are still there.
        expect(summary).toMatchObject({ upToDate: false, removed, skipped });
        await expectSameAsColdBuild(repo, database, name, { maxFileBytes: MAX_FILE_BYTES });
      });
    }
  }

  it('prints a skipped file with its reason, not as removed, and lists it in --json', async () => {
    const repo = tinyRepo();
    await buildHandbook(repo);
    writeFileSync(path.join(repo, 'src/b.ts'), Buffer.from([0x00, 0x01, 0x02]));
    rmSync(path.join(repo, 'src/c.ts'));
    const human = spawnSync(process.execPath, [CLI, 'sync', repo, '--no-progress'], { encoding: 'utf8' });
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/^ {2}removed {4}src\/c\.ts$/m);
    expect(human.stdout).toMatch(/^ {2}skipped {4}src\/b\.ts \(binary\)/m);

    writeFileSync(path.join(repo, 'src/c.ts'), FILES['src/c.ts']!);
    expect(spawnSync(process.execPath, [CLI, 'sync', repo, '--no-progress'], { encoding: 'utf8' }).status).toBe(0);
    writeFileSync(path.join(repo, 'src/c.ts'), Buffer.from([0x00]));
    const json = spawnSync(process.execPath, [CLI, 'sync', repo, '--json'], { encoding: 'utf8' });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ removed: ['src/c.ts'], skipped: [{ file: 'src/c.ts', reason: 'binary' }] });
  });
});
