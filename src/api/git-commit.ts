import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The last answer per repository, with the state of the files git reads it from. */
const answers = new Map<string, { key: string; commit: string | null }>();

/**
 * What `git rev-parse HEAD` depends on in a plain checkout: HEAD, the branch's ref file and the
 * packed refs; outside any repository, that there is still no `.git` from here up. A watch asks
 * after every change; while these stand still the answer does too. Undefined when the layout is
 * anything else (a worktree, another ref store): then git is asked.
 */
function headKey(root: string): string | undefined {
  let git: string | undefined;
  for (let folder = path.resolve(root); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, '.git');
    const stats = statSync(candidate, { throwIfNoEntry: false });
    if (stats?.isDirectory()) {
      git = candidate;
      break;
    }
    if (stats) return undefined;
    if (path.dirname(folder) === folder) return 'no repository';
  }
  try {
    // The reftable store keeps HEAD and the refs files still while commits move: only git can say.
    if (/^\s*refstorage\s*=/im.test(readFileSync(path.join(git, 'config'), 'utf8'))) return undefined;
    const head = readFileSync(path.join(git, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (refs\/[^\0]+)$/.exec(head)?.[1];
    const stamp = (file: string): string => {
      const stats = statSync(path.join(git, file), { throwIfNoEntry: false });
      return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : '-';
    };
    return `${git}\u0000${head}\u0000${ref ? stamp(ref) : ''}\u0000${stamp('packed-refs')}\u0000${stamp('HEAD')}`;
  } catch {
    return undefined;
  }
}

/** The commit the working tree is on, or null outside git; the build records it for later re-syncs. */
export function currentCommit(root: string): string | null {
  const key = headKey(root);
  const known = answers.get(root);
  if (key !== undefined && known?.key === key) return known.commit;
  let commit: string | null = null;
  try {
    const output = execFileSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
    commit = /^[0-9a-f]{40}$/.test(output) ? output : null;
  } catch {
    commit = null;
  }
  if (key !== undefined) answers.set(root, { key, commit });
  return commit;
}
