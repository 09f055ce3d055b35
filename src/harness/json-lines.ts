import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/**
 * Reads an append-only JSON-lines log back, checking every line against its schema. A torn
 * last line is what a kill in the middle of an append leaves, so it is dropped; a bad line
 * anywhere else is damage, and an error.
 */
export function readJsonLines<T>(file: string, schema: z.ZodType<T>): T[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const parsed: T[] = [];
  for (const [index, line] of lines.entries()) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1) break;
      throw new Error(`${file} line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
    parsed.push(schema.parse(raw));
  }
  return parsed;
}
