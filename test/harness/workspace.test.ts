import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathRefused, Workspace } from '../../src/harness/workspace.js';
import { scratchDirectory } from '../helpers/paths.js';

function repoWithOutside(): { root: string; outside: string } {
  const base = scratchDirectory();
  const root = path.join(base, 'repo');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'src/a.ts'), 'export {};\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  return { root, outside };
}

function ruleOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    if (error instanceof PathRefused) return error.rule;
    throw error;
  }
}

describe('Workspace paths', () => {
  it('resolves paths inside the root, relative or absolute, to one posix relative form', () => {
    const { root } = repoWithOutside();
    const workspace = new Workspace(root);
    expect(workspace.resolve('./src/../src/a.ts', 'read').relative).toBe('src/a.ts');
    expect(workspace.resolve(path.join(workspace.root, 'src/a.ts'), 'write').relative).toBe('src/a.ts');
  });

  it('refuses escapes, protected folders, control characters, symlinks out and writes outside scope, naming the rule', () => {
    const { root, outside } = repoWithOutside();
    symlinkSync(outside, path.join(root, 'linked'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'src/secret.txt'));
    const workspace = new Workspace(root, ['src/**']);
    expect(ruleOf(() => workspace.resolve('../outside/secret.txt', 'read'))).toBe('outside-root');
    expect(ruleOf(() => workspace.resolve('/etc/passwd', 'read'))).toBe('outside-root');
    expect(ruleOf(() => workspace.resolve('.git/config', 'read'))).toBe('protected-folder');
    expect(ruleOf(() => workspace.resolve('src/.././.handbook/handbook.db', 'write'))).toBe('protected-folder');
    expect(ruleOf(() => workspace.resolve('src/a\u0000.ts', 'read'))).toBe('control-character');
    expect(ruleOf(() => workspace.resolve('linked/secret.txt', 'read'))).toBe('symlink');
    expect(ruleOf(() => workspace.resolve('linked/new.txt', 'write'))).toBe('symlink');
    expect(ruleOf(() => workspace.resolve('src/secret.txt', 'read'))).toBe('symlink');
    expect(ruleOf(() => workspace.resolve('src/secret.txt', 'write'))).toBe('symlink');
    expect(ruleOf(() => workspace.resolve('README.md', 'write'))).toBe('outside-scope');
    expect(ruleOf(() => workspace.resolve('README.md', 'read'))).toBeUndefined();
    expect(ruleOf(() => workspace.resolve('src/new/deep.ts', 'write'))).toBeUndefined();
  });

  it('does not take a name that starts with two dots for a step up', () => {
    const { root } = repoWithOutside();
    expect(new Workspace(root).resolve('..notes.md', 'write').relative).toBe('..notes.md');
  });
});

describe('Workspace file operations', () => {
  it('reads text, and tells a missing file, a folder and a binary file apart', () => {
    const { root } = repoWithOutside();
    writeFileSync(path.join(root, 'src/blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
    const workspace = new Workspace(root);
    expect(workspace.readText('src/a.ts')).toMatchObject({ status: 'text', text: 'export {};\n', path: { relative: 'src/a.ts' } });
    expect(workspace.readText('src/none.ts').status).toBe('missing');
    expect(workspace.readText('src').status).toBe('folder');
    expect(workspace.readText('src/blob.bin').status).toBe('binary');
  });

  it('replaces a file atomically, keeping its mode and leaving no temp file behind', () => {
    const { root } = repoWithOutside();
    chmodSync(path.join(root, 'src/a.ts'), 0o750);
    const workspace = new Workspace(root, ['src/**']);
    expect(workspace.writeText('src/a.ts', 'export const a = 2;\n').relative).toBe('src/a.ts');
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(statSync(path.join(root, 'src/a.ts')).mode & 0o777).toBe(0o750);
    expect(readdirSync(path.join(root, 'src'))).toEqual(['a.ts']);
  });

  it('reads and writes bytes with their permission bits, for a rollback, making missing folders and dropping set-id bits', () => {
    const { root } = repoWithOutside();
    const workspace = new Workspace(root, ['src/**']);
    workspace.writeFile('src/gone/again.sh', Buffer.from('#!/bin/sh\n'), { mode: 0o4755 });
    expect(statSync(path.join(root, 'src/gone/again.sh')).mode & 0o7777).toBe(0o755);
    expect(workspace.readFile('src/gone/again.sh', 'write')).toMatchObject({ status: 'file', bytes: Buffer.from('#!/bin/sh\n'), mode: 0o755 });
    expect(workspace.readFile('src/never.ts', 'write').status).toBe('missing');
  });

  it('creates files with their missing folders, never over an existing one, and removes files', () => {
    const { root } = repoWithOutside();
    const workspace = new Workspace(root, ['src/**']);
    workspace.createText('src/deep/er/new.ts', 'export {};\n');
    expect(readFileSync(path.join(root, 'src/deep/er/new.ts'), 'utf8')).toBe('export {};\n');
    expect(ruleOf(() => workspace.createText('src/deep/er/new.ts', 'again'))).toBe('no-overwrite');
    expect(ruleOf(() => workspace.createText('src/a.ts/inner.ts', 'x'))).toBe('not-a-folder');
    expect(workspace.remove('src/deep/er/new.ts').status).toBe('removed');
    expect(existsSync(path.join(root, 'src/deep/er/new.ts'))).toBe(false);
    expect(workspace.remove('src/deep/er/new.ts').status).toBe('missing');
  });

  it('lists files under a folder by glob, and says when the folder is missing or a file', async () => {
    const { root } = repoWithOutside();
    writeFileSync(path.join(root, 'src/b.js'), '');
    const workspace = new Workspace(root);
    expect(await workspace.listFiles('src', '**/*.ts')).toMatchObject({ status: 'listed', files: ['src/a.ts'] });
    expect((await workspace.listFiles()).status).toBe('listed');
    expect((await workspace.listFiles('nowhere')).status).toBe('missing');
    expect((await workspace.listFiles('src/a.ts')).status).toBe('not-a-folder');
  });

  it('caps writes at 2 MB unless told otherwise, per workspace or per call', () => {
    const { root } = repoWithOutside();
    const workspace = new Workspace(root);
    expect(workspace.maxWriteBytes).toBe(2_000_000);
    expect(ruleOf(() => workspace.checkSize('src/a.ts', 'x'.repeat(2_000_001)))).toBe('size-cap');
    expect(ruleOf(() => workspace.checkSize('src/a.ts', 'x'.repeat(11), { maxBytes: 10 }))).toBe('size-cap');
    expect(ruleOf(() => new Workspace(root, [], { maxWriteBytes: 10 }).writeText('src/a.ts', 'x'.repeat(11)))).toBe('size-cap');
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export {};\n');
  });
});
