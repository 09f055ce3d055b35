import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { GraphData } from './types.js';

export const FALLBACK_COLOR = '#9aa0a6';
const EDGE_COLOR = 'rgba(120, 130, 145, 0.35)';
const SEED = 0x5eed;
/** How much more an edge inside one behaviour pulls than one across behaviours: what keeps a behaviour together as a cluster. */
const SAME_BEHAVIOR_WEIGHT = 4;

/** mulberry32: a small seeded generator, so the initial positions (and so the layout) are the same on every load. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The graphology graph of /api/graph, laid out by ForceAtlas2 from seeded positions: stages start
 * on a circle, each stage's behaviours on a small circle around their stage, each unit near its
 * behaviour; edges inside a behaviour pull harder, so behaviours stay clusters inside the stage's
 * colour. No DOM, no WebGL: the layout is the same in the browser and in a test.
 */
export function buildGraph(data: GraphData): Graph {
  const graph = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
  const colors = new Map(data.stages.map((stage) => [stage.id, stage.color]));
  const stageIndex = new Map(data.stages.map((stage, index) => [stage.id, index]));
  const behaviorsOf = new Map<string, string[]>();
  for (const node of data.nodes) {
    if (node.stage === null || node.behavior === null) continue;
    const list = behaviorsOf.get(node.stage) ?? [];
    if (!list.includes(node.behavior)) list.push(node.behavior);
    behaviorsOf.set(node.stage, list);
  }
  const random = seededRandom(SEED);
  const sectors = Math.max(1, data.stages.length + 1);
  for (const node of data.nodes) {
    if (graph.hasNode(node.id)) continue;
    const sector = node.stage !== null && stageIndex.has(node.stage) ? (stageIndex.get(node.stage) ?? 0) : sectors - 1;
    const angle = (2 * Math.PI * sector) / sectors;
    const behaviors = node.stage !== null ? (behaviorsOf.get(node.stage) ?? []) : [];
    const slot = node.behavior !== null ? behaviors.indexOf(node.behavior) : -1;
    const around = slot >= 0 && behaviors.length > 1 ? (2 * Math.PI * slot) / behaviors.length : 0;
    const spread = slot >= 0 && behaviors.length > 1 ? 35 : 0;
    graph.addNode(node.id, {
      label: node.label,
      x: 100 * Math.cos(angle) + spread * Math.cos(around) + 12 * (random() - 0.5),
      y: 100 * Math.sin(angle) + spread * Math.sin(around) + 12 * (random() - 0.5),
      color: (node.stage !== null ? colors.get(node.stage) : undefined) ?? FALLBACK_COLOR,
      stage: node.stage,
      behavior: node.behavior,
      kind: node.kind,
      size: 3,
    });
  }
  for (const edge of data.edges) {
    if (edge.source === edge.target || !graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
    if (graph.hasEdge(edge.source, edge.target)) continue;
    const behavior = graph.getNodeAttribute(edge.source, 'behavior') as string | null;
    const inside = behavior !== null && behavior === graph.getNodeAttribute(edge.target, 'behavior');
    graph.addEdge(edge.source, edge.target, { kind: edge.kind, color: EDGE_COLOR, size: 0.6, weight: inside ? SAME_BEHAVIOR_WEIGHT : 1 });
  }
  graph.forEachNode((node) => graph.setNodeAttribute(node, 'size', 3 + Math.min(9, Math.sqrt(graph.degree(node)) * 1.6)));
  if (graph.order > 1) {
    const iterations = graph.order > 3000 ? 80 : graph.order > 800 ? 150 : 300;
    forceAtlas2.assign(graph, {
      iterations,
      getEdgeWeight: 'weight',
      settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: graph.order > 800, adjustSizes: false, edgeWeightInfluence: 1 },
    });
  }
  return graph;
}
