import path from 'node:path';
import { watch } from 'chokidar';
import { LiveHandbook, type SyncOptions, type SyncSummary } from '../api/live-handbook.js';
import { type ErrorCode, HandbookError } from '../errors.js';
import { DebouncedRunner } from './debounced-runner.js';
import { DEFAULT_DEBOUNCE_MS, MAX_DEBOUNCE_MS } from './watch-defaults.js';
import { WatchFooting } from './watch-footing.js';
import { ignoredUnder, isWatchedFile } from './watched-paths.js';

export { DEFAULT_DEBOUNCE_MS, MAX_DEBOUNCE_MS };

export interface WatchOptions {
  database?: string;
  /** Keys, base URL, retry and timeout settings when the handbook was built with a model; the environment by default. */
  provider?: SyncOptions['provider'];
  /** Quiet time after the last file event before a sync starts, at most MAX_DEBOUNCE_MS. */
  debounceMs?: number;
  /** Called for every event, in order; it must not throw. */
  onEvent: (event: WatchEvent) => void;
}

export interface WatchHandle {
  /** Resolves once no change is waiting to be synced and no sync is running. */
  settled(): Promise<void>;
  /** Stops watching, waits for a sync in progress to be stored, and closes the database. */
  close(): Promise<void>;
  /**
   * Resolves once watching has stopped: with undefined after `close`, or with the error that
   * stopped it by itself (the repository or its database deleted or replaced), which a fatal
   * `error` event reported first.
   */
  stopped(): Promise<HandbookError | undefined>;
}

interface EventTime {
  /** When the event happened, ISO 8601. */
  time: string;
}

/** Watching has begun; the catch-up sync for changes made while nothing watched follows. */
export interface WatchReadyEvent extends EventTime {
  type: 'ready';
  root: string;
  database: string;
}

export interface WatchSyncEvent extends EventTime {
  type: 'sync';
  /**
   * File changes (an add, change or removal chokidar reported) this sync covers: one per edit. 0
   * for the catch-up sync when watching begins, and for one only the system's own notices woke.
   */
  events: number;
  /** Nothing had changed; nothing was written. */
  upToDate: boolean;
  added: string[];
  modified: string[];
  removed: string[];
  /** Of the removed files, those still there that analysis now leaves out, with why. */
  skipped: SyncSummary['skipped'];
  resolvedFiles: number;
  entries: SyncSummary['entries'];
  restaged: number;
  /** package.json or the README describe the project otherwise: the overview was written again. */
  projectChanged: boolean;
  fullRebuild?: string;
  /** Source files left out because they could not be read (permissions, or gone mid-read). */
  unreadable: number;
  /** Files analyzed partially because of syntax errors (at most the first 50). */
  syntaxErrors: number;
  generation: number;
  durationMs: number;
}

/** A sync or the watcher failed; unless it is fatal, watching goes on and the next change syncs again. */
export interface WatchErrorEvent extends EventTime {
  type: 'error';
  message: string;
  code?: ErrorCode;
  /** Watching stops: the repository or the database is no longer the one it watched. `closed` follows. */
  fatal?: true;
}

export interface WatchClosedEvent extends EventTime {
  type: 'closed';
}

export type WatchEvent = WatchReadyEvent | WatchSyncEvent | WatchErrorEvent | WatchClosedEvent;

const LOCKED_RETRY_FIRST_MS = 1_000;
const LOCKED_RETRY_CAP_MS = 30_000;

type Untimed<T> = T extends EventTime ? Omit<T, 'time'> : never;

/**
 * `handbook watch`: keeps a built handbook in sync with its repository. File events are batched
 * until `debounceMs` of quiet and each batch is one sync, which rereads the tree, so whatever a
 * burst did, the store ends as a cold build of the final tree. Syncs never overlap, and what each
 * writes takes effect in one transaction; closing mid-sync waits for it, so no write is torn.
 */
