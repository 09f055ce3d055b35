import type { AnalysisResult } from '../analyze/analyze-repository.js';
import type { OrganizedHandbook, Stager } from '../organize/model.js';
import { EDGE_KINDS, type EdgeKind, UNIT_KINDS, type UnitKind } from '../graph/model.js';
import { type Language, languageOfPath } from '../analyze/languages.js';

/** What the model did in an llm build: calls made, answers reused, and every answer thrown away. */
export interface ModelUse {
  model: string;
  calls: number;
  cachedUnits: number;
  fallbackUnits: number;
  fallbackSummaries: number;
  /** Behaviours the model did not name: they keep their offline names. */
  fallbackBehaviorNames: number;
  rejected: string[];
}

const REJECTIONS_KEPT = 20;

export interface BuildSummary {
  root: string;
  database: string;
  generation: number;
  commit: string | null;
  files: number;
  units: Record<UnitKind, number>;
  edges: Record<EdgeKind, number>;
  slots: number;
  calls: {
    sites: number;
    resolved: number;
    /** Calls into code outside the repository: packages, the standard library, Node. */
    external: number;
    /** Calls through a parameter, a local or a computed value. */
    dynamic: number;
    /** Calls whose callee the checker could not name at all. */
    unknown: number;
    /** resolved / (sites − external): the share of calls that could reach repository code and were tied to it. */
    resolvedShare: number;
  };
  /**
   * Per language read: files, call sites, and how the resolved ones were found (by the TypeScript
   * checker, by scope and imports, by a name alone) beside the unresolved ones by reason. Absent
   * from summaries stored before it was recorded.
   */
  languages?: LanguageSummary[];
  skipped: AnalysisResult['statistics']['skippedFiles'];
  skippedDirectories: AnalysisResult['statistics']['skippedDirectories'];
  tsconfigs: string[];
  parseWarnings: AnalysisResult['statistics']['parseWarnings'];
  /** Absent from summaries stored before it was recorded. */
  settingsProblems?: AnalysisResult['statistics']['settingsProblems'];
  /** How units were placed in stages; `offline` is the deterministic stager, never a model. */
  stager: Stager;
  stages: Array<{ id: string; name: string; members: number }>;
  assigned: number;
  unassigned: number;
  registerSlots: number;
  /** Time spent placing units in stages and building the register, within durationMs. */
  stagerMs: number;
  /** Present when a model placed the units. */
  model?: ModelUse;
  durationMs: number;
}

export interface LanguageSummary {
  language: Language;
  files: number;
  sites: number;
  resolved: number;
  resolvedBy: { checker: number; scope: number; name: number };
  external: number;
  dynamic: number;
  unknown: number;
}

export function summarize(
  analysis: AnalysisResult,
  handbook: OrganizedHandbook,
  details: { database: string; generation: number; commit: string | null; durationMs: number; stagerMs: number; model?: ModelUse },
  /** Edges per kind when the caller has counted them already (its program graph keeps edges by kind). */
  edgeCount?: (kind: EdgeKind) => number,
): BuildSummary {
  const units = Object.fromEntries(UNIT_KINDS.map((kind) => [kind, 0])) as Record<UnitKind, number>;
  for (const unit of analysis.graph.units) units[unit.kind] += 1;
  const edges = Object.fromEntries(EDGE_KINDS.map((kind) => [kind, edgeCount?.(kind) ?? 0])) as Record<EdgeKind, number>;
  if (!edgeCount) for (const edge of analysis.graph.edges) edges[edge.kind] += 1;
  const reasons = { external: 0, dynamic: 0, unknown: 0 };
  const reasonsByLanguage = new Map<Language, { external: number; dynamic: number; unknown: number }>();
  // Calls come in canonical order, a unit's together: its language is looked up once per unit, and the
  // reason is counted by comparison. A keyed count, or a file cut out of every call, cost a sync milliseconds.
  let lastFrom: string | undefined;
  let counted: { external: number; dynamic: number; unknown: number } | undefined;
  for (const call of analysis.graph.unresolved) {
    if (call.from !== lastFrom) {
      lastFrom = call.from;
      const hash = lastFrom.indexOf('#');
      const language = languageOfPath(hash < 0 ? lastFrom : lastFrom.slice(0, hash));
      counted = undefined;
      if (language) {
        counted = reasonsByLanguage.get(language);
        if (!counted) reasonsByLanguage.set(language, (counted = { external: 0, dynamic: 0, unknown: 0 }));
      }
    }
    const reason = call.reason;
    if (reason === 'external') {
      reasons.external += 1;
      if (counted) counted.external += 1;
    } else if (reason === 'dynamic') {
      reasons.dynamic += 1;
      if (counted) counted.dynamic += 1;
    } else {
      reasons.unknown += 1;
      if (counted) counted.unknown += 1;
    }
  }
  const languages = analysis.statistics.languages.map((language): LanguageSummary => ({
    language: language.language,
    files: language.files,
    sites: language.callSites,
    resolved: language.resolvedCalls,
    resolvedBy: language.resolvedBy,
    ...(reasonsByLanguage.get(language.language) ?? { external: 0, dynamic: 0, unknown: 0 }),
  }));
  const { callSites, resolvedCalls } = analysis.statistics;
  const reachable = callSites - reasons.external;
  return {
    root: analysis.root,
    database: details.database,
    generation: details.generation,
    commit: details.commit,
    files: analysis.statistics.files,
    units,
    edges,
    slots: analysis.graph.slots.length,
    calls: {
      sites: callSites,
      resolved: resolvedCalls,
      ...reasons,
      resolvedShare: reachable > 0 ? Math.round((resolvedCalls / reachable) * 1000) / 1000 : 1,
    },
    languages,
    skipped: analysis.statistics.skippedFiles,
    skippedDirectories: analysis.statistics.skippedDirectories,
    tsconfigs: analysis.statistics.tsconfigs,
    parseWarnings: analysis.statistics.parseWarnings,
    settingsProblems: analysis.statistics.settingsProblems,
    stager: handbook.stager,
    stages: handbook.overview.stages.map((stage) => ({ id: stage.id, name: stage.name, members: stage.members })),
    assigned: handbook.overview.counts.assigned,
    unassigned: handbook.overview.counts.unassigned,
    registerSlots: handbook.overview.counts.registerSlots,
    stagerMs: details.stagerMs,
    ...(details.model ? { model: { ...details.model, rejected: details.model.rejected.slice(0, REJECTIONS_KEPT) } } : {}),
    durationMs: details.durationMs,
  };
}
