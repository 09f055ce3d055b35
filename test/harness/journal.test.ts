import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { HandbookError } from '../../src/errors.js';
import { entryMac, sha256, type JournalEntry } from '../../src/harness/journal-entry.js';
import { workspaceJournalFiles, type JournalFiles } from '../../src/harness/journal-files.js';
import { Journal, type JournalChange } from '../../src/harness/journal.js';
import { Workspace } from '../../src/harness/workspace.js';
import { scratchDirectory } from '../helpers/paths.js';

/** No key from the test runner's environment: each journal makes its own key file unless a test gives one. */
const NO_ENV = { env: {} };

interface Repo {
  root: string;
  journal: Journal;
  files: JournalFiles;
  /** Journals a change, then makes it, as a write tool will. */
  change(kind: JournalChange['kind'], file: string, after: Buffer | string | null, mode?: number): Promise<JournalEntry>;
  read(file: string): Buffer | null;
  lines(): string[];
  writeLines(lines: string[]): void;
}

function repo(options: { env: Record<string, string | undefined> } = NO_ENV): Repo {
  const root = scratchDirectory('journal-');
  const journal = Journal.open(root, options);
  const files = workspaceJournalFiles(new Workspace(root));
  return {
    root,
    journal,
    files,
    change: async (kind, file, after, mode) => {
      const current = files.read(file);
      const entry = await journal.record({ runId: 'run-1', opId: `op-${file}`, kind, path: file, before: current?.bytes ?? null, beforeMode: current?.mode, after, afterMode: mode });
      if (after === null) await files.remove(file);
      else await files.write(file, Buffer.from(after), mode ?? current?.mode ?? 0o644);
      return entry;
    },
    read: (file) => (existsSync(path.join(root, file)) ? readFileSync(path.join(root, file)) : null),
    lines: () => readFileSync(journal.file, 'utf8').trimEnd().split('\n'),
    writeLines: (lines) => writeFileSync(journal.file, lines.map((line) => `${line}\n`).join('')),
  };
}

/** A repository with four journaled changes: two writes, a create and a delete. */
async function repoWithHistory(options?: { env: Record<string, string | undefined> }): Promise<Repo> {
  const r = repo(options);
  writeFileSync(path.join(r.root, 'a.txt'), 'a0');
  writeFileSync(path.join(r.root, 'b.txt'), 'b0');
  await r.change('write', 'a.txt', 'a1');
  await r.change('create', 'c.txt', 'c1');
  await r.change('write', 'a.txt', 'a2');
  await r.change('delete', 'b.txt', null);
  return r;
}

function forgedLine(template: JournalEntry, changes: Partial<JournalEntry>, key: Buffer): string {
  const { mac: _mac, ...body } = { ...template, ...changes };
  return JSON.stringify({ ...body, mac: entryMac(key, body) });
}

function errorCode(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return HandbookError.isInstance(error) ? error.code : (error as Error).message;
  }
  return undefined;
}

