import { shortHash } from '../../src/graph/content-hash.js';
import type { Edge, EdgeKind, Unit } from '../../src/graph/model.js';
import type { ExtractedFile, FileResolution, ResolvedFiles } from '../../src/analyze/front-end.js';
import type { SyntaxFrontEnd } from '../../src/analyze/front-end.js';

/**
 * Source written indented inside a test: the common indentation of its lines goes, and a
 * leading newline after the backtick, so the source reads as it would in its own file.
 */
export function dedent(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((text, part, index) => text + part + (index < values.length ? String(values[index]) : ''), '');
  const lines = raw.replace(/^\n/, '').replace(/\n[ \t]*$/, '\n').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length));
  return lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

export function unitOf(units: readonly Unit[], symbol: string): Unit {
  const unit = units.find((candidate) => candidate.symbol === symbol);
  if (!unit) throw new Error(`no unit ${symbol} among ${units.map((candidate) => candidate.symbol).join(', ')}`);
  return unit;
}

/** A repository of sources, extracted and resolved as the session does. */
export interface Resolved<Facts> {
  files: Map<string, ExtractedFile<Facts>>;
  resolved: ResolvedFiles;
  file(path: string): FileResolution;
  /** Every edge of every file, and the heritage edges. */
  edges: Edge[];
}

/** One front end's test helpers: a file extracted as the session extracts it, and sources resolved together. */
export function frontEndKit<Facts>(frontEnd: SyntaxFrontEnd<Facts>) {
  const extract = (path: string, text: string, test = frontEnd.isTestPath(path)): ExtractedFile<Facts> =>
    frontEnd.extract({ path, text, hash: shortHash(text), lines: text.length === 0 ? 0 : text.split('\n').length, test });
  const resolveSources = (sources: Record<string, string>): Resolved<Facts> => {
    const files = new Map(Object.entries(sources).map(([path, text]) => [path, extract(path, text)]));
    const resolved = frontEnd.resolve(files);
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
  };
  return { extract, unitsOf: (path: string, text: string): Unit[] => extract(path, text).units, resolveSources };
}

/** Edges of one kind as `from -> to` lines, sorted. */
export function edgeList(edges: readonly Edge[], kind: EdgeKind): string[] {
  return edges.filter((edge) => edge.kind === kind).map((edge) => `${edge.from} -> ${edge.to}`).sort();
}

export function findEdge(edges: readonly Edge[], kind: EdgeKind, from: string, to: string): Edge | undefined {
  return edges.find((edge) => edge.kind === kind && edge.from === from && edge.to === to);
}

/** A unit's reads and writes of a slot, as `reads 3,4 writes 4`. */
export function access(edges: readonly Edge[], from: string, to: string): string {
  const reads = findEdge(edges, 'reads', from, to);
  const writes = findEdge(edges, 'writes', from, to);
  return [reads ? `reads ${reads.lines.join(',')}` : '', writes ? `writes ${writes.lines.join(',')}` : ''].filter(Boolean).join(' ');
}
