import * as fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discoverFiles } from '../../src/analyze/discover-files.js';
import { scratchDirectory } from '../helpers/paths.js';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, statSync: vi.fn(actual.statSync) };
});

const realStatSync = (await vi.importActual<typeof import('node:fs')>('node:fs')).statSync;

/** Deletes `victim` just before discovery stats it: a tree changing while it is walked, as under `handbook watch`. */
function deleteBeforeStat(victim: string): void {
  vi.mocked(fs.statSync).mockImplementation(((file: fs.PathLike, options?: fs.StatSyncOptions) => {
    if (file === victim) fs.rmSync(victim, { recursive: true, force: true });
    return realStatSync(file, options);
  }) as typeof fs.statSync);
}

function repoWith(files: Record<string, string>): string {
  const root = fs.realpathSync(scratchDirectory());
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

describe('discovery of a tree that changes while it is walked', () => {
  afterEach(() => vi.mocked(fs.statSync).mockImplementation(realStatSync));

  it('skips a symlinked folder deleted between resolving the link and reading its target', () => {
    // `link` is walked before `target`, so the folder is gone for both.
    const root = repoWith({ 'a.ts': 'export const a = 1;', 'target/b.ts': 'export const b = 1;' });
    fs.symlinkSync(path.join(root, 'target'), path.join(root, 'link'));
    deleteBeforeStat(path.join(root, 'target'));
    const result = discoverFiles(root);
    expect(result.files.map((file) => file.path)).toEqual(['a.ts']);
    expect(result.skippedDirectories).toEqual({ unreadable: 2 });
  });

  it('skips an included folder deleted between the check and the walk', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;', 'gone/b.ts': 'export const b = 1;' });
    deleteBeforeStat(path.join(root, 'gone'));
    expect(discoverFiles(root, { include: ['src', 'gone'] }).files.map((file) => file.path)).toEqual(['src/a.ts']);
  });
});

describe('folder listings kept across discoveries', () => {
  it('finds a file added to a folder just listed, and drops one removed from a folder listed long ago', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;', 'old/b.ts': 'export const b = 1;' });
    // `old` was last changed long ago, so its listing is trusted while its stamp stands.
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'old'), past, past);
    const listings = new Map();
    expect(discoverFiles(root, { listings }).files.map((file) => file.path)).toEqual(['old/b.ts', 'src/a.ts']);
    // Within the racy window of the listing: the same mtime second may hide this write.
    fs.writeFileSync(path.join(root, 'src/c.ts'), 'export const c = 1;');
    fs.rmSync(path.join(root, 'old/b.ts'));
    expect(discoverFiles(root, { listings }).files.map((file) => file.path)).toEqual(['src/a.ts', 'src/c.ts']);
  });
});
