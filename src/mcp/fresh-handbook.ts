import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { LiveHandbook, type SyncOptions, type SyncSummary } from '../api/live-handbook.js';
import { liveResolverOf } from '../api/live-resolution.js';
import { openHandbook, type Handbook } from '../api/open-handbook.js';
import { HandbookError } from '../errors.js';
import type { LiveResolver } from '../locate/live-resolver.js';
import { databasePathFor, refuseUnbuildableDatabase } from '../store/open-database.js';

export interface Freshness {
  generation: number;
  synced: { added: string[]; modified: string[]; removed: string[] };
  frozen: Array<{ unit: string; reason: string }>;
}

/** What one answer reads: the handbook as just synced, and what the sync did. */
export interface FreshView {
  root: string;
  /** The library's database option, passed on to every call. */
  database: { database?: string };
  sync: SyncSummary;
  /** The synced handbook, opened on first use. */
  handbook(): Handbook;
  /** The freshness block for an answer that names these units; pass the resolver the answer placed them with, so both judge the same reads. */
  freshness(mentioned?: Iterable<string>, resolver?: LiveResolver): Promise<Freshness>;
}

/**
 * A handbook that is never stale when read: every answer first syncs what changed on disk since
 * the previous one, through one LiveHandbook kept warm, so an unchanged tree costs a refresh of
 * file stats and hashes. Answers run one at a time; the LiveHandbook is not built for two syncs
 * at once, and a client may send calls in parallel.
 */
export class FreshHandbook {
  readonly root: string;
  private live: LiveHandbook | undefined;
  /** The handbook last read, kept while syncs find nothing new: reading a large graph back costs more than the sync. */
  private opened: Handbook | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: Array<(view: FreshView) => void> = [];
  private asked = false;

  constructor(
    repo: string,
    private readonly options: {
      database?: string;
      provider?: SyncOptions['provider'];
      log: (line: string) => void;
      /** Whether no one will read the answers any more; read while an analysis holds the thread, so it must not need the event loop. */
      stopping?: () => boolean;
    },
  ) {
    this.root = assertRepositoryRoot(repo);
    refuseUnbuildableDatabase(databasePathFor(this.root, options.database));
  }

  answer<T>(work: (view: FreshView) => Promise<T>): Promise<T> {
    this.asked = true;
    const turn = this.queue.then(() => this.syncThen(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Opens the analysis before the first call, so that call does not pay for it; the generation
   * it opened, or undefined when a call came first. A warm-up after a call would be a sync no one
   * asked for, and could meet the database deleted since and let go of it before the next call
   * could say so.
   */
  async warmUp(): Promise<number | undefined> {
    if (this.asked) return undefined;
    return this.answer(async (view) => view.sync.generation);
  }

  /** Called with every view before the answer reads it, for what must follow the handbook as it changes. */
  afterSync(listener: (view: FreshView) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Waits for the answer in progress, which gives up at its next progress report once `stopping`
   * says so, then lets go of the database.
   */
  async close(): Promise<void> {
    await this.queue;
    this.letGo();
  }

  private letGo(): void {
    this.live?.close();
    this.live = undefined;
    this.opened = undefined;
  }

  /**
   * A sync reports progress every few files, the only calls it makes while it holds the thread,
   * so that is where it can be abandoned. It never reports inside its write, one transaction,
   * and what it leaves unwritten the next sync finds changed.
   */
  private giveUpIfStopping(): void {
    if (this.options.stopping?.()) throw new HandbookError('STOPPED', 'the analysis was abandoned: the server is shutting down');
  }

  private async syncThen<T>(work: (view: FreshView) => Promise<T>): Promise<T> {
    const database = this.options.database ? { database: this.options.database } : {};
    // A database built again in place of the open one is followed; one deleted, the sync below refuses, saying so.
    if (this.live?.databaseLost() === 'replaced') this.letGo();
    // Opened on demand, so a server started before the first build starts working once it exists.
    this.live ??= await LiveHandbook.open(this.root, {
      ...database,
      ...(this.options.provider ? { provider: this.options.provider } : {}),
      onProgress: () => this.giveUpIfStopping(),
    });
    let sync: SyncSummary;
    try {
      sync = await this.live.sync();
    } catch (error) {
      // A failed sync may leave the warm analysis ahead of the store; the next answer starts from the store.
      this.letGo();
      throw error;
    }
    if (!sync.upToDate) {
      const files = sync.added.length + sync.modified.length + sync.removed.length;
      this.options.log(`synced ${files} changed file${files === 1 ? '' : 's'} into generation ${sync.generation}${sync.fullRebuild ? ` (${sync.fullRebuild})` : ''}`);
    }
    if (!sync.upToDate || this.opened?.generation.id !== sync.generation) this.opened = undefined;
    const view: FreshView = {
      root: this.root,
      database,
      sync,
      handbook: () => (this.opened ??= openHandbook(this.root, { ...database, withUnresolved: false })),
      freshness: async (mentioned = [], resolver) => {
        const units = [...new Set(mentioned)];
        return {
          generation: sync.generation,
          synced: { added: sync.added, modified: sync.modified, removed: sync.removed },
          frozen: units.length === 0 ? [] : await frozenAmong(view.handbook(), units, resolver),
        };
      },
    };
    for (const listener of this.listeners) listener(view);
    return work(view);
  }
}

/**
 * The named units whose code is gone from disk. Right after a sync this is empty unless a file
 * changed in between; checking costs a read and a hash per file, parsing only a changed one.
 */
async function frozenAmong(handbook: Handbook, units: readonly string[], resolver = liveResolverOf(handbook)): Promise<Freshness['frozen']> {
  const frozen: Freshness['frozen'] = [];
  for (const id of units) {
    const unit = handbook.graph.getUnit(id);
    if (!unit) continue;
    const resolved = await resolver.resolve(unit);
    if (resolved.status === 'frozen') frozen.push({ unit: id, reason: resolved.reason ?? 'not found' });
  }
  return frozen;
}
