import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { scratchDirectory } from '../helpers/paths.js';

/**
 * A sync of an edit in a large file writes the rows the edit changed, not the file's every row:
 * lines below an edit all move, and are stored relative to the unit they belong to.
 */

const LARGE = 'src/pipeline.ts';
const FUNCTIONS = 40;

/** A function of four lines: a call to the next, to the helper, to the store, and a callback the checker cannot follow. */
function step(index: number, name = `step${index}`, next = `step${index + 1}`): string {
  const call = index + 1 < FUNCTIONS ? `${next}(store, done)` : '0';
  return [
    `/** Step ${index} of the pipeline. */`,
    `export function ${name}(store: Store, done: () => void): number {`,
    `  const base = helper(${index}) + store.bump();`,
    '  done();',
    `  return base + ${call};`,
    '}',
  ].join('\n');
}

function largeModule(): string {
  return [
    "import { helper } from './helper';",
    '',
    'export class Store {',
    '  value = 0;',
    '  bump(): number {',
    '    this.value += 1;',
    '    return this.value;',
    '  }',
    '}',
    '',
    ...Array.from({ length: FUNCTIONS }, (_, index) => step(index)),
    '',
  ].join('\n');
}

/** Counts the rows each statement kind writes to the graph's tables, whoever writes them. */
function countWrites(database: string): { take(): Record<string, number>; close(): void } {
  const connection = new Database(database);
  connection.exec('CREATE TABLE IF NOT EXISTS test_writes (tbl TEXT NOT NULL, op TEXT NOT NULL)');
  for (const table of ['units', 'edges', 'unresolved']) {
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      connection.exec(`CREATE TRIGGER IF NOT EXISTS test_${table}_${op} AFTER ${op} ON ${table} BEGIN INSERT INTO test_writes VALUES ('${table}', '${op}'); END`);
    }
  }
  return {
    take() {
      const rows = connection.prepare('SELECT tbl, op, count(*) AS count FROM test_writes GROUP BY tbl, op').all() as Array<{ tbl: string; op: string; count: number }>;
      connection.exec('DELETE FROM test_writes');
      return Object.fromEntries(rows.map((row) => [`${row.tbl} ${row.op}`, row.count]));
    },
    close: () => connection.close(),
  };
}

function edit(repo: string, file: string, change: (text: string) => string): void {
  const target = path.join(repo, file);
  const text = readFileSync(target, 'utf8');
  const changed = change(text);
  expect(changed, `the edit of ${file} changes it`).not.toBe(text);
  writeFileSync(target, changed);
}

