import { LiveResolver, type LocatorStatus } from '../locate/live-resolver.js';
import { currentCommit } from './git-commit.js';
import { openHandbook } from './open-handbook.js';

export interface StatusReport {
  root: string;
  builtAt: string;
  builtCommit: string | null;
  head: string | null;
  counts: Record<LocatorStatus, number>;
  /** Units whose code is gone, with why; kept in the handbook, left out of answers. */
  frozen: Array<{ unit: string; reason: string }>;
  /** Units whose code changed since the build (a re-sync will re-analyze them). */
  changed: string[];
  fresh: boolean;
}

/**
 * Checks every entry of the handbook against the live files: how many are fresh, changed or
 * frozen, and which. A handbook is fresh when every entry is.
 */
export async function handbookStatus(root: string, options: { database?: string } = {}): Promise<StatusReport> {
  const handbook = openHandbook(root, { ...(options.database ? { database: options.database } : {}), withUnresolved: false });
  const resolver = new LiveResolver(handbook.root, handbook.graph.toData().files, async (file, source) => (await import('../analyze/parse-live-file.js')).parseLiveFile(file, source));
  const counts: Record<LocatorStatus, number> = { fresh: 0, changed: 0, moved: 0, frozen: 0 };
  const frozen: StatusReport['frozen'] = [];
  const changed: string[] = [];
  for (const unit of handbook.graph.units) {
    if (unit.kind === 'file') continue;
    const resolved = await resolver.resolve(unit);
    counts[resolved.status] += 1;
    if (resolved.status === 'frozen') frozen.push({ unit: unit.id, reason: resolved.reason ?? 'not found' });
    if (resolved.status === 'changed') changed.push(unit.id);
  }
  return {
    root: handbook.root,
    builtAt: handbook.generation.createdAt,
    builtCommit: handbook.generation.commit,
    head: currentCommit(handbook.root),
    counts,
    frozen,
    changed,
    fresh: counts.changed === 0 && counts.frozen === 0 && counts.moved === 0,
  };
}
