import type { AnalysisProgress } from '../analyze/analyze-repository.js';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import type { OrganizedHandbook } from '../organize/model.js';
import { assignStagesOffline } from '../organize/offline-stager.js';
import { organizeHandbook } from '../organize/organize-handbook.js';
import { describeProject } from '../organize/overview.js';
import { loadSkeleton } from '../organize/skeleton.js';
import { searchTermsOf } from '../route/search-index.js';
import { writeGeneration } from '../store/generations.js';
import { DatabaseModelCache } from '../store/model-cache-table.js';
import { databasePathFor, openDatabase } from '../store/open-database.js';
import { type BuildSummary, type ModelUse, summarize } from './build-summary.js';
import { currentCommit } from './git-commit.js';

export type BuildProgress = AnalysisProgress | { phase: 'organize' | 'write'; done: number; total: number };

export interface BuildOptions {
  /** Where the database lives; `<root>/.handbook/handbook.db` by default. */
  database?: string;
  maxFileBytes?: number;
  /** Folders (relative to the repository) to analyze instead of all of it. */
  include?: string[];
  /** A skeleton file (`--skeleton stages.json`) that replaces or extends the built-in stages. */
  skeleton?: string;
  /** `offline` (default) or a model spec: `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL@URL`. */
  model?: string;
  /** Keys, base URL and retry settings for the model provider; the environment by default. */
  provider?: CreateProviderOptions;
  onProgress?: (progress: BuildProgress) => void;
}

/**
 * Analyzes the repository, places its units in stages and stores the result as the handbook's
 * new current generation. The previous generation stays readable until the new one is complete.
 */
export async function buildHandbook(root: string, options: BuildOptions = {}): Promise<BuildSummary> {
  const started = performance.now();
  const absoluteRoot = assertRepositoryRoot(root);
  const skeleton = loadSkeleton(options.skeleton);
  // A missing key is reported before any work is done.
  // The compiler and the model SDKs load only for a build, and the SDKs only for a model: a query never pays for them.
  const provider: ChatProvider | undefined =
    options.model && options.model !== 'offline' ? (await import('../llm/create-provider.js')).createProvider(options.model, options.provider) : undefined;
  const { analyzeRepository } = await import('../analyze/analyze-repository.js');
  const analysis = analyzeRepository(absoluteRoot, {
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    ...(options.include ? { include: options.include } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const databasePath = databasePathFor(absoluteRoot, options.database);
  const commit = currentCommit(absoluteRoot);
  const database = openDatabase(databasePath, { create: true });
  try {
    const organizeStarted = performance.now();
    options.onProgress?.({ phase: 'organize', done: 0, total: 1 });
    const graph = new ProgramGraph(analysis.graph);
    const offline = assignStagesOffline(graph, skeleton);
    const project = describeProject(absoluteRoot);
    let handbook: OrganizedHandbook;
    let modelUse: ModelUse | undefined;
    if (!provider) {
      handbook = organizeHandbook(graph, skeleton, offline, { kind: 'offline' }, project).handbook;
    } else {
      const { assignStagesWithModel } = await import('../organize/llm-stager.js');
      const { summarizeStagesWithModel } = await import('../organize/llm-summaries.js');
      const { proposeStages } = await import('../organize/llm-stage-proposal.js');
      const cache = new DatabaseModelCache(database);
      const proposal = await proposeStages(graph, skeleton, project, provider, cache);
      const stages = proposal.skeleton;
      const report = await assignStagesWithModel(graph, stages, offline, {
        provider,
        cache,
        onProgress: (done, total) => options.onProgress?.({ phase: 'organize', done, total }),
      });
      handbook = organizeHandbook(graph, stages, report.assignments, { kind: 'llm', model: provider.id, fallbackUnits: report.fallbackUnits }, project).handbook;
      const summaries = await summarizeStagesWithModel(graph, handbook.stages, provider, cache);
      modelUse = {
        model: provider.id,
        calls: proposal.modelCalls + report.modelCalls + summaries.modelCalls,
        cachedUnits: report.cachedUnits,
        fallbackUnits: report.fallbackUnits,
        fallbackSummaries: summaries.fallbackStages,
        rejected: [...proposal.rejected, ...report.rejected, ...summaries.rejected],
      };
    }
    const stagerMs = Math.round(performance.now() - organizeStarted);
    options.onProgress?.({ phase: 'write', done: 0, total: 1 });
    let summary: BuildSummary | undefined;
    const searchTerms = new Map(graph.codeUnits().map((unit) => [unit.id, JSON.stringify(searchTermsOf(unit))]));
    writeGeneration(database, analysis.graph, handbook, searchTerms, {
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
          ...(modelUse ? { model: modelUse } : {}),
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
