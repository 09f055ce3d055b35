import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes that are durable before they return. replaceDurably is for writers holding the journal
 * lock, one at a time: a fixed temporary name then serves, and a killed writer's leftover is
 * overwritten by the next one instead of piling up beside the journal. appendDurably needs no lock
 * of its own beyond its file having one writer.
 */

/** Makes a rename or a new file in a folder durable: fsync on the file alone does not cover its directory entry. */
function syncDirectory(directory: string): void {
  if (process.platform === 'win32') return;
  const descriptor = openSync(directory, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function writeAll(file: string, flags: string, bytes: Buffer): void {
  const descriptor = openSync(file, flags);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Replaces a file whole: a reader, or a crash, sees the old bytes or the new, never a mix. */
export function replaceDurably(file: string, bytes: Buffer): void {
  const temporary = path.join(path.dirname(file), '.partial');
  writeAll(temporary, 'w', bytes);
  renameSync(temporary, file);
  syncDirectory(path.dirname(file));
}

/** Appends in one write and an fsync: a kill can leave at most a cut-off last line, never a line cut into another. */
export function appendDurably(file: string, bytes: Buffer): void {
  writeAll(file, 'a', bytes);
}
