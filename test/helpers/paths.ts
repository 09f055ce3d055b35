import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './real-code.js';

export { PROJECT_ROOT };
export const FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'mini-harness');
export const CLI = path.join(PROJECT_ROOT, 'dist', 'cli', 'main.js');

export function scratchDirectory(prefix = 'handbook-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A private copy of the fixture, so a test may edit it or write its database beside it. */
export function copyOfFixture(): string {
  const target = path.join(scratchDirectory(), 'mini-harness');
  // A handbook built inside the fixture (as the README's example does) is not part of it.
  cpSync(FIXTURE, target, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
  return target;
}
