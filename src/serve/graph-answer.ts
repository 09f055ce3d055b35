import type { Handbook } from '../api/open-handbook.js';
import type { EdgeKind } from '../graph/model.js';
import { shortName } from '../graph/unit-name.js';
import type { GraphResponse } from './api-schemas.js';
import { stageColor } from './stage-color.js';

/** Past a few thousand nodes a force layout in the browser stops being interactive. */
export const GRAPH_NODE_CAP = 3000;

/** When two units relate in several ways, the edge drawn is the first of these: what most says how they depend. */
const EDGE_PRECEDENCE: readonly EdgeKind[] = ['calls', 'instantiates', 'extends', 'implements', 'writes', 'reads', 'references', 'imports', 'contains'];

type GraphEdge = GraphResponse['edges'][number];

/**
 * The code units (declarations outside tests, as stages place them) and the relations between
 * them, one edge per ordered pair and no loops, so the app can load it into a simple graphology
 * graph. Over the cap, the most connected units stay.
 */
export function graphAnswer(handbook: Handbook, stageOf: ReadonlyMap<string, string>, behaviorOf: ReadonlyMap<string, string> = new Map(), cap = GRAPH_NODE_CAP): GraphResponse {
  const units = handbook.graph.codeUnits();
  const known = new Set(units.map((unit) => unit.id));
  const edges = new Map<string, GraphEdge>();
  for (const edge of handbook.graph.edges) {
    if (edge.from === edge.to || !known.has(edge.from) || !known.has(edge.to)) continue;
    const key = `${edge.from}\n${edge.to}`;
    const drawn = edges.get(key);
    if (!drawn || EDGE_PRECEDENCE.indexOf(edge.kind) < EDGE_PRECEDENCE.indexOf(drawn.kind)) edges.set(key, { source: edge.from, target: edge.to, kind: edge.kind });
  }
  const degree = new Map<string, number>();
  for (const edge of edges.values()) {
    degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
    degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
  }
  const kept = [...units]
    .sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || (a.id < b.id ? -1 : 1))
    .slice(0, cap)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const keptIds = new Set(kept.map((unit) => unit.id));
  return {
    stages: [...handbook.organized.stages].sort((a, b) => a.position - b.position).map((stage) => ({ id: stage.id, name: stage.name, color: stageColor(stage.position) })),
    nodes: kept.map((unit) => ({ id: unit.id, label: shortName(unit.id), stage: stageOf.get(unit.id) ?? null, behavior: behaviorOf.get(unit.id) ?? null, kind: unit.kind, file: unit.file, line: unit.startLine })),
    edges: [...edges.values()].filter((edge) => keptIds.has(edge.source) && keptIds.has(edge.target)),
    truncated: kept.length < units.length,
  };
}
