import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { syncHandbook } from '../../src/api/live-handbook.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import * as generations from '../../src/store/generations.js';
import { openDatabase } from '../../src/store/open-database.js';
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

/** Writes the current handbook again as a new generation, from a connection of its own, as a concurrent build does. */
function replaceGeneration(file: string): void {
  const writer = openDatabase(file, 'create');
  try {
    const current = generations.currentGenerationOrThrow(writer);
    generations.writeGeneration(
      writer,
      generations.readGraph(writer, current.id),
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
