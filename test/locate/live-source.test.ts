import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderVerdicts } from '../../src/analyze/discover-path.js';
import { liveSourceReader } from '../../src/locate/live-source.js';
import { scratchDirectory } from '../helpers/paths.js';

describe('a reader for one pass over the tree', () => {
  it('judges each folder once and reads every file as a reader that judges each time', () => {
    const root = scratchDirectory();
    const files = { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'src/sub/c.ts': 'export const c = 3;\n', 'node_modules/x/d.ts': 'export const d = 4;\n', 'dist/e.ts': 'export const e = 5;\n' };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const asked = [...Object.keys(files), 'src/gone.ts', 'src/sub/gone/f.ts', 'node_modules/y.ts'];
    const folders: FolderVerdicts = new Map();
    const onePass = liveSourceReader(root, {}, folders);
    const everyTime = liveSourceReader(root);
    for (const file of asked) expect(onePass(file)).toEqual(everyTime(file));
    expect(onePass('src/a.ts')).toMatchObject({ kind: 'source' });
    expect(onePass('node_modules/x/d.ts')).toMatchObject({ kind: 'skipped' });
    expect([...folders.keys()].sort()).toEqual(['dist', 'node_modules', 'src', 'src/sub', 'src/sub/gone']);
  });
});
