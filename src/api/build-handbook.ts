import { analyzeRepository, type AnalysisProgress, assertRepositoryRoot } from '../analyze/analyze-repository.js';
import { openDatabase, databasePathFor } from '../store/open-database.js';
import { writeGeneration } from '../store/generations.js';
import { ProgramGraph } from '../graph/program-graph.js';
import { loadSkeleton } from '../organize/skeleton.js';
import { organizeOffline } from '../organize/stage-repository.js';
import { currentCommit } from './git-commit.js';
import { type BuildSummary, summarize } from './build-summary.js';

export type BuildProgress = AnalysisProgress | { phase: 'organize' | 'write'; done: number; total: number };

export interface BuildOptions {
  /** Where the database lives; `<root>/.handbook/handbook.db` by default. */
  database?: string;
  maxFileBytes?: number;
  /** Folders (relative to the repository) to analyze instead of all of it. */
  include?: string[];
  /** A skeleton file (`--skeleton stages.json`) that replaces or extends the built-in stages. */
  skeleton?: string;
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
    ...(options.include ? { include: options.include } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const skeleton = loadSkeleton(options.skeleton);
  options.onProgress?.({ phase: 'organize', done: 0, total: 1 });
  const organizeStarted = performance.now();
  const graph = new ProgramGraph(analysis.graph);
  const { handbook } = organizeOffline(graph, skeleton, absoluteRoot);
  const stagerMs = Math.round(performance.now() - organizeStarted);
  options.onProgress?.({ phase: 'organize', done: 1, total: 1 });
  const databasePath = databasePathFor(absoluteRoot, options.database);
  const commit = currentCommit(absoluteRoot);
  options.onProgress?.({ phase: 'write', done: 0, total: 1 });
  const database = openDatabase(databasePath, { create: true });
  try {
    let summary: BuildSummary | undefined;
    writeGeneration(database, analysis.graph, handbook, {
      root: absoluteRoot,
      commit,
      createdAt: new Date().toISOString(),
      summary: (generation) => {
        summary = summarize(analysis, handbook, {
          database: databasePath,
          generation,
          commit,
          durationMs: Math.round(performance.now() - started),
          stagerMs,
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
