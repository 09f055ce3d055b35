import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook, syncHandbook } from '../../src/index.js';
import { HandbookError } from '../../src/errors.js';
import { currentGenerationOrThrow, readGraph } from '../../src/store/generations.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { handbookContent } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

/** The schema before lines were stored relative to their unit, and units carried their rows' digest. */
const ABSOLUTE_LINES_SCHEMA = 10;

/** Rewrites a handbook as schema 10 wrote it: every line counted from the top of its file, no digests. */
function asAbsoluteLinesHandbook(database: string): void {
  const connection = new Database(database);
  try {
    const graph = readGraph(connection, currentGenerationOrThrow(connection).id);
    const generation = currentGenerationOrThrow(connection).id;
    connection.transaction(() => {
      connection.exec('DELETE FROM edges; DELETE FROM unresolved; ALTER TABLE units DROP COLUMN rows_digest;');
      const edge = connection.prepare('INSERT INTO edges (generation, kind, source, target, lines, via, resolution) VALUES (?, ?, ?, ?, ?, ?, ?)');
      for (const each of graph.edges) edge.run(generation, each.kind, each.from, each.to, JSON.stringify(each.lines), each.via ?? null, each.resolution ?? null);
      const call = connection.prepare('INSERT INTO unresolved (generation, source, text, line, reason) VALUES (?, ?, ?, ?, ?)');
      for (const each of graph.unresolved) call.run(generation, each.from, each.text, each.line, each.reason);
    })();
    connection.pragma(`user_version = ${ABSOLUTE_LINES_SCHEMA}`);
  } finally {
    connection.close();
  }
}

function refusal(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return HandbookError.isInstance(error) ? error.code : String(error);
  }
  return undefined;
}

describe('a handbook stored with absolute lines (schema 10)', () => {
  it('is migrated in place by the next sync: its lines read back as they were, and a sync after an edit equals a cold build', async () => {
    expect(SCHEMA_VERSION).toBe(ABSOLUTE_LINES_SCHEMA + 1);
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const built = handbookContent(repo, database);
    const graph = built.graph as { edges: Array<{ lines: number[] }>; unresolved: unknown[] };
    expect(graph.edges.some((edge) => edge.lines.some((line) => line > 1)), 'edges below the first line').toBe(true);
    expect(graph.unresolved.length).toBeGreaterThan(0);
    asAbsoluteLinesHandbook(database);

    // A reader does not migrate: it is told to build, never shown lines it would misread.
    expect(refusal(() => openHandbook(repo, { database }))).toBe('NO_HANDBOOK');
    expect((await syncHandbook(repo, { database })).upToDate).toBe(true);
    expect(handbookContent(repo, database)).toEqual(built);

    // Units migrated carry no digest of their rows: the first update of their file reads those back and rewrites what moved.
    const file = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(file, `// a line above everything\n${readFileSync(file, 'utf8').replace('if (value.length <= 12) return REDACTED;', 'if (value.length <= 16) return REDACTED;\n  if (value.startsWith("x")) return maskSecrets(value);')}`);
    expect((await syncHandbook(repo, { database })).upToDate).toBe(false);
    const cold = path.join(scratchDirectory('handbook-cold-'), 'handbook.db');
    try {
      await buildHandbook(repo, { database: cold });
      expect(JSON.stringify(handbookContent(repo, database))).toBe(JSON.stringify(handbookContent(repo, cold)));
    } finally {
      rmSync(path.dirname(cold), { recursive: true, force: true });
    }
  });
});
