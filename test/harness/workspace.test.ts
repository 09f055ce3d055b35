import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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
});
