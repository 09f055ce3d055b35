import { constants } from 'node:os';

/**
 * Ctrl-C and SIGTERM for long-running commands. Handlers are removed when the work ends, so a
 * second signal after that gets Node's default and ends the process at once.
 *
 * `build` and `sync` install none: their analysis is synchronous, and a handler runs only once
 * it yields, which is after the new generation is stored. Node's default ends them at once, and
 * the store's switch to a new generation is one transaction, so the previous handbook stays.
 */

/**
 * Runs work that stops early when its signal aborts: the first SIGINT or SIGTERM aborts it, a
 * second ends the process at once (128 + the signal's number, as the shell reports a kill).
 *
 * The handler stays registered after the first signal: signal-exit (loaded with proper-lockfile
 * at a run's first journaled write, or as apply claims its plan) re-raises a signal when it finds
 * itself the only listener, which a `once` handler, gone by then, would leave it, ending the process mid-run.
 */
export async function abortOnStop<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(128 + constants.signals[name]);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/**
 * Waits for the first SIGINT or SIGTERM, then for `close`: for servers and watchers that run until
 * told to stop. `ended` settles when the work stops by itself first (a watch whose repository was
 * deleted); then no signal is awaited, and its rejection is this one's.
 */
export async function closeOnStop(close: () => Promise<void>, ended: Promise<void> = new Promise(() => undefined)): Promise<void> {
  let stop = (): void => undefined;
  const signalled = new Promise<void>((resolve) => (stop = resolve));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await Promise.race([signalled, ended]);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  await close();
}
