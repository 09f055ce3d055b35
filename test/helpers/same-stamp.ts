import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

/** Well before any read, so no check can take a file for one written during its own read. */
export const LONG_AGO = new Date('2020-01-01T00:00:00Z');

/**
 * Rewrites a file with other bytes of the same length and puts its times back, as `cp -p`,
 * `rsync -t` or `tar -x` of another version do: size and mtime are those the last read saw.
 */
export function rewriteKeepingSizeAndTime(file: string, change: (text: string) => string): void {
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(before));
  const { atime, mtime } = statSync(file);
  writeFileSync(file, after);
  utimesSync(file, atime, mtime);
}
