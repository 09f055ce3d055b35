import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../src/api/run-task.js';
import { entryMac, type JournalEntry } from '../../src/harness/journal-entry.js';
import { workspaceJournalFiles } from '../../src/harness/journal-files.js';
import { Journal, type JournalChange } from '../../src/harness/journal.js';
import { Workspace } from '../../src/harness/workspace.js';
import { act, call, FIXTURE_CHECK, READ_REDACT, writeScript } from '../helpers/harness-run.js';
import { scratchDirectory } from '../helpers/paths.js';
import { plannedFixture } from '../helpers/plan-fixture.js';
import { expectOneLineError, runCli, runCliAsync } from '../helpers/cli-run.js';

const handbook = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { env: { ...process.env, HANDBOOK_JOURNAL_KEY: undefined, ...env } });
const handbookAsync = (args: string[], env: Record<string, string | undefined> = {}) => runCliAsync(args, { env: { ...process.env, HANDBOOK_JOURNAL_KEY: undefined, ...env } });

/** A repository with three journaled changes made as a write tool makes them: a.txt written twice, c.txt created. */
async function journaledRepo() {
  const root = scratchDirectory('journal-cli-');
  const journal = Journal.open(root, { env: {} });
  const files = workspaceJournalFiles(new Workspace(root));
  const change = async (kind: JournalChange['kind'], file: string, after: string) => {
    const current = files.read(file);
    await journal.record({ runId: 'run-1', kind, path: file, before: current?.bytes ?? null, beforeMode: current?.mode, after });
    await files.write(file, Buffer.from(after), current?.mode ?? 0o644);
  };
  await change('create', 'a.txt', 'one');
  await change('write', 'a.txt', 'two');
  await change('create', 'c.txt', 'new');
  const lines = () => readFileSync(journal.file, 'utf8').trimEnd().split('\n');
  return { root, journal, lines, read: (file: string) => (existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8') : null) };
}

describe('handbook journal verify', () => {
  it('reports a journal that verifies, exit 0, and as JSON with --json', async () => {
    const repo = await journaledRepo();
    expect(handbook(['journal', 'verify', '--repo', repo.root])).toEqual({ code: 0, stdout: 'journal verified: 3 entries\n', stderr: '' });
    const json = handbook(['journal', 'verify', '--repo', repo.root, '--json']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([0, { ok: true, entries: 3, unconfirmed: 0, tornTail: false }]);
    expect(handbook(['journal', 'verify', '--repo', scratchDirectory()])).toEqual({ code: 0, stdout: 'journal verified: 0 entries\n', stderr: '' });
  });

  it('names the first broken link in one line, exit 9', async () => {
    const edited = await journaledRepo();
    const lines = edited.lines();
    lines[1] = lines[1]!.replace('"write"', '"create"');
    writeFileSync(edited.journal.file, `${lines.join('\n')}\n`);
    const result = handbook(['journal', 'verify', '--repo', edited.root]);
    expect(result.code).toBe(9);
    expect(result.stdout).toMatch(/^journal broken: line 2: mac mismatch \(the entry was edited or forged, or the key is not the one it was written with\)\n$/);
    expect(result.stderr).toBe('');

    const cut = await journaledRepo();
    writeFileSync(cut.journal.file, `${cut.lines().slice(0, 2).join('\n')}\n`);
    expect(handbook(['journal', 'verify', '--repo', cut.root])).toEqual({ code: 9, stdout: 'journal broken: truncated tail: head.json records 3 entries, the journal holds 2\n', stderr: '' });
    const json = handbook(['journal', 'verify', '--repo', cut.root, '--json']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([9, expect.objectContaining({ ok: false, brokenAt: 3, problem: 'truncated-tail' })]);
  });

  // One concurrent test a case, each on a journal of its own: one after another, their CLI starts added up under one timeout on a loaded machine.
  it.concurrent('answers a bad HANDBOOK_JOURNAL_KEY with one line, no stack trace', async () => {
    const repo = await journaledRepo();
    const wrong = await handbookAsync(['journal', 'verify', '--repo', repo.root], { HANDBOOK_JOURNAL_KEY: 'not-a-key' });
    expect([wrong.code, wrong.stderr.trim().split('\n')]).toEqual([2, [expect.stringMatching(/^handbook: HANDBOOK_JOURNAL_KEY must be 64 hexadecimal characters/)]]);
  });

  it.concurrent('answers a key file that is not a key with one line, no stack trace', async () => {
    const repo = await journaledRepo();
    writeFileSync(path.join(repo.root, '.handbook', 'journal.key'), 'garbage\n');
    const broken = await handbookAsync(['journal', 'verify', '--repo', repo.root]);
    expect([broken.code, broken.stderr.trim().split('\n')]).toEqual([9, [expect.stringMatching(/^handbook: the journal key .* is not 64 hexadecimal characters/)]]);
  });

  // The way out of a lost key is the key, not the command that just failed.
  it.concurrent.for([['journal', 'verify'], ['rollback', '1']])('answers a missing key with one line that says to restore it: %s', async (args) => {
    const repo = await journaledRepo();
    rmSync(path.join(repo.root, '.handbook', 'journal.key'));
    const keyless = await handbookAsync([...args, '--repo', repo.root]);
    expect([keyless.code, keyless.stderr.trim().split('\n')]).toEqual([9, [expect.stringMatching(/^handbook: the journal does not verify: the journal exists but its key does not: .* \(restore \S+journal\.key or set HANDBOOK_JOURNAL_KEY to the key it was written with\)$/)]]);
  });

  it.concurrent('answers a missing repository with one line', async () => {
    const repo = await journaledRepo();
    const missing = await handbookAsync(['journal', 'verify', '--repo', path.join(repo.root, 'nope')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/^handbook: repository not found: .*\n$/)]);
  });
});

describe('handbook rollback', () => {
  it('restores the last N writes newest first, journals them, exit 0', async () => {
    const repo = await journaledRepo();
    const result = handbook(['rollback', '2', '--repo', repo.root]);
    expect(result).toEqual({ code: 0, stdout: 'restored c.txt (seq 3, create)\nrestored a.txt (seq 2, write)\nrolled back 2 of 2 writes\n', stderr: '' });
    expect([repo.read('a.txt'), repo.read('c.txt')]).toEqual(['one', null]);
    expect(handbook(['journal', 'verify', '--repo', repo.root]).stdout).toBe('journal verified: 5 entries\n');

    const json = handbook(['rollback', '1', '--repo', repo.root, '--json']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([0, { journal: expect.objectContaining({ ok: true, entries: 5 }), restored: [expect.objectContaining({ seq: 1, path: 'a.txt', kind: 'create', rollbackSeq: 6 })], refused: [] }]);
    expect(repo.read('a.txt')).toBeNull();
  });

  const badCounts: Array<[string, RegExp]> = [
    ['0', /positive whole number of writes up to 9007199254740991, not "0"/],
    ['abc', /positive whole number of writes up to 9007199254740991, not "abc"/],
    ['1.5', /positive whole number/],
    ['-1', /positive whole number of writes up to 9007199254740991, not "-1"/],
    ['4', /cannot roll back 4 writes: the journal holds 3 not rolled back yet/],
    // Number() rounds these, and the refusal echoed a number nobody typed (1e+23, 9007199254740992).
    ['99999999999999999999999', /^handbook: rollback needs a positive whole number of writes up to 9007199254740991, not "99999999999999999999999"/],
    ['9007199254740993', /not "9007199254740993"/],
    ['9007199254740991', /cannot roll back 9007199254740991 writes: the journal holds 3/],
  ];
  // One concurrent test a count, each on a journal of its own: one after another, eight CLI starts added up under one timeout on a loaded machine.
  it.concurrent.for(badCounts)('answers a bad N with one line on stderr, exit 2, and changes nothing: %s', async ([n, pattern]) => {
    const repo = await journaledRepo();
    const result = await handbookAsync(['rollback', n, '--repo', repo.root]);
    expect({ n, code: result.code, lines: result.stderr.trim().split('\n').length, stdout: result.stdout }).toEqual({ n, code: 2, lines: 1, stdout: '' });
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(repo.read('a.txt')).toBe('two');
    expect(repo.lines()).toHaveLength(3);
  });

  // A refused rollback changes nothing, and in a repository that never had a journal that includes its folders.
  it('refuses a rollback where there is no journal without making one', () => {
    const root = scratchDirectory();
    const result = handbook(['rollback', '1', '--repo', root]);
    expect([result.code, result.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: cannot roll back 1 write: the journal holds 0 not rolled back yet/)]);
    expect(existsSync(path.join(root, '.handbook'))).toBe(false);
  });

  it('reports a forged entry and applies nothing, exit 9', async () => {
    const repo = await journaledRepo();
    const lines = repo.lines();
    const last = JSON.parse(lines[2]!) as JournalEntry;
    const { mac: _mac, ...body } = { ...last, seq: 4, kind: 'write' as const, path: 'a.txt', prevMac: last.mac, before: last.after, after: { exists: true as const, mode: 0o644, size: 3, digest: last.after.exists ? last.after.digest : '' } };
    writeFileSync(repo.journal.file, `${[...lines, JSON.stringify({ ...body, mac: entryMac(randomBytes(32), body) })].join('\n')}\n`);
    const result = handbook(['rollback', '1', '--repo', repo.root]);
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('refused line 4 (a.txt): does not verify\njournal broken: line 4: mac mismatch (the entry was edited or forged, or the key is not the one it was written with); nothing was rolled back\n');
    expect(result.stderr).toBe('');
    expect([repo.read('a.txt'), repo.read('c.txt')]).toEqual(['two', 'new']);
  });

  it('refuses a write whose file changed since, exit 10', async () => {
    const repo = await journaledRepo();
    writeFileSync(path.join(repo.root, 'c.txt'), 'mine now');
    const result = handbook(['rollback', '2', '--repo', repo.root]);
    expect(result).toEqual({ code: 10, stdout: 'restored a.txt (seq 2, write)\nrefused line 3 (c.txt): c.txt changed since seq 3: restoring it would destroy that change\nrolled back 1 of 2 writes\n', stderr: '' });
    expect([repo.read('a.txt'), repo.read('c.txt')]).toEqual(['one', 'mine now']);
  });
});

describe('a run on a journal that does not verify', () => {
  /** A planned repository holding a run stopped after three journaled writes, none of them to the plan's targets. */
  async function interruptedRun() {
    const { repo, plan } = await plannedFixture();
    const create = (file: string) => call('create_file', { path: file, content: `${file}\n` });
    const stop = new AbortController();
    const stopped = await runTask(repo, {
      task: { text: 'Write notes.', exitCriteria: { checks: [FIXTURE_CHECK] } },
      model: `script:${writeScript([act(create('a.txt')), act(create('b.txt')), act(create('c.txt')), act(READ_REDACT)])}`,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === 'tool_result' && event.tool === 'create_file' && Journal.open(repo, { env: {} }).entries().length === 3) stop.abort();
      },
    });
    expect(stopped.reason.kind).toBe('aborted');
    return { repo, plan, runId: stopped.runId, journal: path.join(repo, '.handbook', 'journal', 'journal.jsonl') };
  }

  // The writer's check of the whole journal comes at its first write: a run started on a broken journal called the model and ran checks, and every write failed.
  // One concurrent test a damage, each on a run of its own: three damages one after another, nine CLI starts, took 65 s in CI.
  const damages: Array<[string, (lines: string[]) => string[], RegExp]> = [
    ['edited', (lines) => [lines[0]!.replace('a.txt', 'z.txt'), ...lines.slice(1)], /line 1: mac mismatch/],
    ['dropped', (lines) => [lines[0]!, lines[2]!], /line 2: holds seq 3/],
    ['not JSON', (lines) => [lines[0]!, '{"seq": 2,', lines[2]!], /line 2: not JSON/],
  ];
  it.concurrent.for(damages)('refuses run, apply and resume in one line, exit 9, before writing anything: %s', { timeout: 180_000 }, async ([damage, damaged, reason]) => {
    const { repo, plan, runId, journal } = await interruptedRun();
    const runs = path.join(repo, '.handbook', 'runs');
    const before = { runs: readdirSync(runs).sort(), events: readFileSync(path.join(runs, runId, 'events.jsonl'), 'utf8'), redact: readFileSync(path.join(repo, 'src/redact.js'), 'utf8') };
    const script = `script:${writeScript([act(READ_REDACT), act(call('edit_file', { path: 'src/redact.js', old_text: '  return text;\n', new_text: '  return "";\n' }))])}`;
    const text = `${damaged(readFileSync(journal, 'utf8').trimEnd().split('\n')).join('\n')}\n`;
    writeFileSync(journal, text);
    const commands = [
      ['run', '--repo', repo, '--task', 'Mask API keys', '--check', FIXTURE_CHECK.command, '--model', script],
      ['apply', plan.id, '--repo', repo, '--yes', '--model', script],
      ['resume', runId, '--repo', repo, '--model', script],
    ];
    // Side by side: each must refuse before it writes, so none can see another's writes.
    const results = await Promise.all(commands.map((args) => handbookAsync(args)));
    for (const [index, args] of commands.entries()) {
      const result = results[index]!;
      expect({ damage, command: args[0], stderr: result.stderr }).toEqual({ damage, command: args[0], stderr: expect.stringMatching(/^handbook: the journal of writes failed its check, so the run was not started: .*\(run `handbook journal verify` for the first broken link, then restore/) });
      expectOneLineError(result, 9, reason);
      expect({ runs: readdirSync(runs).sort(), events: readFileSync(path.join(runs, runId, 'events.jsonl'), 'utf8'), redact: readFileSync(path.join(repo, 'src/redact.js'), 'utf8') }).toEqual(before);
      expect(readFileSync(journal, 'utf8')).toBe(text);
    }
    expect(existsSync(path.join(repo, '.handbook', 'acceptance'))).toBe(false);
  });
});
