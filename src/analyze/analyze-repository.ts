import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';
import type { ProgramGraphData, SkipReason, SourceFileRecord } from '../graph/model.js';
import { canonicalize, compareText } from '../graph/order.js';
import { HandbookError } from '../errors.js';
import { assertRepositoryRoot } from './repository-root.js';
import { addFileUnit, collectUnits, createUnitIndex } from './collect-units.js';
import { createCompilerSetup } from './compiler-setup.js';
import { discoverFiles } from './discover-files.js';
import { EdgeResolver } from './resolve-edges.js';
import { createProgram, toCompilerPath } from './create-program.js';
import { shortHash } from '../graph/content-hash.js';
import { isTestPath, lineOf } from './unit-text.js';

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
  skippedFiles: Partial<Record<SkipReason, number>>;
  skippedDirectories: Partial<Record<SkipReason, number>>;
  tsconfigs: string[];
  callSites: number;
  resolvedCalls: number;
  parseWarnings: ParseWarning[];
}

export interface AnalysisResult {
  root: string;
  graph: ProgramGraphData;
  statistics: AnalysisStatistics;
}

const MAX_WARNINGS = 50;

/**
 * Static analysis of a repository into a program graph: no model calls, nothing written to
 * disk. The result is deterministic: the same tree gives the same graph, in the same order.
 */
export function analyzeRepository(root: string, options: AnalyzeOptions = {}): AnalysisResult {
  const absoluteRoot = assertRepositoryRoot(root);
  const progress = options.onProgress ?? (() => undefined);
  progress({ phase: 'discover', done: 0, total: 0 });
  const setup = createCompilerSetup(absoluteRoot);
  const discovery = discoverFiles(absoluteRoot, {
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    ...(options.include ? { include: options.include } : {}),
    buildOutputDirectories: setup.outDirectories,
  });
  if (discovery.files.length === 0) {
    throw new HandbookError(
      'NO_SOURCE_FILES',
      `no TypeScript or JavaScript files to analyze in ${root}`,
      'point build at a folder with .ts, .tsx, .js or .mjs sources (node_modules, build output and .d.ts files are skipped)',
    );
  }

  const texts = new Map<string, string>();
  const records: SourceFileRecord[] = [];
  const repoPathOf = new Map<string, string>();
  for (const file of discovery.files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file.absolutePath);
    } catch {
      discovery.skippedFiles.unreadable = (discovery.skippedFiles.unreadable ?? 0) + 1;
      continue;
    }
    const text = bytes.toString('utf8');
    const absolute = toCompilerPath(file.absolutePath);
    texts.set(absolute, text);
    repoPathOf.set(absolute, file.path);
    records.push({
      path: file.path,
      size: bytes.length,
      hash: shortHash(bytes),
      lines: text.length === 0 ? 0 : text.split('\n').length,
      test: isTestPath(file.path),
      parseErrors: 0,
      externalImports: [],
    });
  }
  const isTest = new Set(records.filter((record) => record.test).map((record) => record.path));
  const programFiles = [...texts.keys()].filter((absolute) => !isTest.has(repoPathOf.get(absolute)!));
  let parsed = 0;
  const { program, resolveModule } = createProgram(programFiles, texts, setup.options, () => {
    parsed += 1;
    if (parsed % 25 === 0 || parsed === programFiles.length) progress({ phase: 'parse', done: parsed, total: programFiles.length });
  });
  const checker = program.getTypeChecker();
  const index = createUnitIndex();
  const warnings: ParseWarning[] = [];
  const sourceFiles: Array<{ sourceFile: ts.SourceFile; record: SourceFileRecord }> = [];
  const absoluteOf = new Map([...repoPathOf].map(([absolute, relative]) => [relative, absolute]));
  const resolver = new EdgeResolver({ program, checker, index, repoPathOf, resolveModule });
  records.forEach((record, position) => {
    const absolute = absoluteOf.get(record.path)!;
    if (record.test) {
      // Tests matter to the handbook through what they import (which tests reach a change);
      // a scan of their imports costs a fraction of a parse.
      addFileUnit(index, record.path, record.hash, record.lines);
      resolver.resolveImportsOfText(record.path, absolute, texts.get(absolute)!);
      return;
    }
    const sourceFile = program.getSourceFile(absolute);
    if (!sourceFile) return;
    const diagnostics = program.getSyntacticDiagnostics(sourceFile);
    record.parseErrors = diagnostics.length;
    const first = diagnostics[0];
    if (first && warnings.length < MAX_WARNINGS) {
      warnings.push({
        file: record.path,
        line: first.start === undefined ? 1 : lineOf(sourceFile, first.start),
        message: ts.flattenDiagnosticMessageText(first.messageText, ' '),
      });
    }
    collectUnits(sourceFile, record.path, record.hash, index);
    sourceFiles.push({ sourceFile, record });
    if (position % 50 === 0 || position === records.length - 1) progress({ phase: 'index', done: position + 1, total: records.length });
  });

  resolver.resolveHeritage();
  sourceFiles.forEach(({ sourceFile, record }, position) => {
    resolver.resolveFile(sourceFile, record.path);
    if (position % 10 === 0 || position === sourceFiles.length - 1) progress({ phase: 'resolve', done: position + 1, total: sourceFiles.length });
  });
  const resolved = resolver.result();
  for (const record of records) record.externalImports = resolver.externalImportsOf(record.path);
  for (const [unitId, words] of index.literalWords) {
    const unit = index.units.get(unitId);
    if (unit) unit.literals = [...words].join(' ');
  }
  for (const [unitId, words] of index.bodyWords) {
    const unit = index.units.get(unitId);
    if (unit) unit.words = [...words].join(' ');
  }

  const graph = canonicalize({
    files: records,
    units: [...index.units.values()],
    edges: resolved.edges,
    slots: resolved.slots,
    unresolved: resolved.unresolved,
  });
  return {
    root: absoluteRoot,
    graph,
    statistics: {
      files: records.length,
      skippedFiles: discovery.skippedFiles,
      skippedDirectories: discovery.skippedDirectories,
      tsconfigs: setup.tsconfigs,
      callSites: resolved.resolvedCallSites + resolved.unresolved.length,
      resolvedCalls: resolved.resolvedCallSites,
      parseWarnings: warnings.sort((a, b) => compareText(a.file, b.file)),
    },
  };
}
