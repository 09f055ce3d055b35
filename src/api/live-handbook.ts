import { existsSync } from 'node:fs';
import type { AnalysisChange, AnalysisSession, AnalyzeOptions } from '../analyze/analysis-session.js';
import type { SkippedFile } from '../analyze/discover-files.js';
import { assertIncludeFolders, STORED_INCLUDE_HINT } from '../analyze/include-folders.js';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { unitContentKey } from '../graph/content-hash.js';
import type { Unit } from '../graph/model.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import type { OrganizedHandbook } from '../organize/model.js';
import { describeProject, type ProjectDescription } from '../organize/overview.js';
import {
  currentGenerationOrThrow, foreignWrites, type GenerationInfo, OvertakenUpdateError, readOrganized, readOverview, readPriorAnalysis, readStoredBehaviors, setGenerationSource, type StoredRows,
} from '../store/generations.js';
import { fileIdentity, identityChange } from '../store/file-identity.js';
import { assertHandbookOf } from '../store/handbook-repository.js';
import { databasePathFor, handbookAboveHint, type HandbookDatabase, openDatabase } from '../store/open-database.js';
import { readFileHashes } from '../store/stored-locations.js';
import { providerFor } from './build-handbook.js';
import type { BuildSummary } from './build-summary.js';
import { currentCommit } from './git-commit.js';
import { type HandbookSettings, handbookSettingsSchema } from './handbook-settings.js';
import { nothingToSync, type StoredTree } from './nothing-to-sync.js';
import { type BuildProgress, DerivedUnitCache, storeAnalysis, warmDerivedCache } from './store-analysis.js';

export interface SyncOptions {
  database?: string;
  /** Keys, base URL and retry settings when the handbook was built with a model; the environment by default. */
  provider?: CreateProviderOptions;
  /**
   * Share of the handbook's entries one sync may drop before it stops trusting the change (a
   * checkout of another branch, a package that no longer parses) and rebuilds from scratch.
   */
  collapseShare?: number;
  onProgress?: (progress: BuildProgress) => void;
}

export interface SyncSummary {
  /** Nothing changed since the handbook was stored; nothing was written. */
  upToDate: boolean;
  added: string[];
  modified: string[];
  /** Files whose entries left the handbook: deleted, or still there but left out now (those are in `skipped` too). */
  removed: string[];
  /** Of the removed files, those still in the tree that analysis now leaves out (binary, over the size cap, ...), with why. */
  skipped: SkippedFile[];
  /** Files whose edges were resolved again: the changed ones and those that could depend on them. */
  resolvedFiles: number;
  /** Of those, the modified files resolved only in the unit the edit lay in, the rest of their edges kept. */
  resolvedInPart: number;
  entries: { added: number; removed: number; changed: number };
  /** Units whose primary stage is not the one they had. */
  restaged: number;
  /** package.json or the README describe the project otherwise than the stored overview, which was written again. */
  projectChanged: boolean;
  /** Why the sync analyzed everything again instead of the change, when it did. */
  fullRebuild?: string;
  generation: number;
  durationMs: number;
  /** The stored generation's summary, as `build` reports it. */
  build: BuildSummary;
}

const DEFAULT_COLLAPSE_SHARE = 0.25;
/** Drops this small never count as a collapse, whatever their share (a tiny fixture). */
const COLLAPSE_FLOOR = 25;
/** After this many refreshes the compiler state is rebuilt, so a long watch does not grow without bound. */
const REFRESHES_PER_SESSION = 200;
const HEAP_BOUND_BYTES = 1_500_000_000;
/** Syncs in a row that another process may overtake before this one gives up instead of starting over again. */
const OVERTAKEN_ATTEMPTS = 3;

function readSettings(raw: unknown): HandbookSettings {
  const parsed = handbookSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new HandbookError('NO_HANDBOOK', 'this handbook was built by an earlier version that did not record how it was built', 'run `handbook build` once; later changes can then be synced');
  }
  return parsed.data;
}

/**
 * A handbook kept in step with its repository: holds the analysis warm between changes, so each
 * `sync` parses only changed files, resolves only the files whose edges can have moved, places
 * units in stages again and stores a new generation, equal to what a cold build of the same tree
 * stores. `handbook sync` opens one, syncs once and closes it; `handbook watch` keeps it open.
 */
export class LiveHandbook {
  private session: AnalysisSession | undefined;
  private refreshes = 0;
  private readonly cache = new DerivedUnitCache();
  /** Each unit's primary stage in the stored generation, to count what a sync moved. */
  private stages = new Map<string, string>();
  /** The project as the stored overview describes it. */
  private project: ProjectDescription = { title: '', description: '' };
  /** The whole-tree rows as this handbook last wrote them, valid while no other connection writes. */
  private stored: StoredRows | undefined;
  /**
   * Other connections' commits (SQLite's data_version) as counted when the session last matched
   * the store: when it read the store back, or inside its own last write. A different count
   * means another process wrote since, and the session starts again from the store.
   */
  private matchedAt: number | undefined;