describe('a sync writes only the stored rows an edit changed', () => {
  let repo: string;
  let database: string;
  let live: LiveHandbook;
  let writes: ReturnType<typeof countWrites>;

  beforeAll(async () => {
    repo = path.join(scratchDirectory(), 'repo');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src/helper.ts'), 'export function helper(value: number): number {\n  return value * 2;\n}\n');
    writeFileSync(path.join(repo, LARGE), largeModule());
    writeFileSync(path.join(repo, 'src/main.ts'), "import { Store, step0 } from './pipeline';\n\nexport function main(): number {\n  return step0(new Store(), () => undefined);\n}\n");
    database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    live = await LiveHandbook.open(repo, { database });
    // The first sync of a process reads the store back; the edits below are a kept-open session's.
    edit(repo, LARGE, (text) => text.replace('  const base = helper(39)', '  const base = helper(39 + 1)'));
    await live.sync();
    writes = countWrites(database);
  });
  afterAll(() => {
    writes?.close();
    live?.close();
  });

  it('moves the units below a line added near the top of a large file, and rewrites only the edited function\'s rows', async () => {
    const graph = openHandbook(repo, { database }).graph.toData();
    const ofFile = (from: string): boolean => from === LARGE || from.startsWith(`${LARGE}#`);
    const fileEdges = graph.edges.filter((edge) => ofFile(edge.from)).length;
    const fileUnresolved = graph.unresolved.filter((call) => ofFile(call.from)).length;
    const edited = `${LARGE}#step1`;
    const editedEdges = graph.edges.filter((edge) => edge.from === edited).length;
    const editedUnresolved = graph.unresolved.filter((call) => call.from === edited).length;
    const below = graph.units.filter((unit) => unit.file === LARGE && unit.startLine > graph.units.find((other) => other.id === edited)!.startLine).length;
    expect(fileEdges, 'the file has many more edges than one function').toBeGreaterThan(10 * editedEdges);
    expect(editedUnresolved).toBeGreaterThan(0);
    expect(below).toBeGreaterThan(30);
    writes.take();

    // A line at the top of step1's body: every call in step1 and every unit below it moves down one line.
    edit(repo, LARGE, (text) => text.replace('  const base = helper(1) + store.bump();', '  const extra = helper(100);\n  const base = helper(1) + store.bump();'));
    const summary = await live.sync();
    expect(summary.fullRebuild).toBeUndefined();
    const written = writes.take();
    // Each unit below moves (its lines), step1 itself and the file unit change; none is deleted or inserted.
    expect(written['units INSERT'] ?? 0).toBe(0);
    expect(written['units DELETE'] ?? 0).toBe(0);
    expect(written['units UPDATE']).toBeGreaterThanOrEqual(below);
    expect(written['units UPDATE']).toBeLessThanOrEqual(below + 2);
    // step1's edges whose lines moved inside it, and its new call to the helper: nobody else's.
    const edgeWrites = (written['edges INSERT'] ?? 0) + (written['edges DELETE'] ?? 0);
    expect(edgeWrites).toBeGreaterThan(0);
    expect(edgeWrites).toBeLessThanOrEqual(2 * editedEdges + 1);
    expect(edgeWrites).toBeLessThan(fileEdges / 5);
    const unresolvedWrites = (written['unresolved INSERT'] ?? 0) + (written['unresolved DELETE'] ?? 0);
    expect(unresolvedWrites).toBeLessThanOrEqual(2 * editedUnresolved);
    expect(unresolvedWrites).toBeLessThan(fileUnresolved);
    await expectSameAsColdBuild(repo, database, 'a line added near the top of a large file');
  });

  it('writes nothing of the graph for an edit inside a line that moves no line and no edge', async () => {
    writes.take();
    edit(repo, LARGE, (text) => text.replace('helper(100)', 'helper(101)'));
    await live.sync();
    const written = writes.take();
    expect((written['edges INSERT'] ?? 0) + (written['edges DELETE'] ?? 0) + (written['unresolved INSERT'] ?? 0) + (written['unresolved DELETE'] ?? 0)).toBe(0);
    // step1's text and the file's bytes changed: their rows, no other.
    expect(written['units UPDATE']).toBe(2);
    await expectSameAsColdBuild(repo, database, 'an edit inside a line');
  });

  // Each edit, synced in the same kept-open session, must leave what a cold build of the tree stores.
  const edits: Array<{ name: string; apply: () => void }> = [
    { name: 'lines removed above most units', apply: () => edit(repo, LARGE, (text) => text.replace('  const extra = helper(101);\n', '')) },
    { name: 'a function added in the middle', apply: () => edit(repo, LARGE, (text) => text.replace('/** Step 20 of the pipeline. */', `${step(99, 'extraStep', 'step21')}\n/** Step 20 of the pipeline. */`)) },
    { name: 'a function removed, its caller calling on', apply: () => edit(repo, LARGE, (text) => text.replace(step(30), '').replace('step30(store, done)', 'step31(store, done)')) },
    { name: 'an edge added to a unit below the edit and one removed', apply: () => edit(repo, LARGE, (text) => text.replace('  const base = helper(35) + store.bump();', '  const base = helper(35);\n  store.value = 2;')) },
    { name: 'a function renamed with its caller', apply: () => edit(repo, LARGE, (text) => text.replaceAll('step10(', 'tenthStep(')) },
    { name: 'a method of the class grown, moving every function', apply: () => edit(repo, LARGE, (text) => text.replace('    this.value += 1;\n', '    this.value += 1;\n    this.value += 0;\n    this.value += 0;\n')) },
    {
      // Every function of the large file calls into it: each one's edges change their target.
      name: 'the file the large one imports renamed',
      apply: () => {
        mkdirSync(path.join(repo, 'src/util'));
        renameSync(path.join(repo, 'src/helper.ts'), path.join(repo, 'src/util/helper.ts'));
        edit(repo, LARGE, (text) => text.replace("'./helper'", "'./util/helper'"));
      },
    },
  ];

  it.each(edits.map((each, index) => [index + 1, each.name, each] as const))('edit %i, %s: the store equals a cold build', async (_index, name, each) => {
    each.apply();
    const summary = await live.sync();
    expect(summary.upToDate).toBe(false);
    expect(summary.fullRebuild).toBeUndefined();
    await expectSameAsColdBuild(repo, database, name);
  });
});
