import type { Edge, EdgeKind, EdgeResolution } from '../../graph/model.js';

/**
 * Collects edges with one record per (kind, from, to) and every occurrence line kept. Where
 * occurrences were found differently, the edge says the surer way: scope over name, a direct
 * call over dispatch.
 */
export class EdgeSink {
  /** from → to → the edges between them, one per kind: no key string is built per occurrence. */
  private readonly edges = new Map<string, Map<string, Edge[]>>();

  add(kind: EdgeKind, from: string, to: string, line: number, how: { resolution?: EdgeResolution; via?: Edge['via'] } = {}): void {
    // A unit's use of itself is no edge, but a recursive call is.
    if (from === to && kind !== 'calls') return;
    const resolution = how.resolution ?? 'scope';
    let targets = this.edges.get(from);
    if (!targets) this.edges.set(from, (targets = new Map()));
    let between = targets.get(to);
    if (!between) targets.set(to, (between = []));
    const existing = between.find((edge) => edge.kind === kind);
    if (existing) {
      existing.lines.push(line);
      if (resolution === 'scope') existing.resolution = 'scope';
      if (how.via === 'direct' || (how.via && !existing.via)) existing.via = how.via;
      return;
    }
    const edge: Edge = { kind, from, to, lines: [line], resolution };
    if (how.via) edge.via = how.via;
    between.push(edge);
  }

  /** An independent copy, to add to without touching this one: a resolution kept for reuse stays as it was made. */
  clone(): EdgeSink {
    const copy = new EdgeSink();
    for (const [from, targets] of this.edges) {
      copy.edges.set(from, new Map([...targets].map(([to, between]) => [to, between.map((edge) => ({ ...edge, lines: [...edge.lines] }))])));
    }
    return copy;
  }

  /**
   * The edges in the order they were first met, each with its lines ascending and distinct. That
   * order is a function of the files alone; the store and the session put edges in canonical order.
   */
  list(): Edge[] {
    const all: Edge[] = [];
    for (const targets of this.edges.values()) {
      for (const between of targets.values()) {
        for (const edge of between) {
          if (edge.lines.length > 1) edge.lines = [...new Set(edge.lines)].sort((a, b) => a - b);
          all.push(edge);
        }
      }
    }
    return all;
  }
}
