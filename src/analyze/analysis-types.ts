import type { ProgramGraphData, SourceFileRecord, Unit } from '../graph/model.js';
import type { DiscoveryResult, SkippedFile } from './discover-files.js';
import type { DeclarationDigest, FileResolution } from './front-end.js';
import type { Language } from './languages.js';
import type { SettingsWarning } from './typescript/compiler-setup.js';

/** The analysis's vocabulary, the same for every language: what a build reports and a sync compares. */

export type AnalysisPhase = 'discover' | 'parse' | 'index' | 'resolve';

export interface AnalysisProgress {
  phase: AnalysisPhase;
  done: number;
  total: number;
}

export interface AnalyzeOptions {
  maxFileBytes?: number;
  /** Folders (relative to the root) to analyze instead of the whole root. */
  include?: string[];
  onProgress?: (progress: AnalysisProgress) => void;
}

export interface ParseWarning {
  file: string;
  line: number;
  message: string;
}

export interface AnalysisStatistics {
  files: number;
  skippedFiles: DiscoveryResult['skippedFiles'];
  skippedDirectories: DiscoveryResult['skippedDirectories'];
  tsconfigs: string[];
  callSites: number;
  resolvedCalls: number;
  parseWarnings: ParseWarning[];
  /** Tsconfigs and package manifests read with problems: paths and packages they declare may be missing. */
  settingsProblems: SettingsWarning[];
  /** Per language present: its files, its call sites and how their callees were found. */
  languages: LanguageStatistics[];
}

/** One language's share of an analysis. */
export interface LanguageStatistics {
  language: Language;
  files: number;
  callSites: number;
  /** Call sites tied to a unit of the repository: by the type checker (TypeScript), or by scope and imports. */
  resolvedCalls: number;
  /** Of those, the ones a type checker resolved; the rest were found by scope and imports, or by a name alone. */
  resolvedBy: { checker: number; scope: number; name: number };
}

export interface AnalysisResult {
  root: string;
  graph: ProgramGraphData;
  statistics: AnalysisStatistics;
}

/** One file's part of an analysis, as a re-sync needs it from the previous run (kept in memory, or read back from the store). */
export interface FileAnalysis {
  record: SourceFileRecord;
  units: readonly Unit[];
  digest: DeclarationDigest;
  /** Its edges (heritage edges excepted: those are recomputed for the whole tree every time), calls and state. */
  resolution: FileResolution;
}

/** What a refresh found and did. */
export interface AnalysisChange {
  added: string[];
  modified: string[];
  /** Files the analysis held and no longer does: deleted, or left out now (those are in `skipped` too). */
  removed: string[];
  /** Of the removed files, those still in the tree that discovery now leaves out (binary, over the size cap, ...), with why. */
  skipped: SkippedFile[];
  /** Files resolved again: the changed ones and those whose edges could depend on them. */
  resolved: number;
  /** Those files, sorted: with the changed ones, the only files whose part of the graph can differ. */
  resolvedPaths: string[];
  /** How many of them were resolved only in the unit an edit lay in, the rest of their records kept. */
  resolvedInPart: number;
  /** Why every file was resolved again, when it was. */
  fullReason?: string;
  /** The units of the modified and removed files as they were, and of the added and modified ones as they are: no other unit can differ. */
  unitsBefore: Unit[];
  unitsAfter: Unit[];
  /** Units in the whole analysis before the refresh. */
  unitCountBefore: number;
}


/** What one language's session reports of itself: its statistics and its first parse warnings, in file order. */
export interface LanguageReport {
  statistics: LanguageStatistics;
  warnings: ParseWarning[];
}
