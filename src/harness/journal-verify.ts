import { entryMac, headMac, journalEntrySchema, journalHeadSchema, macMatches, type JournalEntry, type JournalHead } from './journal-entry.js';

export const JOURNAL_PROBLEMS = ['unparseable-line', 'invalid-entry', 'mac-mismatch', 'seq-gap', 'chain-break', 'head-missing', 'head-invalid', 'head-mismatch', 'truncated-tail'] as const;
export type JournalProblem = (typeof JOURNAL_PROBLEMS)[number];

export type VerifyReport =
  | {
      ok: true;
      entries: number;
      /** Entries past the head: a writer stopped between appending and moving the head. They are authentic; the next write confirms them. */
      unconfirmed: number;
      /** The journal ends in a half-written line past the head: a writer stopped mid-append. It is not an entry; the next write trims it. */
      tornTail: boolean;
    }
  | {
      ok: false;
      /** Entries that verified before the break. */
      entries: number;
      /** The line (= seq) of the first link that does not hold; for a problem with the head, one past the last line. */
      brokenAt: number;
      problem: JournalProblem;
      /** One line, naming the line and why. */
      reason: string;
    };

export interface Break {
  line: number;
  problem: JournalProblem;
  reason: string;
}

export interface SplitJournal {
  /** Complete lines, without their newlines. */
  lines: string[];
  /** Bytes after the last newline: what a write cut short left behind. */
  fragmentBytes: number;
}

export function splitJournal(bytes: Buffer): SplitJournal {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const complete = bytes.subarray(0, end).toString('utf8');
  return { lines: complete === '' ? [] : complete.slice(0, -1).split('\n'), fragmentBytes: bytes.length - end };
}

/**
 * Checks lines in order, numbered from `firstLine`: each one an entry, authentic under the key,
 * carrying its own line number as seq, and naming the MAC of the one before. With `prevMac`
 * undefined the first line's link is taken as it stands (what it links to is checked elsewhere).
 */
export function walkChain(lines: readonly string[], key: Buffer, firstLine: number, prevMac: string | undefined): { entries: JournalEntry[]; broken?: Break } {
  const entries: JournalEntry[] = [];
  let expectedLink = prevMac;
  for (const [index, text] of lines.entries()) {
    const line = firstLine + index;
    const broken = (problem: JournalProblem, reason: string) => ({ entries, broken: { line, problem, reason: `line ${line}: ${reason}` } });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return broken('unparseable-line', 'not JSON (a corrupted or hand-edited line)');
    }
    const parsed = journalEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return broken('invalid-entry', `not a journal entry (${issue.path.join('.') || 'the line'}: ${issue.message})`);
    }
    const { mac, ...body } = parsed.data;
    if (!macMatches(entryMac(key, body), mac)) return broken('mac-mismatch', 'mac mismatch (the entry was edited or forged, or the key is not the one it was written with)');
    if (body.seq !== line) return broken('seq-gap', `holds seq ${body.seq} (an entry was deleted, inserted or moved)`);
    if (expectedLink !== undefined && body.prevMac !== expectedLink) return broken('chain-break', 'chain break (it does not name the MAC of the entry before it)');
    entries.push(parsed.data);
    expectedLink = mac;
  }
  return { entries };
}

/** The head file, checked against the key. */
export function checkHead(text: string, key: Buffer, lineCount: number): { head: JournalHead } | { broken: Break } {
  const broken = (reason: string) => ({ broken: { line: lineCount + 1, problem: 'head-invalid' as const, reason: `head.json ${reason}` } });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return broken('is not JSON (truncated or overwritten)');
  }
  const parsed = journalHeadSchema.safeParse(raw);
  if (!parsed.success) return broken(`is not a journal head (${parsed.error.issues[0]!.path.join('.') || 'the file'}: ${parsed.error.issues[0]!.message})`);
  if (!macMatches(headMac(key, parsed.data.count, parsed.data.lastMac), parsed.data.mac)) return broken('mac mismatch (edited, or the key is not the one it was written with)');
  return { head: parsed.data };
}

/**
 * How the lines stand to the head: the head may lag behind them (a writer stopped between
 * appending and moving the head), never run ahead (that is entries cut from the end).
 */
function headBreak(lineCount: number, macAtHead: string | undefined, head: JournalHead): Break | undefined {
  if (lineCount < head.count) {
    return { line: lineCount + 1, problem: 'truncated-tail', reason: `truncated tail: head.json records ${head.count} entries, the journal holds ${lineCount}` };
  }
  if (head.count > 0 && macAtHead !== head.lastMac) {
    return { line: head.count, problem: 'head-mismatch', reason: `line ${head.count}: not the entry head.json records as entry ${head.count}` };
  }
  return undefined;
}

function brokenReport(broken: Break): VerifyReport {
  return { ok: false, entries: broken.line - 1, brokenAt: broken.line, problem: broken.problem, reason: broken.reason };
}

/** The whole journal, checked from its first line to its head. */
export function inspectJournal(split: SplitJournal, headText: string | undefined, key: Buffer): { report: VerifyReport; entries: JournalEntry[] } {
  const { lines } = split;
  const walk = walkChain(lines, key, 1, '');
  if (walk.broken) return { report: brokenReport(walk.broken), entries: walk.entries };
  if (headText === undefined) {
    return { report: brokenReport({ line: lines.length + 1, problem: 'head-missing', reason: 'head.json is missing (deleted, or the journal was copied without it)' }), entries: walk.entries };
  }
  const checked = checkHead(headText, key, lines.length);
  if ('broken' in checked) return { report: brokenReport(checked.broken), entries: walk.entries };
  const { head } = checked;
  const broken = headBreak(lines.length, walk.entries[head.count - 1]?.mac, head);
  if (broken) return { report: brokenReport(broken), entries: walk.entries };
  return { report: { ok: true, entries: lines.length, unconfirmed: lines.length - head.count, tornTail: split.fragmentBytes > 0 }, entries: walk.entries };
}

/**
 * What a writer must check before it appends: the entries from the head on. Everything before
 * the head was checked when it was written; `verify` checks it again.
 */
export function checkTail(lines: readonly string[], head: JournalHead, key: Buffer): { count: number; lastMac: string } | { broken: Break } {
  const first = Math.max(head.count, 1);
  const walk = walkChain(lines.slice(first - 1), key, first, head.count === 0 ? '' : undefined);
  if (walk.broken) return { broken: walk.broken };
  const broken = headBreak(lines.length, walk.entries[0]?.mac, head);
  if (broken) return { broken };
  return { count: lines.length, lastMac: walk.entries.at(-1)?.mac ?? '' };
}
