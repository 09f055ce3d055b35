import { randomBytes } from 'node:crypto';

/**
 * An id that sorts by when it was made and names the moment in a folder listing
 * (`20261130-092652-811d4d`), with random hex so two made in one second differ.
 */
export function stampedId(label?: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${label === undefined ? '' : `${label}-`}${randomBytes(3).toString('hex')}`;
}
