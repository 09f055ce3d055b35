import { readFileSync } from 'node:fs';
import { discoverFiles } from '../analyze/discover-files.js';
import { decodeSource } from '../analyze/source-text.js';
import { shortHash } from '../graph/content-hash.js';
import { LiveResolver, type LocatorStatus } from '../locate/live-resolver.js';
import { acceptanceStatuses, type AcceptanceStatus } from '../harness/acceptance.js';
import { currentCommit } from './git-commit.js';
import { handbookSettingsSchema } from './handbook-settings.js';
import { openHandbook, type Handbook } from './open-handbook.js';

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
  /** Units gone from their file whose exact code (same hash) now stands elsewhere. */
  moved: Array<{ unit: string; to: string }>;
  /** Source files the build would analyze now that the handbook does not hold: code the map does not show yet. */
  newFiles: string[];
  /** Units that changed files hold now and the handbook does not (a function added to a known file). */
  newUnits: string[];
  fresh: boolean;
  /** Acceptance records of harness runs, each checked against the files now: a write to a tested file invalidates its record. */
  acceptance: AcceptanceStatus[];
}

/** The discovery options the handbook was built with, so status looks at the files a build would. */
function discoveryOptionsOf(handbook: Handbook): Parameters<typeof discoverFiles>[1] {
  const parsed = handbookSettingsSchema.safeParse(handbook.generation.settings);
  if (!parsed.success) return {};
  return {
    ...(parsed.data.include ? { include: parsed.data.include } : {}),
    ...(parsed.data.maxFileBytes === undefined ? {} : { maxFileBytes: parsed.data.maxFileBytes }),
    buildOutputDirectories: parsed.data.outDirectories,
  };
}

/**
 * Checks every entry of the handbook against the live files: how many are fresh, changed or
 * frozen, and which, and which source files and units it does not hold yet. A handbook is fresh
 * when every entry is and no file or unit is missing.
 */
export async function handbookStatus(root: string, options: { database?: string } = {}): Promise<StatusReport> {
  const handbook = openHandbook(root, { ...(options.database ? { database: options.database } : {}), withUnresolved: false });
  const files = handbook.graph.toData().files;
  const resolver = new LiveResolver(handbook.root, files, async (file, source) => (await import('../analyze/parse-live-file.js')).parseLiveFile(file, source));
  const counts: Record<LocatorStatus, number> = { fresh: 0, changed: 0, moved: 0, frozen: 0 };
  let frozen: StatusReport['frozen'] = [];
  const changed: string[] = [];
  for (const unit of handbook.graph.units) {
    if (unit.kind === 'file') continue;
    const resolved = await resolver.resolve(unit);
    counts[resolved.status] += 1;
    if (resolved.status === 'frozen') frozen.push({ unit: unit.id, reason: resolved.reason ?? 'not found' });
    if (resolved.status === 'changed') changed.push(unit.id);
  }
  const known = new Set(handbook.graph.units.map((unit) => unit.id));
  const newUnits: string[] = [];
  for (const file of files) {
    for (const symbol of (await resolver.liveSymbolsOf(file.path)) ?? []) if (!known.has(`${file.path}#${symbol}`)) newUnits.push(`${file.path}#${symbol}`);
  }
  newUnits.sort();
  const discovered = discoverFiles(handbook.root, discoveryOptionsOf(handbook)).files;
  const recorded = new Set(files.map((file) => file.path));
  const newFiles = discovered.filter((file) => !recorded.has(file.path)).map((file) => file.path).sort();
  const moved = frozen.length > 0 ? await findMoves(handbook, frozen.map((entry) => entry.unit), discovered) : [];
  if (moved.length > 0) {
    const movedUnits = new Set(moved.map((move) => move.unit));
    frozen = frozen.filter((entry) => !movedUnits.has(entry.unit));
    counts.frozen -= moved.length;
    counts.moved += moved.length;
  }
  return {
    root: handbook.root,
    builtAt: handbook.generation.createdAt,
    builtCommit: handbook.generation.commit,
    head: currentCommit(handbook.root),
    counts,
    frozen,
    changed,
    moved,
    newFiles,
    newUnits,
    fresh: counts.changed === 0 && counts.frozen === 0 && counts.moved === 0 && newFiles.length === 0 && newUnits.length === 0,
    acceptance: acceptanceStatuses(handbook.root),
  };
}

/**
 * Looks for the exact code of units gone from their file (same whitespace-insensitive hash) in
 * the files that changed or appeared since the build: a unit moved to another file is followed,
 * not frozen. A hash found in more than one place is ambiguous and stays frozen.
 */
async function findMoves(handbook: Handbook, gone: string[], discovered: ReturnType<typeof discoverFiles>['files']): Promise<StatusReport['moved']> {
  const { parseLiveFile } = await import('../analyze/parse-live-file.js');
  const recorded = new Map(handbook.graph.toData().files.map((file) => [file.path, file.hash]));
  const candidates = discovered.filter((file) => {
    const stored = recorded.get(file.path);
    return stored === undefined || shortHash(readFileSync(file.absolutePath)) !== stored;
  });
  const byHash = new Map<string, string[]>();
  for (const file of candidates) {
    const text = decodeSource(readFileSync(file.absolutePath));
    for (const unit of await parseLiveFile(file.path, text)) {
      const places = byHash.get(unit.hash) ?? [];
      places.push(`${file.path}#${unit.symbol}`);
      byHash.set(unit.hash, places);
    }
  }
  const moves: StatusReport['moved'] = [];
  for (const id of gone) {
    const unit = handbook.graph.getUnit(id);
    const places = unit ? byHash.get(unit.hash) : undefined;
    if (places?.length === 1) moves.push({ unit: id, to: places[0]! });
  }
  return moves;
}
