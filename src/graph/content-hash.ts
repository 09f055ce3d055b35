import { createHash } from 'node:crypto';

/** sha256, first 16 hex: the hash of files and units everywhere in the handbook. */
export function shortHash(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/**
 * Everything a unit's derived data (words, search terms, stage scores) is computed from, beyond
 * its id: the hash of its text, plus the doc comment and export, which sit outside that text
 * (a unit moved away can hand its neighbour the file's leading comment without either hash moving).
 */
export function unitContentKey(unit: { hash: string; doc: string; exported: boolean }): string {
  return `${unit.hash}\u0000${unit.exported ? 1 : 0}\u0000${unit.doc}`;
}
