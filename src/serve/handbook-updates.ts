import { fileIdentity } from '../store/file-identity.js';
import { watchHandbook, type WatchEvent, type WatchHandle, type WatchOptions } from '../watch/watch-handbook.js';
import type { SyncEvent } from './api-schemas.js';
import type { DatabaseVersion } from './database-version.js';

/** How often the database is looked at for changes no watcher event announced: a build, or a handbook built after the server started. */
const POLL_MS = 1_000;

export interface HandbookUpdatesOptions {
  debounceMs?: number;
  provider?: WatchOptions['provider'];
  log: (line: string) => void;
}

/**
 * Keeps the handbook in step with the files while the server runs, and tells listeners each
 * time it changed. The watcher syncs edits on disk and names the files; a poll of the database
 * version catches what no watcher event covers (a `handbook build` in another terminal) and starts
 * the watcher once there is a handbook to watch. A poll that lands between a sync's commit and
 * its event announces the change twice, the second time with the files; a listener only rereads.
 */
export class HandbookUpdates {
  private readonly listeners = new Set<(event: SyncEvent) => void>();
  private watching: { handle: WatchHandle; identity: string } | undefined;
  private starting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private announced: string | undefined;
  private lastProblem: string | undefined;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly version: DatabaseVersion,
    private readonly options: HandbookUpdatesOptions,
  ) {}

  start(): void {
    this.announced = this.tokenOrUndefined();
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  /** Calls `listener` after every change until the returned function is called. */
  subscribe(listener: (event: SyncEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops polling and watching; a sync in progress is stored whole first. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.starting;
    await this.watching?.handle.close();
    this.watching = undefined;
    this.listeners.clear();
  }

  private poll(): void {
    try {
      this.keepWatching();
      const token = this.version.token();
      if (token === undefined || token === this.announced) return;
      const generation = this.version.generation();
      this.announced = token;
      this.announce({ generation, added: [], modified: [], removed: [] });
    } catch {
      // A database being created, or locked by a build, counts as unchanged until it can be read.
    }
  }

  /** Starts the watcher once the database exists, and again on a database deleted and built anew (the old watcher would sync into a file nobody reads). */
  private keepWatching(): void {
    if (this.closed || this.starting) return;
    const identity = fileIdentity(this.version.file);
    if (identity === undefined || this.watching?.identity === identity) return;
    this.starting = this.watch(identity).finally(() => (this.starting = undefined));
  }

  private async watch(identity: string): Promise<void> {
    const previous = this.watching;
    this.watching = undefined;
    await previous?.handle.close();
    try {
      const handle = await watchHandbook(this.root, { database: this.version.file, ...(this.options.debounceMs === undefined ? {} : { debounceMs: this.options.debounceMs }), ...(this.options.provider ? { provider: this.options.provider } : {}), onEvent: (event) => this.onWatchEvent(event) });
      if (this.closed) await handle.close();
      else this.watching = { handle, identity };
      this.lastProblem = undefined;
    } catch (error) {
      // A database being built has no complete generation yet; the next poll tries again, and the same failure is logged once.
      const problem = error instanceof Error ? error.message : String(error);
      if (problem !== this.lastProblem) this.options.log(`not watching yet: ${problem}`);
      this.lastProblem = problem;
    }
  }

  private onWatchEvent(event: WatchEvent): void {
    if (event.type === 'error') this.options.log(`sync failed: ${event.message}`);
    if (event.type !== 'sync' || event.upToDate) return;
    const files = event.added.length + event.modified.length + event.removed.length;
    this.options.log(`synced ${files} changed file${files === 1 ? '' : 's'} into generation ${event.generation}`);
    this.announced = this.tokenOrUndefined();
    this.announce({ generation: event.generation, added: event.added, modified: event.modified, removed: event.removed });
  }

  private announce(event: SyncEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private tokenOrUndefined(): string | undefined {
    try {
      return this.version.token();
    } catch {
      return undefined;
    }
  }
}
