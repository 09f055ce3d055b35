import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTestScript, readPackageManifest } from '../../src/plan/package-manifest.js';

function folderWith(manifest: string | undefined): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'manifest-'));
  if (manifest !== undefined) writeFileSync(path.join(folder, 'package.json'), manifest);
  return folder;
}

describe('readPackageManifest', () => {
  it('keeps the test script when another field is odd, so the planner and the gate agree on it', () => {
    const manifest = readPackageManifest(folderWith(JSON.stringify({ scripts: { test: 'vitest run', lint: ['not', 'a', 'string'] }, devDependencies: 42 })));
    expect(hasTestScript(manifest)).toBe(true);
    expect(manifest.devDependencies).toBeUndefined();
  });

  it('reads a missing, broken or non-object manifest as none', () => {
    expect(readPackageManifest(folderWith(undefined))).toEqual({});
    expect(readPackageManifest(folderWith('{ "scripts": '))).toEqual({});
    expect(readPackageManifest(folderWith('[1, 2]'))).toEqual({});
    const directory = folderWith(undefined);
    mkdirSync(path.join(directory, 'package.json'));
    expect(readPackageManifest(directory)).toEqual({});
  });

  it('sees no test script where scripts.test is not a command', () => {
    expect(hasTestScript(readPackageManifest(folderWith(JSON.stringify({ scripts: { test: true } }))))).toBe(false);
    expect(hasTestScript(readPackageManifest(folderWith(JSON.stringify({ scripts: { build: 'tsc' } }))))).toBe(false);
  });
});
