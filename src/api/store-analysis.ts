import type { AnalysisProgress, AnalysisSession } from '../analyze/analysis-session.js';
import { unitContentKey } from '../graph/content-hash.js';
import type { ProgramGraphData } from '../graph/model.js';
import { ProgramGraph } from '../graph/program-graph.js';
import type { ChatProvider } from '../llm/chat-types.js';
import type { Behavior, OrganizedHandbook } from '../organize/model.js';
import { assignStagesOffline, UnitTermCache } from '../organize/offline-stager.js';
import { organizeHandbook, type OrganizeRun } from '../organize/organize-handbook.js';
import { describeProject } from '../organize/overview.js';
import { searchTermsOf } from '../route/search-index.js';
import { type FileDetails, type GenerationUpdate, type StoredRows, updateGeneration, writeGeneration } from '../store/generations.js';
import { DatabaseModelCache } from '../store/model-cache-table.js';
import type { HandbookDatabase } from '../store/open-database.js';
import { type BuildSummary, type ModelUse, summarize } from './build-summary.js';
import type { HandbookSettings } from './handbook-settings.js';

export type BuildProgress = AnalysisProgress | { phase: 'organize' | 'write'; done: number; total: number };

/**
 * What stays valid between stores of the same repository in one process (watch): per-unit
 * words and search terms, keyed by unit content hash, so a re-sync recomputes them only for
 * units that changed.
 */
export class DerivedUnitCache {
  readonly stagerTerms = new UnitTermCache();
  /** The last offline organizing run, which the next keeps when the structure it read is unchanged. */
  organized: OrganizeRun | undefined;
  /** The stored handbook's behaviours and their keys, for a process's first organizing run (no run before it to keep from). */
  storedBehaviors: ReadonlyMap<string, { key: string; behaviors: Behavior[] }> | undefined;
  private readonly searchTerms = new Map<string, { key: string; terms: string }>();

  searchTermsOf(unit: Parameters<typeof searchTermsOf>[0]): string {
    const key = unitContentKey(unit);
    const cached = this.searchTerms.get(unit.id);
    if (cached?.key === key) return cached.terms;
    const terms = JSON.stringify(searchTermsOf(unit));
    this.searchTerms.set(unit.id, { key, terms });
    return terms;
  }

  retainOnly(ids: ReadonlySet<string>): void {
    this.stagerTerms.retainOnly(ids);
    for (const id of this.searchTerms.keys()) if (!ids.has(id)) this.searchTerms.delete(id);
  }
}

export interface StoreAnalysisInput {
  database: HandbookDatabase;
  databasePath: string;
  session: AnalysisSession;
  settings: HandbookSettings;
  commit: string | null;
  /** The model that places units, when the settings name one. */
  provider?: ChatProvider;
  cache?: DerivedUnitCache;
  /** When the work began, for the summary's duration. */
  started: number;
  /** Update this generation in place, replacing only these rows, instead of writing a new one. */
  update?: Omit<GenerationUpdate, 'rows'> & { generation: number };
  onProgress?: (progress: BuildProgress) => void;
  /**
   * Throws when the database is no longer at its path. Called just before the write: model calls
   * can take minutes, and a connection to a deleted file would store into a file nobody reads.
   */
  assertInPlace?: () => void;
}

/**
 * Places the analyzed units in stages (offline, or with the model) and stores graph and
 * handbook as the database's new current generation. Build, sync and watch all end here, so a
 * synced handbook is stored exactly as a built one.
 */
export interface StoredAnalysis {
  summary: BuildSummary;
  graph: ProgramGraphData;
  handbook: OrganizedHandbook;
  /** The whole-tree rows as written, for the next update to diff against. */
  rows: StoredRows;
  /** Other connections' commits as counted when this was written: the store still holds it while the count stands. */
  foreignWrites: number;
}

/**
 * Fills what a kept-open handbook's next sync reads from its cache (each unit's words and stage
 * scores, the last organizing run) from an analysis the store already holds, writing nothing.
 * The cache is otherwise filled by the first sync that changes something, which then places
 * every unit from scratch: on a 600-file tree a first save after `watch` starts took over a
 * second where the next took a tenth of that. Offline only: a model's placements are not redone.
 */
export function warmDerivedCache(session: AnalysisSession, settings: HandbookSettings, cache: DerivedUnitCache): void {
  const graph = new ProgramGraph(session.result().graph);
  organizeOffline(graph, settings, placeOffline(graph, settings, cache), describeProject(session.root), cache);
}

/** Each code unit's offline stage, from the words the cache keeps for units whose content stands (the cache forgets units that are gone). */
function placeOffline(graph: ProgramGraph, settings: HandbookSettings, cache: DerivedUnitCache): ReturnType<typeof assignStagesOffline> {
  cache.retainOnly(new Set(graph.codeUnits().map((unit) => unit.id)));
  return assignStagesOffline(graph, settings.skeleton, cache.stagerTerms);
}

/** The offline handbook from those stages; the cache keeps the run, so the next sync reuses what did not move. */
function organizeOffline(
  graph: ProgramGraph,
  settings: HandbookSettings,
  offline: ReturnType<typeof assignStagesOffline>,
  project: ReturnType<typeof describeProject>,
  cache: DerivedUnitCache,
  registerChange?: Parameters<typeof organizeHandbook>[7],
): OrganizedHandbook {
  const organized = organizeHandbook(graph, settings.skeleton, offline, { kind: 'offline' }, project, cache.organized, cache.storedBehaviors, registerChange);
  cache.organized = organized.run;
  return organized.handbook;
}

