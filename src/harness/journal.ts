import { existsSync, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { BlobStore } from './journal-blobs.js';
import { appendDurably, replaceDurably } from './journal-durable.js';
import { ABSENT, entryMac, headMac, isJournalPath, sameContent, sha256, type FileState, type JournalEntry, type JournalKind } from './journal-entry.js';
import type { JournalFiles } from './journal-files.js';
import { createKeyFile, JOURNAL_KEY_ENV, keyFromEnvironment, readKeyFile } from './journal-key.js';
import { DEFAULT_LOCK_WAIT_MS, lockJournal, type JournalLock } from './journal-lock.js';
import { checkHead, checkTail, inspectJournal, splitJournal, type VerifyReport } from './journal-verify.js';
import { makeFolder } from '../text/make-folder.js';

export interface JournalOptions {
  /** Where HANDBOOK_JOURNAL_KEY is looked up (default process.env). */
  env?: Record<string, string | undefined>;
  /** How long to wait for another process's lock before JOURNAL_LOCKED (default 12 s). */
  lockWaitMs?: number;
}

/** A change about to be made to one file, as its writer knows it. */
export interface JournalChange {
  runId: string;
  /** The tool call making the change, when it is tracked. */
  opId?: string;
  kind: 'write' | 'create' | 'delete';
  /** Relative to the root with forward slashes: a workspace path's `relative`. */
  path: string;
  /** The content now; null when the file does not exist (a create). */
  before: Buffer | string | null;
  /** The permission bits now, which a rollback gives back (default: the file's on disk, else 0o644). */
  beforeMode?: number;
  /** The content the writer is about to put; null for a delete. */
  after: Buffer | string | null;
  /** Default: the mode before, or 0o644. */
  afterMode?: number;
}

export interface RestoredEntry {
  seq: number;
  path: string;
  kind: JournalKind;
  /** The seq of the rollback entry that records the restore. */
  rollbackSeq: number;
  /** The file already held its earlier content (the write never reached the disk): only the journal changed. */
  alreadyRestored: boolean;
}

export interface RefusedEntry {
  /** The journal line; for an entry that verified, its seq. */
  line: number;
  /** What the entry says; for a line that does not verify, what it claims. */
  seq?: number;
  path?: string;
  reason: string;
}

export interface RollbackReport {
  /** The journal as it stood before the rollback; when it does not verify nothing is restored. */
  journal: VerifyReport;
  /** Newest first. */
  restored: RestoredEntry[];
  refused: RefusedEntry[];
}

interface Content {
  bytes: Buffer;
  mode: number;
}

interface Draft {
  runId: string;
  opId?: string;
  kind: JournalKind;
  path: string;
  rollbackOf?: number;
  before: Content | null;
  after: Content | null;
}

/** Where a writer continues from, once a crash's leftovers are settled; moves on with each append. */
interface Tail {
  key: Buffer;
  count: number;
  lastMac: string;
}

const DEFAULT_MODE = 0o644;
const EXPECTED_PRESENCE: Record<JournalChange['kind'], [boolean, boolean]> = { write: [true, true], create: [false, true], delete: [true, false] };
/** What a line that does not verify claims to be, to name it in a report; nothing in it is trusted. */
const claimedEntrySchema = z.object({ seq: z.number().optional(), path: z.string().optional() });

/**
 * The journal of a repository's writes: every change's previous and next content, in an
 * append-only JSONL file whose entries are chained with HMAC-SHA256, so that editing,
 * inserting, deleting, reordering or cutting entries is detected, and the last writes can be
 * undone byte for byte.
 *
 * Layout under <root>/.handbook/journal: journal.jsonl (one entry a line), blobs/<sha256>
 * (file contents, stored before the entry that names them), head.json (the count and last MAC,
 * moved after every append, so a cut tail shows) and lock. The key is HANDBOOK_JOURNAL_KEY or
 * <root>/.handbook/journal.key.
 */
export class Journal {
  readonly directory: string;
  readonly file: string;
  readonly headFile: string;
  readonly keyFile: string;
  private readonly blobs: BlobStore;
  private readonly environmentKey: Buffer | undefined;
  private readonly lockWaitMs: number;
  /** Whether this instance has checked the journal from its first line, as it does before its first append. */
  private checkedWhole = false;

  private constructor(
    readonly root: string,
    options: JournalOptions,
  ) {
    this.directory = path.join(root, '.handbook', 'journal');
    this.file = path.join(this.directory, 'journal.jsonl');
    this.headFile = path.join(this.directory, 'head.json');
    this.keyFile = path.join(root, '.handbook', 'journal.key');
    this.blobs = new BlobStore(path.join(this.directory, 'blobs'));
    this.environmentKey = keyFromEnvironment(options.env ?? process.env);
    this.lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  }

  /** Nothing is read or created until the first call; a bad HANDBOOK_JOURNAL_KEY is refused at once. */
  static open(root: string, options: JournalOptions = {}): Journal {
    return new Journal(path.resolve(root), options);
  }

  /**
   * Under the lock: stores the blobs of both versions, appends the entry (one write, fsync) and
   * moves the head. The caller makes the change AFTER this resolves: a crash in between leaves
   * an entry whose `after` is not on disk, which verifies and which a rollback recognizes (the
   * file still holds `before`).
   */
  async record(change: JournalChange): Promise<JournalEntry> {
    const draft = draftOf(change, this.root);
    return this.locked((lock) => this.append(this.settleTail(lock), draft, lock));
  }

  /** Checks every entry, the chain and the head; reads without the lock, so it may run beside a writer. Throws only when the key is unusable. */
  verify(): VerifyReport {
    return this.inspect().report;
  }

  /** The entries, verified; throws JOURNAL_BROKEN when the journal does not verify. */
  entries(): JournalEntry[] {
    const { report, entries } = this.inspect();
    if (!report.ok) throw brokenJournal(report.reason);
    return entries;
  }

  /**
   * Undoes the last `count` writes not yet rolled back, newest first, through `files` (so the
   * caller's path gate stays in charge). An entry is refused, reported and left alone when its
   * saved content is missing or damaged, or when the file no longer holds the entry's `after`
   * (restoring would destroy a change made since). When the journal does not verify nothing is
   * restored: its unverifiable lines are reported, and a rollback that cannot be journaled is not
   * made. Each restore is journaled first, as a `rollback` entry naming the seq it undoes.
   */
  async rollback(count: number, runId: string, files: JournalFiles): Promise<RollbackReport> {
    if (!Number.isInteger(count) || count < 1) throw new HandbookError('INVALID_INPUT', `the number of writes to roll back must be a positive integer, not ${count}`);
    // Nothing to undo where no journal was ever written; taking the lock would create its folders.
    if (!existsSync(this.directory)) throw tooFewWrites(count, 0);
    return this.locked(async (lock) => {
      const { report, entries, lines } = this.inspect();
      if (!report.ok) return { journal: report, restored: [], refused: unverifiableLines(lines, report.brokenAt) };
      const undone = undoneWrites(entries, files);
      const candidates = entries.filter((entry) => entry.kind !== 'rollback' && !undone.has(entry.seq)).reverse();
      if (count > candidates.length) throw tooFewWrites(count, candidates.length);
      const tail = this.settleTail(lock);
      const outcome: RollbackReport = { journal: report, restored: [], refused: [] };
      for (const target of candidates.slice(0, count)) {
        const result = await this.restore(target, runId, files, tail, lock);
        if ('reason' in result) outcome.refused.push(result);
        else outcome.restored.push(result);
      }
      return outcome;
    });
  }

  private async restore(target: JournalEntry, runId: string, files: JournalFiles, tail: Tail, lock: JournalLock): Promise<RestoredEntry | RefusedEntry> {
    const refuse = (reason: string): RefusedEntry => ({ line: target.seq, seq: target.seq, path: target.path, reason });
    let earlier: Content | null = null;
    if (target.before.exists) {
      const bytes = this.blobs.load(target.before.digest);
      if (bytes === 'missing') return refuse(`the saved content it would restore (blob ${target.before.digest.slice(0, 12)}) is missing`);
      if (bytes === 'altered') return refuse(`the saved content it would restore (blob ${target.before.digest.slice(0, 12)}) does not match its digest`);
      earlier = { bytes, mode: target.before.mode };
    }
    let current: Content | null;
    try {
      current = files.read(target.path);
    } catch (error) {
      return refuse((error as Error).message);
    }
    const now = current ? stateOf(current) : ABSENT;
    const holdsAfter = sameContent(now, target.after);
    if (!holdsAfter && !sameContent(now, target.before)) return refuse(`${target.path} changed since seq ${target.seq}: restoring it would destroy that change`);
    const entry = this.append(tail, { runId, kind: 'rollback', path: target.path, rollbackOf: target.seq, before: current, after: earlier }, lock);
    try {
      if (earlier) await files.write(target.path, earlier.bytes, earlier.mode);
      else await files.remove(target.path);
    } catch (error) {
      return refuse(`journaled as seq ${entry.seq} but not restored: ${(error as Error).message}`);
    }
    return { seq: target.seq, path: target.path, kind: target.kind, rollbackSeq: entry.seq, alreadyRestored: !holdsAfter };
  }

  private inspect(): { report: VerifyReport; entries: JournalEntry[]; lines: string[] } {
    // The head first: a writer appends before it moves the head, so an append racing this read
    // shows as an unconfirmed entry, never as a cut tail.
    const headText = readOptional(this.headFile)?.toString('utf8');
    const bytes = readOptional(this.file) ?? Buffer.alloc(0);
    if (headText === undefined && bytes.length === 0) return { report: { ok: true, entries: 0, unconfirmed: 0, tornTail: false }, entries: [], lines: [] };
    const split = splitJournal(bytes);
    return { ...inspectJournal(split, headText, this.requireKey()), lines: split.lines };
  }

  /**
   * Under the lock, before appending: the key (made here for a new journal), the half-written
   * line a killed writer left trimmed, and entries it appended without moving the head confirmed.
   * A journal whose tail does not check is not written to.
   */
  private settleTail(lock: JournalLock): Tail {
    const headText = readOptional(this.headFile)?.toString('utf8');
    const bytes = readOptional(this.file) ?? Buffer.alloc(0);
    if (headText === undefined) {
      if (bytes.length > 0) throw brokenJournal('head.json is missing (deleted, or the journal was copied without it)');
      const key = this.existingKey() ?? createKeyFile(this.keyFile);
      lock.assertHeld();
      this.writeHead(key, 0, '');
      return { key, count: 0, lastMac: '' };
    }
    const key = this.requireKey();
    const split = splitJournal(bytes);
    const { lines, fragmentBytes } = split;
    // The whole chain once per instance (a run opens its own): a write appended after a break further
    // back could never be rolled back, since a rollback restores nothing from a journal that does not verify.
    if (!this.checkedWhole) {
      const whole = inspectJournal(split, headText, key).report;
      if (!whole.ok) throw brokenJournal(whole.reason);
      this.checkedWhole = true;
    }
    const checked = checkHead(headText, key, lines.length);
    if ('broken' in checked) throw brokenJournal(checked.broken.reason);
    const tail = checkTail(lines, checked.head, key);
    if ('broken' in tail) throw brokenJournal(tail.broken.reason);
    lock.assertHeld();
    if (fragmentBytes > 0) truncateSync(this.file, bytes.length - fragmentBytes);
    if (tail.count > checked.head.count) this.writeHead(key, tail.count, tail.lastMac);
    return { key, ...tail };
  }

  private append(tail: Tail, draft: Draft, lock: JournalLock): JournalEntry {
    const body = {
      seq: tail.count + 1,
      time: new Date().toISOString(),
      runId: draft.runId,
      ...(draft.opId === undefined ? {} : { opId: draft.opId }),
      kind: draft.kind,
      path: draft.path,
      before: this.store(draft.before),
      after: this.store(draft.after),
      ...(draft.rollbackOf === undefined ? {} : { rollbackOf: draft.rollbackOf }),
      prevMac: tail.lastMac,
    };
    const entry: JournalEntry = { ...body, mac: entryMac(tail.key, body) };
    lock.assertHeld();
    appendDurably(this.file, Buffer.from(`${JSON.stringify(entry)}\n`));
    this.writeHead(tail.key, entry.seq, entry.mac);
    tail.count = entry.seq;
    tail.lastMac = entry.mac;
    return entry;
  }

  private store(content: Content | null): FileState {
    if (!content) return ABSENT;
    return { exists: true, mode: content.mode, size: content.bytes.length, digest: this.blobs.put(content.bytes) };
  }

  private writeHead(key: Buffer, count: number, lastMac: string): void {
    replaceDurably(this.headFile, Buffer.from(`${JSON.stringify({ count, lastMac, mac: headMac(key, count, lastMac) })}\n`));
  }

  private existingKey(): Buffer | undefined {
    return this.environmentKey ?? readKeyFile(this.keyFile);
  }

  private requireKey(): Buffer {
    const key = this.existingKey();
    // `journal verify` can name no broken link without the key, so the hint is the key itself.
    if (!key) throw brokenJournal(`the journal exists but its key does not: neither ${JOURNAL_KEY_ENV} nor ${this.keyFile} is set`, `restore ${this.keyFile} or set ${JOURNAL_KEY_ENV} to the key it was written with`);
    return key;
  }

  private async locked<T>(work: (lock: JournalLock) => T | Promise<T>): Promise<T> {
    makeFolder(this.directory);
    const lock = await lockJournal(this.directory, this.lockWaitMs);
    try {
      return await work(lock);
    } finally {
      await lock.release();
    }
  }
}

function draftOf(change: JournalChange, root: string): Draft {
  if (!isJournalPath(change.path)) throw new HandbookError('INVALID_INPUT', `journal path ${JSON.stringify(change.path)} is not relative to the repository with forward slashes`);
  if (change.runId === '') throw new HandbookError('INVALID_INPUT', 'a journaled change needs a run id');
  const [hadBefore, hasAfter] = EXPECTED_PRESENCE[change.kind];
  if ((change.before !== null) !== hadBefore || (change.after !== null) !== hasAfter) {
    throw new HandbookError('INVALID_INPUT', `a ${change.kind} of ${change.path} ${hadBefore ? 'needs' : 'has no'} content before and ${hasAfter ? 'needs' : 'has no'} content after`);
  }
  const beforeMode = change.beforeMode ?? modeOnDisk(path.join(root, change.path));
  return {
    runId: change.runId,
    ...(change.opId === undefined ? {} : { opId: change.opId }),
    kind: change.kind,
    path: change.path,
    before: change.before === null ? null : { bytes: Buffer.from(change.before), mode: permissionBits(beforeMode) },
    after: change.after === null ? null : { bytes: Buffer.from(change.after), mode: permissionBits(change.afterMode ?? beforeMode) },
  };
}

function modeOnDisk(file: string): number {
  try {
    return statSync(file).mode;
  } catch {
    return DEFAULT_MODE;
  }
}

function permissionBits(mode: number): number {
  return mode & 0o777;
}

function stateOf(content: Content): FileState {
  return { exists: true, mode: content.mode, size: content.bytes.length, digest: sha256(content.bytes) };
}

function tooFewWrites(count: number, held: number): HandbookError {
  return new HandbookError('INVALID_INPUT', `cannot roll back ${count} write${count === 1 ? '' : 's'}: the journal holds ${held} not rolled back yet`, 'pass a smaller number');
}

function brokenJournal(reason: string, hint = 'run `handbook journal verify` for the first broken link'): HandbookError {
  return new HandbookError('JOURNAL_BROKEN', `the journal does not verify: ${reason}`, hint);
}

/** The lines from the first broken link on: none of them can be trusted, so none is applied; the report's `journal` says why. */
function unverifiableLines(lines: readonly string[], brokenAt: number): RefusedEntry[] {
  return lines.slice(brokenAt - 1).map((text, index) => ({
    line: brokenAt + index,
    ...claimedEntry(text),
    reason: index === 0 ? 'does not verify' : `follows the broken link at line ${brokenAt}`,
  }));
}

function claimedEntry(text: string): { seq?: number; path?: string } {
  try {
    const claimed = claimedEntrySchema.safeParse(JSON.parse(text));
    return claimed.success ? claimed.data : {};
  } catch {
    return {};
  }
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The writes already rolled back. A rollback entry is journaled before its restore: when it is
 * the last word on its file and the file still holds what it held before that restore (the
 * write failed, or the process died in between), the restore never happened and the write is
 * still there to undo.
 */
function undoneWrites(entries: readonly JournalEntry[], files: JournalFiles): Set<number> {
  const lastSeqOf = new Map<string, number>();
  for (const entry of entries) lastSeqOf.set(entry.path, entry.seq);
  const undone = new Set<number>();
  for (const entry of entries) {
    if (entry.rollbackOf === undefined) continue;
    if (lastSeqOf.get(entry.path) === entry.seq && !restoreReachedDisk(entry, files)) continue;
    undone.add(entry.rollbackOf);
  }
  return undone;
}

function restoreReachedDisk(entry: JournalEntry, files: JournalFiles): boolean {
  let current: Content | null;
  try {
    current = files.read(entry.path);
  } catch {
    return true;
  }
  const now = current ? stateOf(current) : ABSENT;
  return sameContent(now, entry.after) || !sameContent(now, entry.before);
}
