import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

const digestSchema = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 hex digest');
/** The first entry links to nothing. */
const linkSchema = z.union([z.literal(''), digestSchema]);

/** A path as the journal holds it: relative to the root, forward slashes, normalized, never climbing out. */
export function isJournalPath(value: string): boolean {
  return (
    value !== '' &&
    value !== '.' &&
    value !== '..' &&
    !value.startsWith('../') &&
    !path.posix.isAbsolute(value) &&
    path.posix.normalize(value) === value &&
    !/[\u0000-\u001f\u007f]/.test(value)
  );
}

export const fileStateSchema = z.discriminatedUnion('exists', [
  z.strictObject({ exists: z.literal(false) }),
  z.strictObject({
    exists: z.literal(true),
    /** Permission bits only: the rest of st_mode is not the file's to restore. */
    mode: z.number().int().min(0).max(0o777),
    size: z.number().int().nonnegative(),
    digest: digestSchema,
  }),
]);
export type FileState = z.infer<typeof fileStateSchema>;

export const ABSENT: FileState = { exists: false };

export const JOURNAL_KINDS = ['write', 'create', 'delete', 'rollback'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

export const journalEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
  time: z.iso.datetime(),
  runId: z.string().min(1),
  opId: z.string().min(1).optional(),
  kind: z.enum(JOURNAL_KINDS),
  path: z.string().refine(isJournalPath, 'not a relative path inside the repository'),
  before: fileStateSchema,
  after: fileStateSchema,
  /** The seq a rollback entry undoes. */
  rollbackOf: z.number().int().positive().optional(),
  prevMac: linkSchema,
  mac: digestSchema,
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;
export type JournalEntryBody = Omit<JournalEntry, 'mac'>;

/**
 * The head names the last entry; the chain alone cannot show that entries were cut from its
 * end, the head's count can.
 */
export const journalHeadSchema = z.strictObject({ count: z.number().int().nonnegative(), lastMac: linkSchema, mac: digestSchema });
export type JournalHead = z.infer<typeof journalHeadSchema>;

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** JSON with object keys sorted at every level, so a MAC does not depend on how a line was serialized. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const fields = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return `{${fields.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
}

// The prefixes keep an entry's MAC from ever standing in for a head's, or the other way round.
export function entryMac(key: Buffer, body: JournalEntryBody): string {
  return createHmac('sha256', key).update(`entry\n${canonicalJson(body)}`).digest('hex');
}

export function headMac(key: Buffer, count: number, lastMac: string): string {
  return createHmac('sha256', key).update(`head\n${canonicalJson({ count, lastMac })}`).digest('hex');
}

export function macMatches(expected: string, actual: string): boolean {
  const left = Buffer.from(expected, 'hex');
  const right = Buffer.from(actual, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether a file holds the content a state describes; permission bits alone do not make it another version. */
export function sameContent(left: FileState, right: FileState): boolean {
  if (!left.exists || !right.exists) return left.exists === right.exists;
  return left.digest === right.digest;
}
