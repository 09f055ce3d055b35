import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HandbookError } from '../../src/errors.js';
import { openRunMemory, runMemoryPath } from '../../src/store/run-memory.js';
import { scratchDirectory } from '../helpers/paths.js';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return HandbookError.isInstance(error) ? error.code : `unexpected: ${String(error)}`;
  }
  return undefined;
}

describe('run memory', () => {
  it('stores facts and reads them back as they were promoted', () => {
    const file = runMemoryPath(path.join(scratchDirectory(), 'runs'), 'run-1');
    const memory = openRunMemory(file, { clock: () => new Date('2025-01-02T03:04:05.000Z') });
    const changed = memory.promote({ kind: 'file_changed', key: 'src/a.ts', text: 'edited src/a.ts', step: 2 });
    const check = memory.promote({ kind: 'check_result', key: 'tests', text: 'check tests (`npm test`) exited 1', step: 3 });
    expect(changed).toEqual({ id: 1, changed: true });
    expect(check).toEqual({ id: 2, changed: true });
    expect(memory.facts()).toEqual([
      { id: 1, kind: 'file_changed', key: 'src/a.ts', text: 'edited src/a.ts', step: 2, created: '2025-01-02T03:04:05.000Z', superseded: false, replaces: null },
      { id: 2, kind: 'check_result', key: 'tests', text: 'check tests (`npm test`) exited 1', step: 3, created: '2025-01-02T03:04:05.000Z', superseded: false, replaces: null },
    ]);
    expect(memory.facts('check_result').map((fact) => fact.id)).toEqual([2]);
    memory.close();
    expect(file.endsWith(path.join('runs', 'run-1', 'memory.db'))).toBe(true);
  });

  it('keeps the latest fact per kind and key current and the earlier ones as history', () => {
    const memory = openRunMemory(':memory:');
    const first = memory.promote({ kind: 'check_result', key: 'tests', text: 'exited 1', step: 2 });
    memory.promote({ kind: 'file_changed', key: 'tests', text: 'a different kind, the same key', step: 2 });
    const second = memory.promote({ kind: 'check_result', key: 'tests', text: 'exited 0', step: 5 });
    expect(memory.facts('check_result')).toMatchObject([{ id: second.id, text: 'exited 0', step: 5, replaces: first.id }]);
    expect(memory.facts()).toHaveLength(2);
    expect(memory.history('check_result', 'tests').map((fact) => [fact.text, fact.superseded])).toEqual([
      ['exited 1', true],
      ['exited 0', false],
    ]);
    // An id a summary pointed to still resolves after its subject moved on.
    expect(memory.fact(first.id)?.text).toBe('exited 1');
    memory.close();
  });

  it('treats promoting the same fact again as no change, and the same text at a later step as news', () => {
    const memory = openRunMemory(':memory:');
    const first = memory.promote({ kind: 'decision', key: 'use a map', text: 'I will use a Map because lookups are hot.', step: 3 });
    expect(memory.promote({ kind: 'decision', key: 'use a map', text: 'I will use a Map because lookups are hot.', step: 3 })).toEqual({ id: first.id, changed: false });
    expect(memory.promote({ kind: 'decision', key: 'use a map', text: 'I will use a Map because lookups are hot.', step: 7 }).changed).toBe(true);
    expect(memory.history('decision', 'use a map')).toHaveLength(2);
    memory.close();
  });

  it('recalls by words in the key or the text, best match first, history on request', () => {
    const memory = openRunMemory(':memory:');
    memory.promote({ kind: 'file_changed', key: 'src/parser.ts', text: 'edited src/parser.ts', step: 1 });
    memory.promote({ kind: 'check_result', key: 'tests', text: 'check tests exited 1 — parser.test.ts failed', step: 2 });
    memory.promote({ kind: 'open_question', key: 'should the cache be cleared?', text: 'Should the cache be cleared?', step: 3 });
    memory.promote({ kind: 'check_result', key: 'tests', text: 'check tests exited 0', step: 4 });
    expect(memory.recall().map((fact) => fact.step)).toEqual([1, 3, 4]);
    expect(memory.recall('PARSER').map((fact) => fact.key)).toEqual(['src/parser.ts']);
    expect(memory.recall('parser failed', { history: true }).map((fact) => fact.step)).toEqual([2, 1]);
    expect(memory.recall('tests cache', { kinds: ['open_question'] }).map((fact) => fact.step)).toEqual([3]);
    expect(memory.recall('nothing-like-this')).toEqual([]);
    memory.close();
  });

  it('refuses a fact that is not one', () => {
    const memory = openRunMemory(':memory:');
    expect(() => memory.promote({ kind: 'rumour' as 'decision', key: 'k', text: 't', step: 1 })).toThrow();
    expect(() => memory.promote({ kind: 'decision', key: '', text: 't', step: 1 })).toThrow();
    expect(memory.facts()).toEqual([]);
    memory.close();
  });

  it('survives reopening, and a crash: every promoted fact is on disk before promote returns', () => {
    const directory = scratchDirectory();
    const file = path.join(directory, 'memory.db');
    const memory = openRunMemory(file);
    memory.promote({ kind: 'file_changed', key: 'src/a.ts', text: 'created src/a.ts (3 lines)', step: 1 });
    memory.promote({ kind: 'check_result', key: 'tests', text: 'check tests exited 0', step: 2 });
    // What a killed process leaves: the database and its write-ahead log, never checkpointed or closed.
    const crashed = path.join(directory, 'crashed.db');
    copyFileSync(file, crashed);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${crashed}-wal`);
    const recovered = openRunMemory(crashed);
    expect(recovered.facts().map((fact) => fact.text)).toEqual(['created src/a.ts (3 lines)', 'check tests exited 0']);
    recovered.close();
    memory.close();
    const reopened = openRunMemory(file);
    expect(reopened.facts()).toHaveLength(2);
    expect(reopened.promote({ kind: 'check_result', key: 'tests', text: 'check tests exited 1', step: 3 }).id).toBe(3);
    reopened.close();
  });

  it('writes its log ahead (WAL) and refuses a memory from a newer version or a file that is no database', () => {
    const directory = scratchDirectory();
    const file = path.join(directory, 'memory.db');
    openRunMemory(file).close();
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.pragma('user_version = 99');
    raw.close();
    expect(codeOf(() => openRunMemory(file))).toBe('DATABASE_TOO_NEW');
    const garbage = path.join(directory, 'garbage.db');
    writeFileSync(garbage, 'this is not a database, not even close to one'.repeat(20));
    expect(codeOf(() => openRunMemory(garbage))).toBe('DATABASE_CORRUPT');
  });
});
