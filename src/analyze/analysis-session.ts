import type { Edge, ProgramGraphData, SourceFileRecord, Unit, UnresolvedCall } from '../graph/model.js';
import { compareEdges, compareText } from '../graph/order.js';
import type { AnalysisChange, AnalysisResult, AnalysisStatistics, AnalyzeOptions, FileAnalysis, LanguageReport, ParseWarning } from './analysis-types.js';
import { type ContentVerdict, discoverFiles, type DiscoveryResult, type FolderListings } from './discover-files.js';
import { type Language, languageOfPath } from './languages.js';
import { nothingToAnalyze } from './nothing-to-analyze.js';
import type { SettingsInputs } from './settings-inputs.js';
import { emptyGraph, mergeGraphs } from './graph-assembly.js';
import { SyntaxSession } from './syntax/syntax-session.js';
import { SYNTAX_FRONT_ENDS } from './syntax-front-ends.js';
import { type Discover, TypeScriptSession } from './typescript/typescript-session.js';

/** One walk of the tree: what discovery found, and its files by language. */
interface Walk {
  discovery: DiscoveryResult;
  byLanguage: Map<Language, DiscoveryResult['files']>;
}

type Walker = (outDirectories: string[]) => Walk;

export type { AnalysisChange, AnalysisPhase, AnalysisProgress, AnalysisResult, AnalysisStatistics, AnalyzeOptions, FileAnalysis, ParseWarning } from './analysis-types.js';

const MAX_WARNINGS = 50;

/** What a session started from the store is handed: the stored analysis and the compiler settings it ran with. */
export interface PreviousAnalysis {
  files: ReadonlyMap<string, FileAnalysis>;
  heritage: readonly Edge[];
  compiler: string;
}

/**
 * Static analysis of a repository of one language or several into one program graph, kept warm
 * for the next change: no model calls, nothing written to disk. The tree is walked once; each
 * language's files go to its own session (TypeScript and JavaScript to the type-checked one,
 * others to a session over their syntax front end), and their graphs are merged in canonical
 * order. A language with no files costs nothing: its session starts with its first file.
 */
export class AnalysisSession {
  private typescript: TypeScriptSession;
  /** Whether the TypeScript session has analyzed: it has, once the tree held TypeScript or JavaScript. */
  private typescriptStarted = false;
  private readonly syntax = new Map<Language, SyntaxSession>();
  private discovery: DiscoveryResult | undefined;
  private verdicts: ReadonlyMap<string, ContentVerdict> | undefined;
  private readonly folderListings: FolderListings = new Map();

  private constructor(
    readonly root: string,
    private readonly options: AnalyzeOptions,
  ) {
    this.typescript = TypeScriptSession.create(root, options);
  }

  /**
   * Analyzes the tree; with `previous` (an analysis read from the store and the compiler settings
   * it ran with), resolves again only what changed since.
   */
  static open(root: string, options: AnalyzeOptions = {}, previous?: PreviousAnalysis): { session: AnalysisSession; change: AnalysisChange } {
    const session = new AnalysisSession(root, options);
    const byLanguage = previous ? splitPrevious(previous) : undefined;
    const walk = session.walker();
    const parts: AnalysisChange[] = [];
    const typescriptPrevious = byLanguage?.get('typescript');
    if (session.hasTypeScript(walk, typescriptPrevious)) {
      parts.push(session.typescript.start(typescriptFiles(walk), previous && { ...previous, files: typescriptPrevious?.files ?? new Map(), heritage: typescriptPrevious?.heritage ?? [] }));
      session.typescriptStarted = true;
    }
    parts.push(...session.refreshSyntax(walk(session.typescript.outDirectories), byLanguage, previous ? undefined : 'first analysis'));
    return { session, change: mergeChanges(parts) };
  }

  /** Brings the analysis up to date with the tree; `full` resolves every file again (and says why). */
  refresh(full?: string): AnalysisChange {
    const walk = this.walker();
    const parts: AnalysisChange[] = [];
    if (this.typescriptStarted) parts.push(this.typescript.refresh(typescriptFiles(walk), full));
    else {
      // Not started: its settings are read again (a tsconfig may have come), and it starts with the first TypeScript file.
      this.typescript = TypeScriptSession.create(this.root, this.options);
      if (this.hasTypeScript(walk, undefined)) {
        parts.push(this.typescript.start(typescriptFiles(walk)));
        this.typescriptStarted = true;
      }
    }
    parts.push(...this.refreshSyntax(walk(this.typescript.outDirectories), undefined, full));
    return mergeChanges(parts);
  }