export async function watchHandbook(root: string, options: WatchOptions): Promise<WatchHandle> {
  const emit = (event: Untimed<WatchEvent>): void => options.onEvent({ ...event, time: new Date().toISOString() } as WatchEvent);
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  // Node turns a longer timer into 1 ms, which would sync on every event.
  if (!(debounceMs >= 0 && debounceMs <= MAX_DEBOUNCE_MS))
    throw new HandbookError('INVALID_INPUT', `debounce must be 0 to ${MAX_DEBOUNCE_MS} ms, not ${debounceMs}`, 'pass a quiet time such as 200');
  const provider = options.provider ? { provider: options.provider } : {};
  let live: LiveHandbook | undefined = await LiveHandbook.open(root, { ...(options.database ? { database: options.database } : {}), ...provider });
  const { root: absoluteRoot, databasePath } = live;
  const footing = new WatchFooting(absoluteRoot, databasePath);

  let stoppedBy: HandbookError | undefined;
  let markStopped: (error: HandbookError | undefined) => void = () => undefined;
  const stopped = new Promise<HandbookError | undefined>((resolve) => (markStopped = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await watcher.close();
      await runner.stop();
      live?.close();
      live = undefined;
      emit({ type: 'closed' });
      markStopped(stoppedBy);
    })());
  const stopFor = (error: HandbookError): void => {
    stoppedBy = error;
    emit({ type: 'error', ...describeError(error), fatal: true });
    // Not awaited: closing waits for the sync in progress, which is the one calling this.
    void close();
  };

  let lockedRetries = 0;
  const runner = new DebouncedRunner(debounceMs, async (events) => {
    const lost = footing.lost();
    if (lost) return stopFor(lost);
    let summary: SyncSummary;
    try {
      live ??= await LiveHandbook.open(absoluteRoot, { database: databasePath, ...provider });
      summary = await live.sync();
    } catch (error) {
      // A sync that failed part way can leave the warm analysis ahead of the stored generation;
      // the next one starts over from the store so it cannot miss what this one did not write.
      live?.close();
      live = undefined;
      // A repository deleted mid-sync fails it with whatever the analysis tripped over first.
      const lostMeanwhile = footing.lost();
      if (lostMeanwhile) return stopFor(lostMeanwhile);
      emit({ type: 'error', ...describeError(error) });
      // Another process holding the database lets go by itself: try again, backing off, without waiting for a file event.
      if (HandbookError.isInstance(error) && error.code === 'DATABASE_LOCKED') {
        runner.retryIn(Math.min(LOCKED_RETRY_CAP_MS, LOCKED_RETRY_FIRST_MS * 2 ** lockedRetries));
        lockedRetries += 1;
      }
      return;
    }
    lockedRetries = 0;
    emit(syncEvent(summary, events));
  });

  const watcher = watch(absoluteRoot, { ignoreInitial: true, ignored: ignoredUnder(absoluteRoot), ignorePermissionErrors: true });
  // `ignored` lets through paths chokidar had no stats for; only watched files count.
  const counts = (file: string): boolean => isWatchedFile(file, absoluteRoot) || live?.readsSettingsFrom(file) === true;
  watcher.on('all', (event, file) => {
    if ((event === 'add' || event === 'change' || event === 'unlink') && counts(file)) runner.notify();
  });
  // chokidar drops a change that leaves the mtime where it was once the file was read since (it
  // takes it for a read), and a rewrite that puts the mtime back (`cp -p`, `rsync -t`) is one;
  // it follows a symlink once, so a link pointed at another file (`ln -sf`) raises no event.
  // The system's own notices are never about a read, so they wake a sync too; they come 2 to 4
  // per edit (the folder's watch and the file's), so they are not counted as changes seen.
  watcher.on('raw', (_event, name, details) => {
    const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof watched !== 'string' || !name) return;
    // A folder's watch names the entry; a file's own watch names the file.
    const file = path.basename(watched) === name ? watched : path.join(watched, name);
    if (counts(file)) runner.wake();
  });
  watcher.on('error', (error) => emit({ type: 'error', ...describeError(error) }));
  await new Promise<void>((resolve) => watcher.once('ready', resolve));

  emit({ type: 'ready', root: absoluteRoot, database: databasePath });
  runner.runNow();

  return { settled: () => runner.idle(), close, stopped: () => stopped };
}

function syncEvent(summary: SyncSummary, events: number): Untimed<WatchSyncEvent> {
  return {
    type: 'sync',
    events,
    upToDate: summary.upToDate,
    added: summary.added,
    modified: summary.modified,
    removed: summary.removed,
    skipped: summary.skipped,
    resolvedFiles: summary.resolvedFiles,
    entries: summary.entries,
    restaged: summary.restaged,
    projectChanged: summary.projectChanged,
    ...(summary.fullRebuild === undefined ? {} : { fullRebuild: summary.fullRebuild }),
    unreadable: summary.build.skipped.unreadable ?? 0,
    syntaxErrors: summary.build.parseWarnings.length,
    generation: summary.generation,
    durationMs: summary.durationMs,
  };
}

function describeError(error: unknown): { message: string; code?: ErrorCode } {
  if (HandbookError.isInstance(error)) return { message: error.hint ? `${error.message} (${error.hint})` : error.message, code: error.code };
  const message = error instanceof Error ? error.message : String(error);
  return { message: message.split('\n')[0]! };
}
