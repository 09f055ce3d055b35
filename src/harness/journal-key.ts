import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { HandbookError } from '../errors.js';

export const JOURNAL_KEY_ENV = 'HANDBOOK_JOURNAL_KEY';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const keyFileSchema = z.string().regex(/^[0-9a-fA-F]{64}\n?$/);

/** The key from the environment, when one is set; a key kept there never touches the disk. */
export function keyFromEnvironment(env: Record<string, string | undefined>): Buffer | undefined {
  const value = env[JOURNAL_KEY_ENV];
  if (value === undefined) return undefined;
  if (!HEX_KEY.test(value)) throw new HandbookError('INVALID_INPUT', `${JOURNAL_KEY_ENV} must be 64 hexadecimal characters (a 32-byte key)`, 'generate one with `openssl rand -hex 32`');
  return Buffer.from(value, 'hex');
}

/** The key file's key, or undefined when there is none; a key others could read is refused, since anyone holding it can forge entries. */
export function readKeyFile(file: string): Buffer | undefined {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HandbookError('JOURNAL_BROKEN', `the journal key ${file} cannot be read: ${(error as Error).message}`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new HandbookError('INVALID_INPUT', `the journal key ${file} is open to group or others (mode ${(mode & 0o777).toString(8)})`, `run chmod 600 ${file}`);
  }
  const parsed = keyFileSchema.safeParse(readFileSync(file, 'utf8'));
  if (!parsed.success) throw new HandbookError('JOURNAL_BROKEN', `the journal key ${file} is not 64 hexadecimal characters`, 'restore the key the journal was written with');
  return Buffer.from(parsed.data.trim(), 'hex');
}

/**
 * Makes a new key file, readable by its owner only; called under the journal lock. The key is
 * written to a private temporary file and linked into place, so a process killed half-way never
 * leaves an empty or partial key; a key that appeared meanwhile is kept and used.
 */
export function createKeyFile(file: string): Buffer {
  const key = randomBytes(32);
  const temporary = `${file}.partial`;
  // A leftover from a killed writer is removed rather than reused: `wx` gives the new file mode 0600 whatever was there.
  rmSync(temporary, { force: true });
  const descriptor = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(descriptor, `${key.toString('hex')}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(file)!;
  } finally {
    unlinkSync(temporary);
  }
}
