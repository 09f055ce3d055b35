import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The real harness the end-to-end tests build, pinned: tsc-compiled JavaScript with comments. */
export const REAL_CODE = { name: '@google/gemini-cli-core', version: '0.61.0' } as const;

export function realCodeDirectory(): string {
  return path.join(PROJECT_ROOT, '.cache', 'real-code', `gemini-cli-core-${REAL_CODE.version}`);
}
