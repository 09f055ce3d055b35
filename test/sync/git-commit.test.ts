import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentCommit } from '../../src/api/git-commit.js';
import { scratchDirectory } from '../helpers/paths.js';

const git = (repo: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' }).trim();

describe('the commit a sync records', () => {
  it('follows commits, branch switches, a detached head and packed refs, though it asks git only when they move', () => {
    const repo = scratchDirectory();
    expect(currentCommit(repo)).toBeNull();
    git(repo, 'init', '-q', '-b', 'main');
    expect(currentCommit(repo)).toBeNull();
    const commit = (text: string): string => {
      writeFileSync(path.join(repo, 'a.ts'), text);
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', text);
      return git(repo, 'rev-parse', 'HEAD');
    };
    const first = commit('export const a = 1;\n');
    expect(currentCommit(repo)).toBe(first);
    const second = commit('export const a = 2;\n');
    expect(currentCommit(repo)).toBe(second);
    git(repo, 'checkout', '-q', '-b', 'feature/x', first);
    expect(currentCommit(repo)).toBe(first);
    const third = commit('export const a = 3;\n');
    expect(currentCommit(repo)).toBe(third);
    git(repo, 'checkout', '-q', '--detach', second);
    expect(currentCommit(repo)).toBe(second);
    git(repo, 'checkout', '-q', 'main');
    git(repo, 'pack-refs', '--all');
    expect(currentCommit(repo)).toBe(second);
    git(repo, 'reset', '-q', '--hard', first);
    expect(currentCommit(repo)).toBe(first);
  });
});