  /** The database file as opened: one deleted or replaced under this handbook is written no more. */
  private readonly databaseFile: string | undefined;

  private constructor(
    readonly root: string,
    readonly databasePath: string,
    private readonly database: HandbookDatabase,
    private settings: HandbookSettings,
    private readonly provider: ChatProvider | undefined,
    private readonly options: SyncOptions,
  ) {
    this.databaseFile = fileIdentity(databasePath);
  }

  static async open(root: string, options: SyncOptions = {}): Promise<LiveHandbook> {
    const absoluteRoot = assertRepositoryRoot(root);
    const databasePath = databasePathFor(absoluteRoot, options.database);
    if (!existsSync(databasePath)) throw new HandbookError('NO_HANDBOOK', `no handbook at ${databasePath}`, handbookAboveHint(databasePath) ?? 'run `handbook build` first');
    const database = openDatabase(databasePath, 'update');
    try {
      const generation = currentGenerationOrThrow(database);
      assertHandbookOf(absoluteRoot, databasePath, generation.root);
      const settings = readSettings(generation.settings);
      assertIncludeFolders(absoluteRoot, settings.include, STORED_INCLUDE_HINT);
      const provider = await providerFor(settings.model, options.provider);
      return new LiveHandbook(absoluteRoot, databasePath, database, settings, provider, options);
    } catch (error) {
      database.close();
      throw error;
    }
  }

  private analyzeOptions(): AnalyzeOptions {
    return {
      ...(this.settings.include ? { include: this.settings.include } : {}),
      ...(this.settings.maxFileBytes === undefined ? {} : { maxFileBytes: this.settings.maxFileBytes }),
      ...(this.options.onProgress ? { onProgress: this.options.onProgress } : {}),
    };
  }

  /**
   * What became of the database file since this handbook opened it: deleted, or replaced by
   * another (a build in its place); undefined while it is still the same file.
   */
  databaseLost(): 'deleted' | 'replaced' | undefined {
    return identityChange(this.databasePath, this.databaseFile);
  }

  /**
   * Refuses to write a database that is no longer at its path: the open connection would write
   * into an unlinked file nobody reads, or beside a handbook built since in its place. Checked
   * before every write, since the analysis before it can take minutes.
   */
  private assertDatabaseInPlace(): void {
    const lost = this.databaseLost();
    if (lost === undefined) return;
    throw new HandbookError(
      'NO_HANDBOOK',
      `the handbook database ${this.databasePath} was ${lost} while it was open, so nothing was synced into it`,
      lost === 'deleted' ? 'run `handbook build` to build it again' : 'open the handbook again to sync the one now in its place',
    );
  }

