/** Quiet time after the last change before `watch` syncs; apart from the watcher so the CLI can name it without loading it. */
export const DEFAULT_DEBOUNCE_MS = 200;
