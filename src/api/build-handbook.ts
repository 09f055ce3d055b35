import { analyzeRepository, type AnalysisProgress, assertRepositoryRoot } from '../analyze/analyze-repository.js';
import { openDatabase, databasePathFor } from '../store/open-database.js';
import { writeGeneration } from '../store/generations.js';
import { currentCommit } from './git-commit.js';
import { type BuildSummary, summarize } from './build-summary.js';

export type BuildProgress = AnalysisProgress | { phase: 'write'; done: number; total: number };

export interface BuildOptions {
  /** Where the database lives; `<root>/.handbook/handbook.db` by default. */
  database?: string;
  maxFileBytes?: number;
  onProgress?: (progress: BuildProgress) => void;
}

/**
 * Analyzes the repository and stores the result as the handbook's new current generation.
 * The previous generation stays readable until the new one is complete.
 */
export function buildHandbook(root: string, options: BuildOptions = {}): BuildSummary {
  const started = performance.now();
  const absoluteRoot = assertRepositoryRoot(root);
  const analysis = analyzeRepository(absoluteRoot, {
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const databasePath = databasePathFor(absoluteRoot, options.database);
  const commit = currentCommit(absoluteRoot);
  options.onProgress?.({ phase: 'write', done: 0, total: 1 });
  const database = openDatabase(databasePath, { create: true });
  try {
    let summary: BuildSummary | undefined;
    writeGeneration(database, analysis.graph, {
      root: absoluteRoot,
      commit,
      createdAt: new Date().toISOString(),
      summary: (generation) => {
        summary = summarize(analysis, {
          database: databasePath,
          generation,
          commit,
          durationMs: Math.round(performance.now() - started),
        });
        return summary;
      },
    });
    options.onProgress?.({ phase: 'write', done: 1, total: 1 });
    return summary!;
  } finally {
    database.close();
  }
}
