import { readFileSync } from 'node:fs';
import { shortHash } from '../../graph/content-hash.js';
import type { Edge, ProgramGraphData, SourceFileRecord, Unit } from '../../graph/model.js';
import { compareEdges, compareSlots, compareText, compareUnresolved } from '../../graph/order.js';
import type { AnalysisChange, AnalysisProgress, FileAnalysis, LanguageReport, ParseWarning } from '../analysis-types.js';
import { type DiscoveredFile, type DiscoveryResult, type FileStamp, recordSkip, sameStamp, skipReasonOf } from '../discover-files.js';
import type { ExtractedFile, FileResolution, SyntaxFrontEnd } from '../front-end.js';
import { type FileRows, GraphAssembly } from '../graph-assembly.js';
import { decodeSource } from '../source-text.js';
import { RecentTrees } from './recent-trees.js';

const MAX_WARNINGS = 50;

const EMPTY_RESOLUTION: FileResolution = { edges: [], unresolved: [], slots: [], externalImports: [], callSites: 0, resolvedCalls: 0 };

interface SyntaxFile {
  path: string;
  stamp: FileStamp;
  /** When the bytes were read: a file modified shortly before is read again next time. */
  readAt: number;
  text: string;
  record: SourceFileRecord;
  extracted: ExtractedFile;
  resolution: FileResolution;
}

/** The files of one language a discovery found, and the whole discovery (for skips). */
export interface SyntaxDiscovery {
  discovery: DiscoveryResult;
  files: readonly DiscoveredFile[];
}

/**
 * One language read through a syntax tree, kept warm between changes. A refresh reads and
 * extracts only the files whose bytes changed, then resolves every file of the language again:
 * resolution by scope and imports takes milliseconds, and redone whole it gives what a cold
 * build gives by construction. What a refresh reports as resolved again are the files whose
 * resolution came out different, the only ones whose stored rows must be replaced.
 */
export class SyntaxSession {
  private files = new Map<string, SyntaxFile>();
  private heritage: Edge[] = [];
  /** What the front end keeps between resolutions of this session's files. */
  private readonly resolveMemo = {};
  /** The trees of files edited since the session started, so the next edit to one is parsed incrementally. */
  private readonly recentTrees = new RecentTrees();
  /** The graph as last assembled, kept for the next sync to change in place. */
  private readonly assembly = new GraphAssembly();

  constructor(
    private readonly frontEnd: SyntaxFrontEnd,
    private readonly onProgress: (progress: AnalysisProgress) => void = () => undefined,
  ) {}

  get language(): SyntaxFrontEnd['language'] {
    return this.frontEnd.language;
  }

  get fileCount(): number {
    return this.files.size;
  }

  get heritageEdges(): readonly Edge[] {
    return this.heritage;
  }

