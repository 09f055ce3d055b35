import { shortHash } from '../../../src/graph/content-hash.js';
import type { Edge, EdgeKind, Unit } from '../../../src/graph/model.js';
import type { ExtractedFile, FileResolution, ResolvedFiles } from '../../../src/analyze/front-end.js';
import { rustFrontEnd, type RustFacts } from '../../../src/analyze/rust/rust-front-end.js';

/**
 * Rust source written indented inside a test: the common indentation of its lines goes, and a
 * leading newline after the backtick, so the source reads as it would in its own file.
 */
export function rs(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((text, part, index) => text + part + (index < values.length ? String(values[index]) : ''), '');
  const lines = raw.replace(/^\n/, '').replace(/\n[ \t]*$/, '\n').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length));
  return lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

export function extract(path: string, text: string, test = rustFrontEnd.isTestPath(path)): ExtractedFile<RustFacts> {
  return rustFrontEnd.extract({ path, text, hash: shortHash(text), lines: text.length === 0 ? 0 : text.split('\n').length, test });
}

export function unitsOf(path: string, text: string): Unit[] {
  return extract(path, text).units;
}

export function unitOf(units: readonly Unit[], symbol: string): Unit {
  const unit = units.find((candidate) => candidate.symbol === symbol);
  if (!unit) throw new Error(`no unit ${symbol} among ${units.map((candidate) => candidate.symbol).join(', ')}`);
  return unit;
}

/** A repository of Rust sources, extracted and resolved as the session does. */
export interface Resolved {
  files: Map<string, ExtractedFile<RustFacts>>;
  resolved: ResolvedFiles;
  file(path: string): FileResolution;
  /** Every edge of every file, and the heritage edges. */
  edges: Edge[];
}

export function resolveSources(sources: Record<string, string>): Resolved {
  const files = new Map(Object.entries(sources).map(([path, text]) => [path, extract(path, text)]));
  const resolved = rustFrontEnd.resolve(files);
  return {
    files,
    resolved,
    file: (path) => {
      const resolution = resolved.files.get(path);
      if (!resolution) throw new Error(`no resolution of ${path}`);
      return resolution;
    },
    edges: [...[...resolved.files.values()].flatMap((resolution) => resolution.edges), ...resolved.heritage],
  };
}

/** Edges of one kind as `from -> to` lines, sorted. */
export function edgeList(edges: readonly Edge[], kind: EdgeKind): string[] {
  return edges.filter((edge) => edge.kind === kind).map((edge) => `${edge.from} -> ${edge.to}`).sort();
}

export function findEdge(edges: readonly Edge[], kind: EdgeKind, from: string, to: string): Edge | undefined {
  return edges.find((edge) => edge.kind === kind && edge.from === from && edge.to === to);
}

/** A field's or static's reads and writes from one unit, as `reads 3 writes 3,4`. */
export function access(edges: readonly Edge[], from: string, to: string): string {
  const reads = findEdge(edges, 'reads', from, to);
  const writes = findEdge(edges, 'writes', from, to);
  return [reads ? `reads ${reads.lines.join(',')}` : '', writes ? `writes ${writes.lines.join(',')}` : ''].filter(Boolean).join(' ');
}
