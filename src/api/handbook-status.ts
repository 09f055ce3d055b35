import { compilerSettingsChange } from '../analyze/analysis-settings.js';
import { type SkippedFile, skipReasonOf } from '../analyze/discover-files.js';
import { assertIncludeFolders, STORED_INCLUDE_HINT } from '../analyze/include-folders.js';
import type { LocatorStatus } from '../locate/live-resolver.js';
import { acceptanceStatuses, type AcceptanceStatus } from '../harness/acceptance.js';
import { currentCommit } from './git-commit.js';
import { onePassResolverOf, sourceDiscoveryOf } from './live-resolution.js';
import { describeProject } from '../organize/overview.js';
import { readOverview } from '../store/generations.js';
import { entriesByFile, readFileHashes, readUnitLocations } from '../store/stored-locations.js';
import { handbookSettingsSchema } from './handbook-settings.js';
import { readCurrentHandbook } from './open-handbook.js';

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
  /**
   * Files the handbook holds that a build no longer finds (deleted, renamed): a sync removes them.
   * Named apart from the frozen entries, since a file with no unit but its file unit freezes none.
   */
  goneFiles: string[];
  /** Files the handbook holds that are still in the tree but a build now leaves out, with why: a sync drops their entries. */
  skipped: SkippedFile[];
  /**
   * Files the handbook holds whose bytes changed since the build, entries or not: a comment, an
   * import or blank lines above the first unit change no entry but change the file's own record
   * (its lines, imports, the calls at its top level), which a sync re-reads.
   */
  editedFiles: string[];
  /** Units that changed files hold now and the handbook does not (a function added to a known file). */
  newUnits: string[];
  /**
   * Why a sync would analyze everything again though no source file changed (a tsconfig's paths,
   * a workspace package, another version of the analyzer), or null: imports may now lead elsewhere.
   */
  compilerSettings: string | null;
  /** package.json or the README now describe the project otherwise than the stored overview, which a sync writes again. */
  projectChanged: boolean;
  fresh: boolean;
  /** Acceptance records of harness runs, each checked against the files now: a write to a tested file invalidates its record. */
  acceptance: AcceptanceStatus[];
}

/**
 * Checks every entry of the handbook against the live files: how many are fresh, changed, moved
 * or frozen, and which, which source files and units it does not hold yet, and which of its files
 * are gone or a build now leaves out. A handbook is fresh when every entry is, no file or unit is
 * missing, none of its files was edited and each is still there to analyze, and the tsconfigs and
 * the project's description read as they did at the build (a sync would redo either).
 */
export async function handbookStatus(root: string, options: { database?: string } = {}): Promise<StatusReport> {
  const { rows } = readCurrentHandbook(root, options, (connection, generation, handbookRoot) => {
    const handbook = { root: handbookRoot, generation };
    const files = readFileHashes(connection, generation.id);
    const discovered = sourceDiscoveryOf(handbook);
    const resolver = onePassResolverOf(handbook, files, discovered);
    const entries = entriesByFile(connection, generation.id);
    // Every entry of a file that holds the build's bytes is fresh as stored: only the units of the
    // other files are read, in this transaction, so from the same snapshot as the files.
    // (A unit whose file has no record of its own is judged all the same, as resolving it would.)
    const held = [...new Set([...files.map((file) => file.path), ...entries.keys()])];
    const unchanged = new Set(held.filter((file) => resolver.unchangedSinceBuild(file)));
    const units = readUnitLocations(connection, generation.id, held.filter((file) => !unchanged.has(file)));
    return { handbook, files, discovered, resolver, entries, unchanged, units, overview: readOverview(connection, generation.id) };
  });
  const { handbook, files, discovered, resolver, entries, unchanged, units, overview } = rows;
  const { generation } = handbook;
  // A handbook that recorded no settings cannot be synced at all; sync says so, with what to do.
  const settings = handbookSettingsSchema.safeParse(generation.settings);
  // Refused as a sync refuses it: "run `handbook sync`" would lead to that refusal.
  if (settings.success) assertIncludeFolders(handbook.root, settings.data.include, STORED_INCLUDE_HINT);
  const counts: Record<LocatorStatus, number> = { fresh: 0, changed: 0, moved: 0, frozen: 0 };
  for (const file of unchanged) counts.fresh += entries.get(file) ?? 0;
  const frozen: StatusReport['frozen'] = [];
  const changed: string[] = [];
  const moved: StatusReport['moved'] = [];
  for (const unit of units) {
    if (unit.kind === 'file') continue;
    const resolved = await resolver.resolve(unit);
    counts[resolved.status] += 1;
    if (resolved.status === 'frozen') frozen.push({ unit: unit.id, reason: resolved.reason ?? 'not found' });
    if (resolved.status === 'changed') changed.push(unit.id);
    if (resolved.movedTo) moved.push({ unit: unit.id, to: `${resolved.movedTo.file}#${resolved.movedTo.symbol}` });
  }
  // A unit's id names its file, so the units read (those of every file not unchanged) are all a changed file's live symbols can match.
  const known = new Set(units.map((unit) => unit.id));
  const newUnits: string[] = [];
  const editedFiles: string[] = [];
  for (const file of files) {
    if (unchanged.has(file.path)) continue;
    if (await resolver.editedSinceBuild(file.path)) editedFiles.push(file.path);
    for (const symbol of (await resolver.liveSymbolsOf(file.path)) ?? []) if (!known.has(`${file.path}#${symbol}`)) newUnits.push(`${file.path}#${symbol}`);
  }
  newUnits.sort();
  editedFiles.sort();
  const recorded = new Set(files.map((file) => file.path));
  const discovery = discovered();
  const newFiles = discovery.files.filter((file) => !recorded.has(file.path)).map((file) => file.path).sort();
  // Judged by the walk a sync makes, so status names exactly the files a sync would report as skipped or removed.
  const skipped = files.flatMap((file): SkippedFile[] => {
    const reason = skipReasonOf(discovery, file.path);
    return reason ? [{ file: file.path, reason }] : [];
  });
  // The settings check a sync makes first; the compiler is loaded for it only when a file the settings were read from changed.
  const compilerSettings = settings.success ? await compilerSettingsChange(handbook.root, settings.data.compiler, settings.data.compilerInputs) : undefined;
  const project = describeProject(handbook.root);
  const projectChanged = project.title !== overview.title || project.description !== overview.description;
  const found = new Set([...discovery.files.map((file) => file.path), ...skipped.map((entry) => entry.file)]);
  const goneFiles = files.map((file) => file.path).filter((file) => !found.has(file)).sort();
  return {
    root: handbook.root,
    builtAt: generation.createdAt,
    builtCommit: generation.commit,
    head: currentCommit(handbook.root),
    counts,
    frozen,
    changed,
    moved,
    newFiles,
    newUnits,
    editedFiles,
    goneFiles,
    skipped,
    compilerSettings: compilerSettings ?? null,
    projectChanged,
    fresh: compilerSettings === undefined && !projectChanged && counts.changed === 0 && counts.frozen === 0 && counts.moved === 0 && newFiles.length === 0 && newUnits.length === 0 && editedFiles.length === 0 && goneFiles.length === 0 && skipped.length === 0,
    acceptance: acceptanceStatuses(handbook.root),
  };
}