export async function storeAnalysis(input: StoreAnalysisInput): Promise<StoredAnalysis> {
  const { database, session, settings, provider } = input;
  const analysis = session.result();
  const cache = input.cache ?? new DerivedUnitCache();
  const organizeStarted = performance.now();
  input.onProgress?.({ phase: 'organize', done: 0, total: 1 });
  const graph = new ProgramGraph(analysis.graph);
  const codeUnits = graph.codeUnits();
  const offline = placeOffline(graph, settings, cache);
  const project = describeProject(session.root);
  let handbook: OrganizedHandbook;
  let modelUse: ModelUse | undefined;
  // The replaced files' rows: what an in-place update writes, and what the register is updated from.
  const rows = session.rowsOfFiles(input.update?.replaceFiles ?? []);
  if (!provider) {
    // Only over the generation this cache's last run wrote (`stored` says nobody wrote since) is the change relative to that run's graph.
    const registerChange = input.update?.stored ? { files: input.update.replaceFiles, edges: rows.edges } : undefined;
    handbook = organizeOffline(graph, settings, offline, project, cache, registerChange);
  } else {
    const { assignStagesWithModel } = await import('../organize/llm-stager.js');
    const { summarizeStagesWithModel } = await import('../organize/llm-summaries.js');
    const { proposeStages } = await import('../organize/llm-stage-proposal.js');
    const { stopAfterOutage } = await import('../llm/outage-stop.js');
    const modelCache = new DatabaseModelCache(database);
    // Per analysis, not per provider: a watch that outlives an outage asks again at its next sync.
    const model = stopAfterOutage(provider);
    const proposal = await proposeStages(graph, settings.skeleton, project, model, modelCache);
    const report = await assignStagesWithModel(graph, proposal.skeleton, offline, {
      provider: model,
      cache: modelCache,
      onProgress: (done, total) => input.onProgress?.({ phase: 'organize', done, total }),
    });
    handbook = organizeHandbook(graph, proposal.skeleton, report.assignments, { kind: 'llm', model: provider.id, fallbackUnits: report.fallbackUnits }, project).handbook;
    const summaries = await summarizeStagesWithModel(graph, handbook.stages, model, modelCache);
    const { nameBehaviorsWithModel } = await import('../organize/llm-behavior-names.js');
    const names = await nameBehaviorsWithModel(graph, handbook.stages, model, modelCache);
    modelUse = {
      model: provider.id,
      // The stagers count every call they start; those the outage stop answered at once never reached the model.
      calls: proposal.modelCalls + report.modelCalls + summaries.modelCalls + names.modelCalls - model.notAsked,
      cachedUnits: report.cachedUnits,
      fallbackUnits: report.fallbackUnits,
      fallbackSummaries: summaries.fallbackStages,
      fallbackBehaviorNames: names.fallbackBehaviors,
      rejected: [...proposal.rejected, ...report.rejected, ...summaries.rejected, ...names.rejected],
    };
  }
  const stagerMs = Math.round(performance.now() - organizeStarted);
  input.onProgress?.({ phase: 'write', done: 0, total: 1 });
  // An update rewrites only the terms of units that changed; a new process need not tokenize the rest.
  const searchTerms = new Map(codeUnits.filter((unit) => !input.update || input.update.replaceTerms.has(unit.id)).map((unit) => [unit.id, cache.searchTermsOf(unit)]));
  const files = new Map<string, FileDetails>(
    [...session.fileAnalyses()].map(([path, file]) => [path, {
      declarations: file.digest, callSites: file.resolution.callSites, resolvedCalls: file.resolution.resolvedCalls,
      ...(file.resolution.resolvedCallLines ? { resolvedCallLines: file.resolution.resolvedCallLines } : {}),
    }]),
  );
  let summary: BuildSummary | undefined;
  const details = {
    root: session.root,
    commit: input.commit,
    createdAt: new Date().toISOString(),
    settings,
    files,
    ...(cache.organized && !provider ? { behaviorKeys: new Map([...cache.organized.behaviorsOf].map(([stage, { key }]) => [stage, key])) } : {}),
    summary: (generation: number) => {
      summary = summarize(analysis, handbook, {
        database: input.databasePath,
        generation,
        commit: input.commit,
        durationMs: Math.round(performance.now() - input.started),
        stagerMs,
        ...(modelUse ? { model: modelUse } : {}),
      }, (kind) => graph.edgeCount(kind));
      return summary;
    },
  };
  input.assertInPlace?.();
  const written = input.update
    ? updateGeneration(database, input.update.generation, analysis.graph, handbook, searchTerms, { ...input.update, rows }, details)
    : writeGeneration(database, analysis.graph, handbook, searchTerms, details);
  input.onProgress?.({ phase: 'write', done: 1, total: 1 });
  return { summary: summary!, graph: analysis.graph, handbook, rows: { slots: analysis.graph.slots, heritage: rows.heritage, organized: handbook }, foreignWrites: written.foreignWrites };
}
