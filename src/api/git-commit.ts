import { execFileSync } from 'node:child_process';

/** The commit the working tree is on, or null outside git; the build records it for later re-syncs. */
export function currentCommit(root: string): string | null {
  try {
    const output = execFileSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    });
    const commit = output.trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