  /** One walk of the tree per refresh, whoever asks first: the TypeScript session asks with its build-output folders. */
  private walker(): Walker {
    let walked: Walk | undefined;
    return (outDirectories) => {
      if (walked) return walked;
      this.options.onProgress?.({ phase: 'discover', done: 0, total: 0 });
      const discovery = discoverFiles(this.root, {
        ...(this.options.maxFileBytes === undefined ? {} : { maxFileBytes: this.options.maxFileBytes }),
        ...(this.options.include ? { include: this.options.include } : {}),
        buildOutputDirectories: outDirectories,
        ...(this.verdicts ? { verdicts: this.verdicts } : {}),
        listings: this.folderListings,
      });
      if (discovery.files.length === 0) throw nothingToAnalyze(this.root, this.options, discovery);
      const byLanguage = new Map<Language, DiscoveryResult['files']>();
      for (const file of discovery.files) {
        const language = languageOfPath(file.path);
        if (!language) continue;
        const list = byLanguage.get(language);
        if (list) list.push(file);
        else byLanguage.set(language, [file]);
      }
      this.discovery = discovery;
      this.verdicts = discovery.verdicts;
      walked = { discovery, byLanguage };
      return walked;
    };
  }

  /** Whether the tree holds TypeScript or JavaScript now, or the stored analysis did. */
  private hasTypeScript(walk: Walker, previous: PreviousPart | undefined): boolean {
    if (previous && previous.files.size > 0) return true;
    return (walk(this.typescript.outDirectories).byLanguage.get('typescript')?.length ?? 0) > 0;
  }

  private refreshSyntax(walked: Walk, previous: Map<Language, PreviousPart> | undefined, full: string | undefined): AnalysisChange[] {
    const changes: AnalysisChange[] = [];
    for (const [language, frontEnd] of SYNTAX_FRONT_ENDS) {
      const files = walked.byLanguage.get(language) ?? [];
      const stored = previous?.get(language);
      let session = this.syntax.get(language);
      if (!session) {
        if (files.length === 0 && !stored?.files.size) continue;
        session = new SyntaxSession(frontEnd, this.options.onProgress);
        this.syntax.set(language, session);
      }
      changes.push(session.refresh({ discovery: walked.discovery, files }, stored?.files, full));
    }
    return changes;
  }

  /** Compiler settings as analyzed: a re-sync from the store starts over when they differ. */
  get settings(): string {
    return this.typescript.settings;
  }

  /** What the compiler settings were read from, stored beside them. */
  get settingsInputs(): SettingsInputs {
    return this.typescript.settingsInputs;
  }

  /** Build-output folders the tsconfigs name, which discovery leaves out. */
  get outDirectories(): string[] {
    return this.typescript.outDirectories;
  }

  /** The files the compiler settings were read from, absolute: an edit to any of them is a change though none is source. */
  get settingsFiles(): readonly string[] {
    return this.typescript.settingsFiles;
  }

  /** Every file's analysis: for the store, and as the previous state of the next refresh. */
  fileAnalyses(): Map<string, FileAnalysis> {
    const all = this.typescriptStarted ? this.typescript.fileAnalyses() : new Map<string, FileAnalysis>();
    for (const session of this.syntax.values()) for (const [path, analysis] of session.fileAnalyses()) all.set(path, analysis);
    return all;
  }

  /** Every unit of the analysis, without building per-file records. */
  *units(): Iterable<Unit> {
    if (this.typescriptStarted) yield* this.typescript.units();
    for (const session of this.syntax.values()) yield* session.units();
  }

  /** The whole graph in canonical order: each language's (assembled incrementally), merged. */
  graph(): ProgramGraphData {
    const graphs: ProgramGraphData[] = [];
    if (this.typescriptStarted) graphs.push(this.typescript.graph());
    for (const session of this.syntax.values()) if (session.fileCount > 0) graphs.push(session.graph());
    return mergeGraphs(graphs);
  }

  private syntaxRows(paths: Iterable<string>): ProgramGraphData {
    const graph = emptyGraph();
    const slots = new Map<string, ProgramGraphData['slots'][number]>();
    const byLanguage = new Map<Language, string[]>();
    for (const path of paths) {
      const language = languageOfPath(path);
      if (!language || language === 'typescript') continue;
      const list = byLanguage.get(language);
      if (list) list.push(path);
      else byLanguage.set(language, [path]);
    }
    for (const [language, list] of byLanguage) {
      for (const row of this.syntax.get(language)?.rowsOf(list) ?? []) {
        graph.files.push(row.record);
        graph.units.push(...row.units);
        graph.edges.push(...row.resolution.edges);
        graph.unresolved.push(...row.resolution.unresolved);
        for (const slot of row.resolution.slots) slots.set(slot.id, slot);
      }
    }
    graph.slots = [...slots.values()];
    return graph;
  }