  /** Brings the stored handbook up to date with the files as they are now. */
  async sync(): Promise<SyncSummary> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.syncOnce();
      } catch (error) {
        // Another process wrote between this sync's read and its write: its view is older than the
        // store's, so it starts again from the store rather than writing that view over it.
        if (!(error instanceof OvertakenUpdateError)) throw error;
        if (attempt >= OVERTAKEN_ATTEMPTS) {
          throw new HandbookError('DATABASE_LOCKED', `the handbook database at ${this.databasePath} was written by another process during each of ${attempt} syncs`, 'wait for the other syncs to finish and try again', { cause: error });
        }
      }
    }
  }

  /**
   * A sync for a handbook opened to sync once: up to date without opening the analysis when the
   * checks `status` makes prove nothing changed, `sync` otherwise. Not for a handbook kept open
   * (watch, MCP): their first `sync` parses everything on purpose, to hold the compiler warm.
   */
  async syncUnlessUnchanged(): Promise<SyncSummary> {
    // Before the check too: a database no longer in place is refused, as `sync` refuses it.
    this.assertDatabaseInPlace();
    const started = performance.now();
    const stored = this.database.transaction((): StoredTree => {
      const generation = currentGenerationOrThrow(this.database);
      return { generation, files: readFileHashes(this.database, generation.id), project: readOverview(this.database, generation.id) };
    })();
    if (!nothingToSync(this.root, stored)) return this.sync();
    return this.upToDate(stored.generation, currentCommit(this.root), started);
  }

  /**
   * What a sync that found nothing changed answers. The stored summary names where the tree and the
   * database were at the last write: a repository that moved takes both along. `settings`, when
   * given, are stored too: the compiler settings read to the same as stored, from files that changed.
   */
  private upToDate(generation: GenerationInfo, commit: string | null, started: number, settings?: HandbookSettings): SyncSummary {
    const build: BuildSummary = { ...(generation.summary as BuildSummary), root: this.root, database: this.databasePath, commit };
    if (commit !== generation.commit || this.root !== generation.root || settings !== undefined) {
      this.assertDatabaseInPlace();
      setGenerationSource(this.database, generation.id, { root: this.root, commit, summary: build, ...(settings ? { settings } : {}) });
    }
    return {
      upToDate: true, added: [], modified: [], removed: [], skipped: [], resolvedFiles: 0, resolvedInPart: 0, entries: { added: 0, removed: 0, changed: 0 }, restaged: 0,
      projectChanged: false, generation: generation.id, durationMs: Math.round(performance.now() - started), build,
    };
  }

  private async syncOnce(): Promise<SyncSummary> {
    // Before the analysis too: it would be spent on a handbook that can no longer be written.
    this.assertDatabaseInPlace();
    const started = performance.now();
    let generation = currentGenerationOrThrow(this.database);
    const { AnalysisSession } = await import('../analyze/analysis-session.js');
    let change: AnalysisChange;
    // Another process that wrote the handbook since (a build, a sync) leaves this session's view behind the store.
    const writtenElsewhere = this.session !== undefined && this.matchedAt !== foreignWrites(this.database);
    if (writtenElsewhere) this.stored = undefined;
    if (!this.session || writtenElsewhere || this.refreshes >= REFRESHES_PER_SESSION || process.memoryUsage().heapUsed > HEAP_BOUND_BYTES) {
      // A fresh start reads the stored generation back; a warm session already holds it. The count is
      // taken first: a write landing during the read moves it, and the next sync starts again.
      this.matchedAt = foreignWrites(this.database);
      // One read transaction: a build elsewhere that replaced the generation since it was read above, or
      // replaces it during the read, would leave an analysis of no generation, or of two.
      const read = this.database.transaction(() => {
        const current = currentGenerationOrThrow(this.database);
        const organized = readOrganized(this.database, current.id);
        return { generation: current, prior: readPriorAnalysis(this.database, current.id), organized, behaviors: readStoredBehaviors(this.database, current.id, organized) };
      })();
      generation = read.generation;
      const { prior, organized } = read;
      // The stored behaviours, for the stages whose inputs this sync leaves alone: grouping them all again takes seconds.
      this.cache.storedBehaviors = read.behaviors;
      this.stages = primaryStages(organized);
      this.project = { title: organized.overview.title, description: organized.overview.description };
      ({ session: this.session, change } = AnalysisSession.open(this.root, this.analyzeOptions(), { ...prior, compiler: this.settings.compiler }));
      // A handbook analyzed by another version may have grouped its behaviours otherwise: none is kept then.
      if (change.fullReason !== undefined) this.cache.storedBehaviors = undefined;
      this.refreshes = 0;
    } else {
      change = this.session.refresh();
      this.refreshes += 1;
    }
    const commit = currentCommit(this.root);
    const base = { added: change.added, modified: change.modified, removed: change.removed, skipped: change.skipped, resolvedFiles: change.resolved, resolvedInPart: change.resolvedInPart };
    // The overview quotes package.json and the README, which are not source files: a change there alone is a change too.
    const project = describeProject(this.root);
    const projectChanged = project.title !== this.project.title || project.description !== this.project.description;
    if (change.added.length + change.modified.length + change.removed.length === 0 && change.fullReason === undefined && !projectChanged) {
      // A session just read back from the store (watch and MCP start so) places units before the first edit, not during it.
      if (this.refreshes === 0 && !this.provider && this.cache.organized === undefined) warmDerivedCache(this.session, this.settings, this.cache);
      // Settings read to the same from files that changed (a tsconfig's `"strict": false`) are stored with their new inputs, or
      // every `status` after would load the compiler to tell them unchanged again.
      const inputs = this.session.settingsInputs;
      if (inputs.digest === this.settings.compilerInputs?.digest) return this.upToDate(generation, commit, started);
      const settings: HandbookSettings = { ...this.settings, compilerInputs: inputs };
      const summary = this.upToDate(generation, commit, started, settings);
      this.settings = settings;
      return summary;
    }

    let fullRebuild = change.fullReason;
    // Only units of changed files can differ; a rebuild from scratch of the same tree has the same units, so these hold either way.
    const before = unitContentKeys(change.unitsBefore);
    const present = unitContentKeys(change.unitsAfter);
    const dropped = [...before.keys()].filter((id) => !present.has(id)).length;
    const collapseShare = this.options.collapseShare ?? DEFAULT_COLLAPSE_SHARE;
    if (fullRebuild === undefined && dropped > COLLAPSE_FLOOR && dropped > collapseShare * change.unitCountBefore) {
      fullRebuild = `the change would drop ${dropped} of ${change.unitCountBefore} entries (over ${Math.round(collapseShare * 100)}%), so the handbook was rebuilt from scratch`;
      const rebuilt = AnalysisSession.open(this.root, this.analyzeOptions());
      this.session = rebuilt.session;
      this.refreshes = 0;
      // What the abandoned change would have resolved is no count of what this analysis did.
      base.resolvedFiles = rebuilt.change.resolved;
      base.resolvedInPart = rebuilt.change.resolvedInPart;
    }

    const entries = { added: 0, removed: 0, changed: 0 };
    const replaceTerms = new Set<string>();
    for (const [id, hash] of present) {
      const previous = before.get(id);
      if (previous === hash) continue;
      replaceTerms.add(id);
      if (previous === undefined) entries.added += 1;
      else entries.changed += 1;
    }
    for (const id of before.keys()) {
      if (present.has(id)) continue;
      replaceTerms.add(id);
      entries.removed += 1;
    }
    const replaceFiles = new Set([...change.added, ...change.modified, ...change.removed, ...change.resolvedPaths]);
    // Stored as analyzed now: a later sync in a new process compares against these, and stale ones would make it start over every time.
    const settings: HandbookSettings = { ...this.settings, compiler: this.session.settings, compilerInputs: this.session.settingsInputs, outDirectories: this.session.outDirectories };
    this.assertDatabaseInPlace();
    let stored: Awaited<ReturnType<typeof storeAnalysis>>;
    try {
      stored = await storeAnalysis({
        database: this.database,
        databasePath: this.databasePath,
        session: this.session,
        settings,
        commit,
        ...(this.provider ? { provider: this.provider } : {}),
        cache: this.cache,
        started,
        assertInPlace: () => this.assertDatabaseInPlace(),
        // A full analysis writes a new generation; a change updates the current one in place.
        ...(fullRebuild === undefined ? { update: { generation: generation.id, replaceFiles, replaceTerms, ...(this.stored ? { stored: this.stored } : {}), ...(this.matchedAt === undefined ? {} : { readAt: this.matchedAt }) } } : {}),
        ...(this.options.onProgress ? { onProgress: this.options.onProgress } : {}),
      });
    } catch (error) {
      // The analysis is now ahead of the store; the next sync starts again from what the store holds.
      this.session = undefined;
      this.stored = undefined;
      if (error instanceof Error && !HandbookError.isInstance(error) && /SQLITE_BUSY|database is locked/i.test(error.message)) {
        throw new HandbookError('DATABASE_LOCKED', `the handbook database at ${this.databasePath} is locked by another process`, 'wait for the other build or sync to finish and try again', { cause: error });
      }
      throw error;
    }
    // Only once stored: after a failed write the store still holds the analysis under the old settings.
    this.settings = settings;
    this.stored = stored.rows;
    this.matchedAt = stored.foreignWrites;
    this.project = { title: stored.handbook.overview.title, description: stored.handbook.overview.description };
    const stages = primaryStages(stored.handbook);
    let restaged = 0;
    for (const [unit, stage] of stages) if (this.stages.has(unit) && this.stages.get(unit) !== stage) restaged += 1;
    this.stages = stages;
    return {
      upToDate: false, ...base, entries, restaged, projectChanged, ...(fullRebuild === undefined ? {} : { fullRebuild }),
      generation: stored.summary.generation, durationMs: Math.round(performance.now() - started), build: stored.summary,
    };
  }

  /**
   * Whether the compiler settings were last read from this file (absolute): a tsconfig, a file its
   * `extends` names, a manifest. False before the first sync has read them.
   */
  readsSettingsFrom(file: string): boolean {
    return this.session?.settingsFiles.includes(file) ?? false;
  }

  close(): void {
    this.session = undefined;
    this.database.close();
  }
}

/** Each unit's content key: what tells a unit whose stored words and terms must be rewritten. */
function unitContentKeys(units: Iterable<Unit>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const unit of units) keys.set(unit.id, unitContentKey(unit));
  return keys;
}

function primaryStages(organized: OrganizedHandbook): Map<string, string> {
  // Plain loops: every sync of a kept-open handbook takes this over every member of every stage.
  const stages = new Map<string, string>();
  for (const stage of organized.stages) for (const member of stage.members) if (member.primary) stages.set(member.unit, stage.id);
  return stages;
}

/** `handbook sync`: brings a built handbook up to date with the repository's files, re-analyzing only what changed. */
export async function syncHandbook(root: string, options: SyncOptions = {}): Promise<SyncSummary> {
  const live = await LiveHandbook.open(root, options);
  try {
    return await live.syncUnlessUnchanged();
  } finally {
    live.close();
  }
}