  /**
   * Brings the session up to date with the discovered files. `previous` is the analysis as the
   * store holds it, for a session that starts cold against a stored handbook; a warm session
   * compares against what it holds. `fullReason` says the caller takes every file as changed.
   */
  refresh(found: SyntaxDiscovery, previous?: ReadonlyMap<string, FileAnalysis>, fullReason?: string): AnalysisChange {
    const before: ReadonlyMap<string, FileAnalysis> = previous ?? this.fileAnalyses();
    const next = new Map<string, SyntaxFile>();
    let read = 0;
    for (const discovered of found.files) {
      const held = this.files.get(discovered.path);
      if (held && sameStamp(held.stamp, held.readAt, discovered.stamp)) {
        next.set(discovered.path, held);
        continue;
      }
      const readAt = Date.now();
      let bytes: Buffer;
      try {
        bytes = readFileSync(discovered.absolutePath);
      } catch {
        recordSkip(found.discovery, 'file', discovered.path, 'unreadable');
        continue;
      }
      const hash = shortHash(bytes);
      if (held && held.record.hash === hash) {
        next.set(discovered.path, { ...held, stamp: discovered.stamp, readAt });
        continue;
      }
      // A file this session read before is being edited: keep its tree for the next edit. A cold read keeps none.
      next.set(discovered.path, this.extract(discovered, bytes, hash, readAt, held ? this.recentTrees : undefined));
      read += 1;
      if (read % 50 === 0) this.onProgress({ phase: 'parse', done: read, total: found.files.length });
    }

    this.onProgress({ phase: 'resolve', done: 0, total: next.size });
    const resolved = this.frontEnd.resolve(new Map([...next].map(([path, file]) => [path, file.extracted])), this.resolveMemo);
    for (const [path, file] of next) {
      const resolution = resolved.files.get(path) ?? EMPTY_RESOLUTION;
      file.resolution = resolution;
      file.record = { ...file.record, externalImports: resolution.externalImports };
    }
    this.heritage = resolved.heritage.sort(compareEdges);
    this.onProgress({ phase: 'resolve', done: next.size, total: next.size });

    const added: string[] = [];
    const modified: string[] = [];
    const resolvedPaths: string[] = [];
    for (const [path, file] of next) {
      const was = before.get(path);
      if (!was) added.push(path);
      else if (was.record.hash !== file.record.hash) modified.push(path);
      else if (fullReason !== undefined || !sameResolution(was.resolution, file.resolution)) resolvedPaths.push(path);
    }
    const removed = [...before.keys()].filter((path) => !next.has(path));
    for (const path of removed) this.recentTrees.forget(path);
    this.files = next;
    resolvedPaths.push(...added, ...modified);
    // A file resolved to the same rows keeps its rows in the assembled graph: only these can differ.
    if (fullReason !== undefined || previous !== undefined) this.assembly.changeAll();
    else this.assembly.changeFiles([...resolvedPaths, ...removed]);
    const change: AnalysisChange = {
      added: added.sort(compareText),
      modified: modified.sort(compareText),
      removed: removed.sort(compareText),
      skipped: removed.flatMap((file) => {
        const reason = skipReasonOf(found.discovery, file);
        return reason ? [{ file, reason }] : [];
      }),
      resolved: fullReason !== undefined ? next.size : resolvedPaths.length,
      resolvedPaths: fullReason !== undefined ? [...next.keys()].sort(compareText) : resolvedPaths.sort(compareText),
      resolvedInPart: 0,
      unitsBefore: [...modified, ...removed].flatMap((path) => before.get(path)?.units ?? []),
      unitsAfter: [...added, ...modified].flatMap((path) => next.get(path)!.extracted.units),
      unitCountBefore: [...before.values()].reduce((sum, file) => sum + file.units.length, 0),
    };
    if (fullReason !== undefined) change.fullReason = fullReason;
    return change;
  }

  private extract(discovered: DiscoveredFile, bytes: Buffer, hash: string, readAt: number, recentTrees: RecentTrees | undefined): SyntaxFile {
    const text = decodeSource(bytes, discovered.path);
    const lines = text.length === 0 ? 0 : text.split('\n').length;
    const test = this.frontEnd.isTestPath(discovered.path);
    const extracted = this.frontEnd.extract({ path: discovered.path, text, hash, lines, test, ...(recentTrees ? { recentTrees } : {}) });
    const record: SourceFileRecord = { path: discovered.path, size: bytes.length, hash, lines, test, parseErrors: extracted.parseErrors, externalImports: [] };
    return { path: discovered.path, stamp: discovered.stamp, readAt, text, record, extracted, resolution: EMPTY_RESOLUTION };
  }

  fileAnalyses(): Map<string, FileAnalysis> {
    return new Map([...this.files].map(([path, file]) => [path, { record: file.record, units: file.extracted.units, digest: file.extracted.digest, resolution: file.resolution }]));
  }

  /** This language's graph in canonical order, assembled again only where files changed since the last. */
  graph(): ProgramGraphData {
    return this.assembly.assemble(this.files, rowsOf, (file) => file.resolution.slots, this.heritage);
  }

  *units(): Iterable<Unit> {
    for (const file of this.files.values()) yield* file.extracted.units;
  }

