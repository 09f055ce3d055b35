import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { HandbookError } from '../errors.js';

/**
 * Reads a JSON file the user hands us (a skeleton, a model script, a policy) and checks it
 * against its schema; anything wrong is one INVALID_INPUT line naming the file and the first problem.
 */
export function readJsonInput<T>(file: string, schema: z.ZodType<T>, what: string, hint: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(error as Error).message.split('\n')[0]}`;
    throw new HandbookError('INVALID_INPUT', `${what} ${file} ${reason}`, hint);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HandbookError('INVALID_INPUT', `${what} ${file} is not valid at ${issue.path.join('.') || 'the top'}: ${issue.message}`, hint);
  }
  return parsed.data;
}

/** A JSON file this tool wrote or reads in passing (a claim, a manifest): one that is missing, cut off or not of the schema is none. */
export function readJsonIfValid<T>(file: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