  /** The rows of these files, and every heritage edge in canonical order: what an in-place update writes. */
  rowsOfFiles(paths: Iterable<string>): { files: SourceFileRecord[]; units: Unit[]; edges: Edge[]; unresolved: UnresolvedCall[]; heritage: Edge[] } {
    const list = [...paths];
    const typescript = this.typescriptStarted
      ? this.typescript.rowsOfFiles(list.filter((path) => languageOfPath(path) === 'typescript'))
      : { files: [], units: [], edges: [], unresolved: [], heritage: [] };
    const syntax = this.syntaxRows(list);
    const heritage = [...typescript.heritage, ...[...this.syntax.values()].flatMap((session) => session.heritageEdges)].sort(compareEdges);
    return {
      files: [...typescript.files, ...syntax.files],
      units: [...typescript.units, ...syntax.units],
      edges: [...typescript.edges, ...syntax.edges],
      unresolved: [...typescript.unresolved, ...syntax.unresolved],
      heritage,
    };
  }

  statistics(): AnalysisStatistics {
    const reports: LanguageReport[] = [];
    if (this.typescriptStarted) reports.push(this.typescript.report());
    for (const session of this.syntax.values()) if (session.fileCount > 0) reports.push(session.report());
    const present = reports.filter((report) => report.statistics.files > 0);
    const warnings: ParseWarning[] = present.flatMap((report) => report.warnings).sort((a, b) => compareText(a.file, b.file)).slice(0, MAX_WARNINGS);
    const compiler = this.typescript.compilerReport;
    return {
      files: present.reduce((sum, report) => sum + report.statistics.files, 0),
      skippedFiles: this.discovery?.skippedFiles ?? {},
      skippedDirectories: this.discovery?.skippedDirectories ?? {},
      tsconfigs: compiler.tsconfigs,
      callSites: present.reduce((sum, report) => sum + report.statistics.callSites, 0),
      resolvedCalls: present.reduce((sum, report) => sum + report.statistics.resolvedCalls, 0),
      parseWarnings: warnings,
      settingsProblems: compiler.settingsProblems,
      languages: present.map((report) => report.statistics),
    };
  }

  result(): AnalysisResult {
    return { root: this.root, graph: this.graph(), statistics: this.statistics() };
  }
}

/** The TypeScript session's view of a walk: its files, and the whole discovery for skips. */
function typescriptFiles(walk: Walker): Discover {
  return (outDirectories) => {
    const walked = walk(outDirectories);
    return { discovery: walked.discovery, files: walked.byLanguage.get('typescript') ?? [] };
  };
}

interface PreviousPart {
  files: Map<string, FileAnalysis>;
  heritage: Edge[];
}

/** A stored analysis split by language: each file by its extension, each heritage edge by the file it starts in. */
function splitPrevious(previous: PreviousAnalysis): Map<Language, PreviousPart> {
  const parts = new Map<Language, PreviousPart>();
  const partOf = (language: Language): PreviousPart => {
    let part = parts.get(language);
    if (!part) parts.set(language, (part = { files: new Map(), heritage: [] }));
    return part;
  };
  for (const [path, analysis] of previous.files) {
    const language = languageOfPath(path);
    if (language) partOf(language).files.set(path, analysis);
  }
  for (const edge of previous.heritage) {
    const language = languageOfPath(edge.from.split('#')[0]!);
    if (language) partOf(language).heritage.push(edge);
  }
  return parts;
}

/** One change of the whole analysis from each language's: lists joined in order, counts added. */
function mergeChanges(parts: readonly AnalysisChange[]): AnalysisChange {
  const sorted = (pick: (change: AnalysisChange) => string[]): string[] => parts.flatMap(pick).sort(compareText);
  const merged: AnalysisChange = {
    added: sorted((change) => change.added),
    modified: sorted((change) => change.modified),
    removed: sorted((change) => change.removed),
    skipped: parts.flatMap((change) => change.skipped).sort((a, b) => compareText(a.file, b.file)),
    resolved: parts.reduce((sum, change) => sum + change.resolved, 0),
    resolvedPaths: sorted((change) => change.resolvedPaths),
    resolvedInPart: parts.reduce((sum, change) => sum + change.resolvedInPart, 0),
    unitsBefore: parts.flatMap((change) => change.unitsBefore),
    unitsAfter: parts.flatMap((change) => change.unitsAfter),
    unitCountBefore: parts.reduce((sum, change) => sum + change.unitCountBefore, 0),
  };
  const fullReason = parts.find((change) => change.fullReason !== undefined)?.fullReason;
  if (fullReason !== undefined) merged.fullReason = fullReason;
  return merged;
}
