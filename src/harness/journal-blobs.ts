import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replaceDurably } from './journal-durable.js';
import { sha256 } from './journal-entry.js';
import { makeFolder } from '../text/make-folder.js';

/**
 * File contents by SHA-256: the versions a journal entry names. Content-addressed, so a file
 * written back and forth stores each version once, and a blob that no longer hashes to its
 * name is known to be damaged. Stored by writers holding the journal lock.
 */
export class BlobStore {
  constructor(readonly directory: string) {}

  /** Stores the bytes durably and returns their digest; a blob already there is rewritten only if it was damaged. */
  put(bytes: Buffer): string {
    const digest = sha256(bytes);
    if (Buffer.isBuffer(this.load(digest))) return digest;
    makeFolder(this.directory);
    replaceDurably(path.join(this.directory, digest), bytes);
    return digest;
  }

  /** The bytes stored under a digest, or why they cannot be trusted. */
  load(digest: string): Buffer | 'missing' | 'altered' {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(this.directory, digest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    return sha256(bytes) === digest ? bytes : 'altered';
  }
}
