import { createHash } from 'node:crypto';

/** sha256, first 16 hex: the hash of files and units everywhere in the handbook. */
export function shortHash(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/**
 * Everything a unit's derived data (words, search terms, stage scores) is computed from, beyond
 * its id: the hash of its text, plus the doc comment and export, which sit outside that text
 * (a unit moved away can hand its neighbour the file's leading comment without either hash moving),
 * and the signature, which the hash does not decide: it is cut a fixed number of characters into
 * a variable's initializer as written, so line endings or indentation move the cut while the
 * whitespace-blind hash stays.
 */
export function unitContentKey(unit: { hash: string; doc: string; exported: boolean; signature: string }): string {
  return `${unit.hash}\u0000${unit.exported ? 1 : 0}\u0000${unit.doc}\u0000${unit.signature}`;
}
