/**
 * Ctrl-C and SIGTERM for long-running commands. Handlers are removed when the work ends, so a
 * second signal after that gets Node's default and ends the process at once.
 */

/** Runs work that stops early when its signal aborts: the first SIGINT or SIGTERM aborts it. */
export async function abortOnStop<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Waits for the first SIGINT or SIGTERM, then for `close`: for servers and watchers that run until told to stop. */
export function closeOnStop(close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      close().then(resolve, reject);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
