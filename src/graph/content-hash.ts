import { createHash } from 'node:crypto';

/** sha256, first 16 hex: the hash of files and units everywhere in the handbook. */
export function shortHash(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}
