/** Quiet time after the last change before `watch` syncs; apart from the watcher so the CLI can name it without loading it. */
export const DEFAULT_DEBOUNCE_MS = 200;
/** A minute: a longer quiet time only delays every sync, and past 2^31 - 1 ms Node's timers fire at once. */
export const MAX_DEBOUNCE_MS = 60_000;