describe('journal: record and verify', () => {
  it('records each change with both states, chained, and verifies', async () => {
    const r = await repoWithHistory();
    expect(r.journal.verify()).toEqual({ ok: true, entries: 4, unconfirmed: 0, tornTail: false });
    const entries = r.journal.entries();
    expect(entries.map((entry) => [entry.seq, entry.kind, entry.path])).toEqual([
      [1, 'write', 'a.txt'],
      [2, 'create', 'c.txt'],
      [3, 'write', 'a.txt'],
      [4, 'delete', 'b.txt'],
    ]);
    expect(entries[0]).toMatchObject({ runId: 'run-1', opId: 'op-a.txt', prevMac: '', before: { exists: true, size: 2, digest: sha256(Buffer.from('a0')) }, after: { exists: true, digest: sha256(Buffer.from('a1')) } });
    expect(entries[1]!.before).toEqual({ exists: false });
    expect(entries[3]!.after).toEqual({ exists: false });
    for (const [index, entry] of entries.entries()) if (index > 0) expect(entry.prevMac).toBe(entries[index - 1]!.mac);
    // Every version named by an entry is stored, by digest.
    const blobs = readdirSync(path.join(r.journal.directory, 'blobs'));
    for (const content of ['a0', 'a1', 'a2', 'b0', 'c1']) expect(blobs).toContain(sha256(Buffer.from(content)));
    expect(JSON.parse(readFileSync(r.journal.headFile, 'utf8'))).toMatchObject({ count: 4, lastMac: entries[3]!.mac });
  });

  it('verifies an empty repository without creating anything', () => {
    const root = scratchDirectory('journal-');
    expect(Journal.open(root, NO_ENV).verify()).toEqual({ ok: true, entries: 0, unconfirmed: 0, tornTail: false });
    expect(existsSync(path.join(root, '.handbook'))).toBe(false);
  });

  it('refuses a change whose contents do not fit its kind, or whose path is not a relative one', async () => {
    const r = repo();
    const base = { runId: 'run-1', path: 'x.txt', before: null, after: 'x' } as const;
    await expect(r.journal.record({ ...base, kind: 'write' })).rejects.toThrow(/a write of x\.txt needs content before/);
    await expect(r.journal.record({ ...base, kind: 'create', path: '../x.txt' })).rejects.toThrow(/not relative to the repository/);
    await expect(r.journal.record({ ...base, kind: 'create', path: '/etc/passwd' })).rejects.toThrow(/not relative/);
    await expect(r.journal.record({ ...base, kind: 'create', path: 'a/../x.txt' })).rejects.toThrow(/not relative/);
  });

  describe('detects tampering', () => {
    const otherKey = randomBytes(32);
    const cases: Array<[string, (r: Repo) => void, { brokenAt: number; problem: string; reason: RegExp }]> = [
      [
        'an edited field',
        (r) => {
          const lines = r.lines();
          lines[1] = lines[1]!.replace('"c.txt"', '"evil.txt"');
          r.writeLines(lines);
        },
        { brokenAt: 2, problem: 'mac-mismatch', reason: /line 2: mac mismatch/ },
      ],
      [
        'an edited mac',
        (r) => {
          const lines = r.lines();
          const entry = JSON.parse(lines[2]!);
          lines[2] = JSON.stringify({ ...entry, mac: entry.mac.replace(/^./, (digit: string) => (digit === '0' ? '1' : '0')) });
          r.writeLines(lines);
        },
        { brokenAt: 3, problem: 'mac-mismatch', reason: /line 3: mac mismatch/ },
      ],
      [
        'a forged line inserted (made with another key)',
        (r) => {
          const lines = r.lines();
          const second = JSON.parse(lines[1]!) as JournalEntry;
          lines.splice(2, 0, forgedLine(second, { seq: 3, prevMac: second.mac, path: 'evil.txt' }, otherKey));
          r.writeLines(lines);
        },
        { brokenAt: 3, problem: 'mac-mismatch', reason: /line 3: mac mismatch/ },
      ],
      ['a middle line deleted', (r) => r.writeLines(r.lines().filter((_, index) => index !== 1)), { brokenAt: 2, problem: 'seq-gap', reason: /line 2: holds seq 3/ }],
      [
        'two lines swapped',
        (r) => {
          const [first, second, third, fourth] = r.lines();
          r.writeLines([first!, third!, second!, fourth!]);
        },
        { brokenAt: 2, problem: 'seq-gap', reason: /line 2: holds seq 3/ },
      ],
      [
        'a genuine line replayed in place of another',
        (r) => {
          const lines = r.lines();
          r.writeLines([lines[0]!, lines[1]!, lines[1]!, lines[3]!]);
        },
        { brokenAt: 3, problem: 'seq-gap', reason: /line 3: holds seq 2/ },
      ],
      ['the tail cut off', (r) => r.writeLines(r.lines().slice(0, 2)), { brokenAt: 3, problem: 'truncated-tail', reason: /head\.json records 4 entries, the journal holds 2/ }],
      ['the head file truncated', (r) => writeFileSync(r.journal.headFile, '{"count":4,'), { brokenAt: 5, problem: 'head-invalid', reason: /head\.json is not JSON/ }],
      ['the head file deleted', (r) => rmSync(r.journal.headFile), { brokenAt: 5, problem: 'head-missing', reason: /head\.json is missing/ }],
      [
        'the head file rewritten with a smaller count',
        (r) => {
          const head = JSON.parse(readFileSync(r.journal.headFile, 'utf8'));
          writeFileSync(r.journal.headFile, JSON.stringify({ ...head, count: 2 }));
        },
        { brokenAt: 5, problem: 'head-invalid', reason: /head\.json mac mismatch/ },
      ],
      [
        'a corrupted line',
        (r) => {
          const lines = r.lines();
          lines[1] = lines[1]!.slice(0, 40);
          r.writeLines(lines);
        },
        { brokenAt: 2, problem: 'unparseable-line', reason: /line 2: not JSON/ },
      ],
      [
        'a line that is JSON but not an entry',
        (r) => {
          const lines = r.lines();
          lines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), path: '../outside.txt' });
          r.writeLines(lines);
        },
        { brokenAt: 2, problem: 'invalid-entry', reason: /line 2: not a journal entry \(path:/ },
      ],
    ];
    for (const [name, tamper, expected] of cases) {
      it(name, async () => {
        const r = await repoWithHistory();
        tamper(r);
        const report = r.journal.verify();
        expect(report).toMatchObject({ ok: false, ...expected, reason: expect.stringMatching(expected.reason) });
        expect(report).toMatchObject({ entries: expected.brokenAt - 1 });
        expect(errorCode(() => r.journal.entries())).toBe('JOURNAL_BROKEN');
      });
    }

    it('a different key (every line fails from the first)', async () => {
      const key = randomBytes(32).toString('hex');
      const r = await repoWithHistory({ env: { HANDBOOK_JOURNAL_KEY: key } });
      expect(r.journal.verify().ok).toBe(true);
      const other = Journal.open(r.root, { env: { HANDBOOK_JOURNAL_KEY: randomBytes(32).toString('hex') } });
      expect(other.verify()).toMatchObject({ ok: false, brokenAt: 1, problem: 'mac-mismatch' });
    });

    it('refuses to append to a journal whose tail does not check', async () => {
      const r = await repoWithHistory();
      r.writeLines(r.lines().slice(0, 3));
      await expect(r.change('write', 'a.txt', 'a3')).rejects.toMatchObject({ code: 'JOURNAL_BROKEN', message: expect.stringMatching(/truncated tail/) });
      expect(r.read('a.txt')!.toString()).toBe('a2');
    });
  });

  // A write appended to a journal broken further back could never be rolled back (rollback restores
  // nothing from a journal that does not verify): a writer checks the whole chain once before its first append.
  it('refuses to append to a journal broken before its tail, from a fresh instance as a new run opens it', async () => {
    const r = await repoWithHistory();
    const lines = r.lines();
    r.writeLines([lines[0]!, lines[1]!.slice(0, 40), ...lines.slice(2)]);
    const fresh = Journal.open(r.root, NO_ENV);
    await expect(fresh.record({ runId: 'run-2', kind: 'write', path: 'a.txt', before: 'a2', after: 'a3' })).rejects.toMatchObject({ code: 'JOURNAL_BROKEN', message: expect.stringMatching(/line 2: not JSON/) });
    expect(r.lines()).toHaveLength(4);
  });

  describe('crash leftovers', () => {
    it('a half-written last line is not an entry: verify accepts it, the next record trims it', async () => {
      const r = await repoWithHistory();
      appendFileSync(r.journal.file, '{"seq":5,"time":"2026-01-');
      expect(r.journal.verify()).toEqual({ ok: true, entries: 4, unconfirmed: 0, tornTail: true });
      await r.change('write', 'a.txt', 'a3');
      expect(r.journal.verify()).toEqual({ ok: true, entries: 5, unconfirmed: 0, tornTail: false });
      expect(r.lines()).toHaveLength(5);
    });

    it('an entry appended without moving the head is authentic: verify accepts it, the next record confirms it', async () => {
      const r = await repoWithHistory();
      const head = readFileSync(r.journal.headFile);
      await r.change('write', 'a.txt', 'a3');
      writeFileSync(r.journal.headFile, head);
      expect(r.journal.verify()).toEqual({ ok: true, entries: 5, unconfirmed: 1, tornTail: false });
      await r.change('write', 'a.txt', 'a4');
      expect(r.journal.verify()).toEqual({ ok: true, entries: 6, unconfirmed: 0, tornTail: false });
    });

    it('a half-written line inside the head is a cut journal, not a crash artifact', async () => {
      const r = await repoWithHistory();
      const lines = r.lines();
      writeFileSync(r.journal.file, `${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 30)}`);
      expect(r.journal.verify()).toMatchObject({ ok: false, problem: 'truncated-tail', brokenAt: 4 });
    });
  });

  describe('key', () => {
    it('is created on the first record as 64 hex characters, readable by the owner only', async () => {
      const r = repo();
      await r.change('create', 'x.txt', 'x');
      const keyFile = path.join(r.root, '.handbook', 'journal.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
      expect(readdirSync(path.join(r.root, '.handbook')).filter((name) => name.endsWith('.partial'))).toEqual([]);
    });

    it('is refused when group or others may read it', async () => {
      const r = repo();
      await r.change('create', 'x.txt', 'x');
      chmodSync(path.join(r.root, '.handbook', 'journal.key'), 0o644);
      expect(() => r.journal.verify()).toThrow(/journal\.key is open to group or others \(mode 644\)/);
      await expect(r.change('write', 'x.txt', 'y')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('comes from HANDBOOK_JOURNAL_KEY when set, and then no key file is written', async () => {
      const key = randomBytes(32).toString('hex');
      const r = repo({ env: { HANDBOOK_JOURNAL_KEY: key } });
      await r.change('create', 'x.txt', 'x');
      expect(existsSync(path.join(r.root, '.handbook', 'journal.key'))).toBe(false);
      expect(Journal.open(r.root, { env: { HANDBOOK_JOURNAL_KEY: key.toUpperCase() } }).verify()).toMatchObject({ ok: true, entries: 1 });
      // Without the key the journal cannot be checked: an error, not a silent pass and not a new key.
      expect(() => Journal.open(r.root, NO_ENV).verify()).toThrow(/the journal exists but its key does not/);
      await expect(Journal.open(r.root, NO_ENV).record({ runId: 'r', kind: 'write', path: 'x.txt', before: 'x', after: 'y' })).rejects.toMatchObject({ code: 'JOURNAL_BROKEN' });
      expect(existsSync(path.join(r.root, '.handbook', 'journal.key'))).toBe(false);
    });

    it('rejects a HANDBOOK_JOURNAL_KEY that is not 64 hex characters', () => {
      const root = scratchDirectory('journal-');
      for (const value of ['', 'abc', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(65)]) {
        expect(errorCode(() => Journal.open(root, { env: { HANDBOOK_JOURNAL_KEY: value } }))).toBe('INVALID_INPUT');
      }
    });

    it('a corrupted key file breaks the journal rather than being replaced', async () => {
      const r = repo();
      await r.change('create', 'x.txt', 'x');
      writeFileSync(path.join(r.root, '.handbook', 'journal.key'), 'nonsense\n', { mode: 0o600 });
      expect(errorCode(() => r.journal.verify())).toBe('JOURNAL_BROKEN');
    });
  });
});

describe('journal: rollback', () => {
  it('restores a delete (with its mode), a write and a create byte for byte, newest first, and journals each restore', async () => {
    const r = repo();
    const binary = randomBytes(4096);
    writeFileSync(path.join(r.root, 'data.bin'), binary);
    writeFileSync(path.join(r.root, 'secret.txt'), 'keep me', { mode: 0o640 });
    chmodSync(path.join(r.root, 'secret.txt'), 0o640);
    await r.change('write', 'data.bin', randomBytes(100));
    await r.change('create', 'deep/new.txt', 'new');
    await r.change('delete', 'secret.txt', null);

    const report = await r.journal.rollback(3, 'undo-1', r.files);
    expect(report.refused).toEqual([]);
    expect(report.restored.map((entry) => [entry.seq, entry.kind, entry.path, entry.rollbackSeq])).toEqual([
      [3, 'delete', 'secret.txt', 4],
      [2, 'create', 'deep/new.txt', 5],
      [1, 'write', 'data.bin', 6],
    ]);
    expect(r.read('data.bin')!.equals(binary)).toBe(true);
    expect(r.read('deep/new.txt')).toBeNull();
    expect(r.read('secret.txt')!.toString()).toBe('keep me');
    expect(statSync(path.join(r.root, 'secret.txt')).mode & 0o777).toBe(0o640);

    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 6 });
    const rollbacks = r.journal.entries().slice(3);
    expect(rollbacks.map((entry) => [entry.kind, entry.rollbackOf, entry.runId])).toEqual([
      ['rollback', 3, 'undo-1'],
      ['rollback', 2, 'undo-1'],
      ['rollback', 1, 'undo-1'],
    ]);
    expect(rollbacks[0]).toMatchObject({ before: { exists: false }, after: { exists: true, mode: 0o640 } });
    await expect(r.journal.rollback(1, 'undo-2', r.files)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/holds 0 not rolled back yet/) });
  });

  it('takes the mode from the file on disk when the writer does not give it', async () => {
    const r = repo();
    writeFileSync(path.join(r.root, 'run.sh'), '#!/bin/sh\n');
    chmodSync(path.join(r.root, 'run.sh'), 0o755);
    const entry = await r.journal.record({ runId: 'run-1', kind: 'delete', path: 'run.sh', before: '#!/bin/sh\n', after: null });
    expect(entry.before).toMatchObject({ exists: true, mode: 0o755 });
    rmSync(path.join(r.root, 'run.sh'));
    await r.journal.rollback(1, 'undo', r.files);
    expect(statSync(path.join(r.root, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it('continues with older writes on the next rollback', async () => {
    const r = repo();
    for (const version of ['v1', 'v2', 'v3', 'v4']) await r.change(version === 'v1' ? 'create' : 'write', 'f.txt', version);
    const first = await r.journal.rollback(2, 'undo', r.files);
    expect(first.restored.map((entry) => entry.seq)).toEqual([4, 3]);
    expect(r.read('f.txt')!.toString()).toBe('v2');
    const second = await r.journal.rollback(1, 'undo', r.files);
    expect(second.restored.map((entry) => entry.seq)).toEqual([2]);
    expect(r.read('f.txt')!.toString()).toBe('v1');
    await expect(r.journal.rollback(2, 'undo', r.files)).rejects.toThrow(/cannot roll back 2 writes: the journal holds 1/);
    await expect(r.journal.rollback(0, 'undo', r.files)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(r.journal.rollback(1.5, 'undo', r.files)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 7 });
  });

  it('still undoes a write whose earlier restore never reached the disk', async () => {
    const r = repo();
    await r.change('create', 'f.txt', 'v1');
    await r.change('write', 'f.txt', 'v2');
    const failing = { ...r.files, write: () => Promise.reject(new Error('disk full')) };
    const failed = await r.journal.rollback(1, 'undo', failing);
    expect(failed.refused).toEqual([expect.objectContaining({ seq: 2, reason: expect.stringMatching(/journaled as seq 3 but not restored: disk full/) })]);
    expect(r.read('f.txt')!.toString()).toBe('v2');
    const again = await r.journal.rollback(1, 'undo', r.files);
    expect(again.restored.map((entry) => entry.seq)).toEqual([2]);
    expect(r.read('f.txt')!.toString()).toBe('v1');
    expect(r.journal.verify()).toMatchObject({ ok: true });
  });

  it('refuses a write whose file changed since, leaves it alone and journals nothing for it', async () => {
    const r = repo();
    await r.change('create', 'f.txt', 'mine');
    await r.change('write', 'f.txt', 'agent');
    writeFileSync(path.join(r.root, 'f.txt'), 'edited by hand');
    const report = await r.journal.rollback(1, 'undo', r.files);
    expect(report.restored).toEqual([]);
    expect(report.refused).toEqual([{ line: 2, seq: 2, path: 'f.txt', reason: 'f.txt changed since seq 2: restoring it would destroy that change' }]);
    expect(r.read('f.txt')!.toString()).toBe('edited by hand');
    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  it('refuses a forged entry: nothing is applied and the line is reported', async () => {
    const r = await repoWithHistory();
    const evil = Buffer.from('evil');
    const evilDigest = sha256(evil);
    mkdirSync(path.join(r.journal.directory, 'blobs'), { recursive: true });
    writeFileSync(path.join(r.journal.directory, 'blobs', evilDigest), evil);
    const lines = r.lines();
    const last = JSON.parse(lines[3]!) as JournalEntry;
    const forged = forgedLine(
      last,
      { seq: 5, kind: 'write', path: 'a.txt', before: { exists: true, mode: 0o644, size: 4, digest: evilDigest }, after: { exists: true, mode: 0o644, size: 2, digest: sha256(Buffer.from('a2')) }, prevMac: last.mac },
      randomBytes(32),
    );
    r.writeLines([...lines, forged]);

    const report = await r.journal.rollback(1, 'undo', r.files);
    expect(report.journal).toMatchObject({ ok: false, brokenAt: 5, problem: 'mac-mismatch' });
    expect(report.restored).toEqual([]);
    expect(report.refused).toEqual([{ line: 5, seq: 5, path: 'a.txt', reason: 'does not verify' }]);
    expect(r.read('a.txt')!.toString()).toBe('a2');
    expect(r.lines()).toHaveLength(5);
  });

  it('applies nothing past an edited middle entry: every line from the break on is reported', async () => {
    const r = await repoWithHistory();
    const lines = r.lines();
    lines[1] = lines[1]!.replace('"c.txt"', '"evil.txt"');
    r.writeLines(lines);
    const report = await r.journal.rollback(1, 'undo', r.files);
    expect(report.refused).toEqual([
      { line: 2, seq: 2, path: 'evil.txt', reason: 'does not verify' },
      { line: 3, seq: 3, path: 'a.txt', reason: 'follows the broken link at line 2' },
      { line: 4, seq: 4, path: 'b.txt', reason: 'follows the broken link at line 2' },
    ]);
    expect([r.read('a.txt')!.toString(), r.read('b.txt'), r.read('c.txt')!.toString()]).toEqual(['a2', null, 'c1']);
  });

  it('refuses an entry whose saved content is missing or damaged', async () => {
    const r = repo();
    await r.change('create', 'f.txt', 'one');
    await r.change('write', 'f.txt', 'two');
    await r.change('write', 'f.txt', 'three');
    rmSync(path.join(r.journal.directory, 'blobs', sha256(Buffer.from('two'))));
    const missing = await r.journal.rollback(1, 'undo', r.files);
    expect(missing.refused).toEqual([{ line: 3, seq: 3, path: 'f.txt', reason: expect.stringMatching(/saved content it would restore \(blob [0-9a-f]{12}\) is missing/) }]);
    expect(r.read('f.txt')!.toString()).toBe('three');

    writeFileSync(path.join(r.journal.directory, 'blobs', sha256(Buffer.from('two'))), 'tw0');
    const altered = await r.journal.rollback(1, 'undo', r.files);
    expect(altered.refused[0]!.reason).toMatch(/does not match its digest/);
    expect(r.read('f.txt')!.toString()).toBe('three');
    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 3 });
  });

  it('marks a write that never reached the disk as rolled back without touching the file', async () => {
    const r = repo();
    await r.change('create', 'f.txt', 'one');
    // Journaled, then the writer died before the write: the file still holds the entry's `before`.
    await r.journal.record({ runId: 'run-1', kind: 'write', path: 'f.txt', before: 'one', after: 'two' });
    const report = await r.journal.rollback(1, 'undo', r.files);
    expect(report.restored).toEqual([{ seq: 2, path: 'f.txt', kind: 'write', rollbackSeq: 3, alreadyRestored: true }]);
    expect(r.read('f.txt')!.toString()).toBe('one');
  });

  it('restores only through the file gate, whatever a genuine entry names', async () => {
    const r = repo();
    await r.journal.record({ runId: 'run-1', kind: 'create', path: '.git/hooks/pre-commit', before: null, after: 'x' });
    const report = await r.journal.rollback(1, 'undo', r.files);
    expect(report.refused).toEqual([{ line: 1, seq: 1, path: '.git/hooks/pre-commit', reason: expect.stringMatching(/inside \.git\//) }]);
  });
});

describe('journal: lock', () => {
  it('keeps the chain whole under concurrent records from two instances', async () => {
    const r = repo();
    const other = Journal.open(r.root, NO_ENV);
    // Both make the key on first use; the first record settles it before the race.
    await r.journal.record({ runId: 'a', kind: 'create', path: 'start.txt', before: null, after: 'x' });
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 === 0 ? r.journal : other).record({ runId: index % 2 === 0 ? 'a' : 'b', kind: 'create', path: `f${index}.txt`, before: null, after: `content ${index}` }),
      ),
    );
    expect(r.journal.verify()).toEqual({ ok: true, entries: 31, unconfirmed: 0, tornTail: false });
    expect(new Set(r.journal.entries().map((entry) => entry.path)).size).toBe(31);
  });

  it('reports a lock another process holds as JOURNAL_LOCKED', async () => {
    const r = await repoWithHistory();
    const release = await lockfile.lock(r.journal.directory, { lockfilePath: path.join(r.journal.directory, 'lock') });
    try {
      const waiting = Journal.open(r.root, { ...NO_ENV, lockWaitMs: 200 });
      await expect(waiting.record({ runId: 'r', kind: 'write', path: 'a.txt', before: 'a2', after: 'a3' })).rejects.toMatchObject({ code: 'JOURNAL_LOCKED', message: expect.stringMatching(/another process holds the journal lock/) });
      await expect(waiting.rollback(1, 'r', r.files)).rejects.toMatchObject({ code: 'JOURNAL_LOCKED' });
    } finally {
      await release();
    }
    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 4 });
  });

  it('takes over a lock its holder stopped refreshing (a killed process)', async () => {
    const r = await repoWithHistory();
    const stale = path.join(r.journal.directory, 'lock');
    mkdirSync(stale);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(stale, longAgo, longAgo);
    await r.change('write', 'a.txt', 'a3');
    expect(r.journal.verify()).toMatchObject({ ok: true, entries: 5 });
  });
});
