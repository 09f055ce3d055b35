import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { handbookStatus } from '../../src/api/handbook-status.js';
import { syncHandbook } from '../../src/api/live-handbook.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import * as generations from '../../src/store/generations.js';
import { openDatabase } from '../../src/store/open-database.js';
import type { ProgramGraphData } from '../../src/graph/model.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

/**
 * A build in another process, made deterministic: after a reader's first read of a generation's
 * rows, another connection writes a new generation and deletes the one being read.
 */
const interleave = vi.hoisted(() => ({ afterFirstRead: undefined as (() => void) | undefined }));

vi.mock('../../src/store/generations.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/store/generations.js')>();
  const thenInterleave = <A extends unknown[], R>(read: (...args: A) => R) => (...args: A): R => {
    const result = read(...args);
    const write = interleave.afterFirstRead;
    interleave.afterFirstRead = undefined;
    write?.();
    return result;
  };
  return { ...actual, readGraph: thenInterleave(actual.readGraph), readPriorAnalysis: thenInterleave(actual.readPriorAnalysis) };
});

vi.mock('../../src/store/stored-locations.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/store/stored-locations.js')>();
  return {
    ...actual,
    readFileHashes: (...args: Parameters<typeof actual.readFileHashes>) => {
      const result = actual.readFileHashes(...args);
      const write = interleave.afterFirstRead;
      interleave.afterFirstRead = undefined;
      write?.();
      return result;
    },
  };
});

/** Writes the current handbook again as a new generation, from a connection of its own, as a concurrent build does. */
function replaceGeneration(file: string, edit = (graph: ProgramGraphData): ProgramGraphData => graph): void {
  const writer = openDatabase(file, 'create');
  try {
    const current = generations.currentGenerationOrThrow(writer);
    generations.writeGeneration(
      writer,
      edit(generations.readGraph(writer, current.id)),
      generations.readOrganized(writer, current.id),
      generations.readSearchTerms(writer, current.id),
      { root: current.root, commit: current.commit, createdAt: new Date().toISOString(), settings: current.settings, files: new Map(), summary: () => current.summary },
    );
  } finally {
    writer.close();
  }
}

function storedGenerations(file: string): number[] {
  const connection = new Database(file, { readonly: true });
  try {
    return (connection.prepare('SELECT DISTINCT generation FROM stages ORDER BY generation').all() as Array<{ generation: number }>).map((row) => row.generation);
  } finally {
    connection.close();
  }
}

describe('a reader sees one generation whole while a build replaces it', () => {
  it('openHandbook reads the generation it started with, though a build switched away from it and deleted it mid-read', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    const built = await buildHandbook(repo, { database });
    const before = openHandbook(repo, { database });
    interleave.afterFirstRead = () => replaceGeneration(database);
    const during = openHandbook(repo, { database });
    expect(interleave.afterFirstRead).toBeUndefined();
    const [replacement] = storedGenerations(database);
    expect(replacement).toBeGreaterThan(built.generation);
    expect(during.generation.id).toBe(built.generation);
    expect(during.graph.toData()).toEqual(before.graph.toData());
    expect(during.organized).toEqual(before.organized);
    expect(openHandbook(repo, { database }).generation.id).toBe(replacement);
  });

  // Status reads a file's units only once it found the file changed: still within the read of its files.
  it('status checks the entries of the generation whose files it read, though a build replaced it mid-read', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    rmSync(path.join(repo, 'src/hooks.ts'));
    // The new generation no longer holds the deleted file: read from it, its units would not be checked at all.
    interleave.afterFirstRead = () =>
      replaceGeneration(database, (graph) => ({
        ...graph,
        files: graph.files.filter((file) => file.path !== 'src/hooks.ts'),
        units: graph.units.filter((unit) => unit.file !== 'src/hooks.ts'),
        edges: [],
      }));
    const report = await handbookStatus(repo, { database });
    expect(interleave.afterFirstRead).toBeUndefined();
    expect(report.counts).toEqual({ fresh: 165 - 6, changed: 0, moved: 0, frozen: 6 });
    expect(report.frozen.every((entry) => entry.unit.startsWith('src/hooks.ts#'))).toBe(true);
  });

  it('a sync reads the stored analysis and stages of one generation, though a build replaced it mid-read', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    interleave.afterFirstRead = () => replaceGeneration(database);
    const synced = await syncHandbook(repo, { database });
    expect(interleave.afterFirstRead).toBeUndefined();
    expect(synced.upToDate).toBe(true);
  });
});
