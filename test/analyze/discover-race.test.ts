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