  /** The files' rows, whole, each file's in its own order: the caller puts them in canonical order. */
  rowsOf(paths: Iterable<string>): Array<{ record: SourceFileRecord; units: readonly Unit[]; resolution: FileResolution }> {
    return [...paths].flatMap((path) => {
      const file = this.files.get(path);
      return file ? [{ record: file.record, units: file.extracted.units, resolution: file.resolution }] : [];
    });
  }

  get paths(): Iterable<string> {
    return this.files.keys();
  }

  report(): LanguageReport {
    const warnings: ParseWarning[] = [];
    let callSites = 0;
    let resolvedCalls = 0;
    let byName = 0;
    for (const file of [...this.files.values()].sort((a, b) => compareText(a.path, b.path))) {
      const warning = file.extracted.warning;
      if (warning && warnings.length < MAX_WARNINGS) warnings.push({ file: file.path, ...warning });
      callSites += file.resolution.callSites;
      resolvedCalls += file.resolution.resolvedCalls;
      for (const edge of file.resolution.edges) if (edge.kind === 'calls' && edge.resolution === 'name') byName += edge.lines.length;
    }
    const name = Math.min(byName, resolvedCalls);
    return {
      statistics: { language: this.frontEnd.language, files: this.files.size, callSites, resolvedCalls, resolvedBy: { checker: 0, scope: resolvedCalls - name, name } },
      warnings,
    };
  }
}

function rowsOf(file: SyntaxFile): FileRows {
  return { record: file.record, units: file.extracted.units, edges: file.resolution.edges, unresolved: file.resolution.unresolved };
}

/** Whether two resolutions of a file give the same rows, in whatever order each holds them (the store reads them back in its own). */
function sameResolution(a: FileResolution, b: FileResolution): boolean {
  if (a === b) return true;
  if (a.callSites !== b.callSites || a.resolvedCalls !== b.resolvedCalls) return false;
  // Resolution is deterministic: rows that did not change come in the same order, and a walk side by side settles it without a key.
  return sameInOrder(a, b) || rowsKey(a) === rowsKey(b);
}

function sameInOrder(a: FileResolution, b: FileResolution): boolean {
  return (
    sameList(a.edges, b.edges, (x, y) => x.kind === y.kind && x.from === y.from && x.to === y.to && x.via === y.via && x.resolution === y.resolution && sameList(x.lines, y.lines, (m, n) => m === n)) &&
    sameList(a.unresolved, b.unresolved, (x, y) => x.from === y.from && x.text === y.text && x.line === y.line && x.reason === y.reason) &&
    sameList(a.slots, b.slots, (x, y) => x.id === y.id && x.kind === y.kind && x.file === y.file && x.owner === y.owner && x.name === y.name && x.line === y.line && x.type === y.type) &&
    sameList(a.externalImports, b.externalImports, (x, y) => x === y)
  );
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (!same(a[index]!, b[index]!)) return false;
  return true;
}

/** Each resolution's key, made once: this sync's resolutions are the ones the next sync compares against. */
const rowsKeys = new WeakMap<FileResolution, string>();

/** Field by field, so that the order an object's keys were written in does not count. */
function rowsKey(resolution: FileResolution): string {
  let key = rowsKeys.get(resolution);
  if (key === undefined) rowsKeys.set(resolution, (key = keyOfRows(resolution)));
  return key;
}

function keyOfRows(resolution: FileResolution): string {
  return JSON.stringify([
    [...resolution.edges].sort(compareEdges).map((edge) => [edge.kind, edge.from, edge.to, edge.lines, edge.via ?? '', edge.resolution ?? '']),
    [...resolution.unresolved].sort(compareUnresolved).map((call) => [call.from, call.text, call.line, call.reason]),
    [...resolution.slots].sort(compareSlots).map((slot) => [slot.id, slot.kind, slot.file, slot.owner, slot.name, slot.line, slot.type]),
    resolution.externalImports,
  ]);
}
