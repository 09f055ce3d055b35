import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import type { View, ViewContext } from './context.js';
import { h, plural } from './dom.js';
import { href } from './router.js';
import type { GraphData } from './types.js';

const FALLBACK_COLOR = '#9aa0a6';
const EDGE_COLOR = 'rgba(120, 130, 145, 0.35)';
const SEED = 0x5eed;

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

/** The graphology graph of /api/graph, laid out by ForceAtlas2 from seeded positions (stages start on a circle). */
export function buildGraph(data: GraphData): Graph {
  const graph = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
  const colors = new Map(data.stages.map((stage) => [stage.id, stage.color]));
  const stageIndex = new Map(data.stages.map((stage, index) => [stage.id, index]));
  const random = seededRandom(SEED);
  const sectors = Math.max(1, data.stages.length + 1);
  for (const node of data.nodes) {
    if (graph.hasNode(node.id)) continue;
    const sector = node.stage !== null && stageIndex.has(node.stage) ? (stageIndex.get(node.stage) ?? 0) : sectors - 1;
    const angle = (2 * Math.PI * sector) / sectors;
    graph.addNode(node.id, {
      label: node.label,
      x: 100 * Math.cos(angle) + 30 * (random() - 0.5),
      y: 100 * Math.sin(angle) + 30 * (random() - 0.5),
      color: (node.stage !== null ? colors.get(node.stage) : undefined) ?? FALLBACK_COLOR,
      stage: node.stage,
      kind: node.kind,
      size: 3,
    });
  }
  for (const edge of data.edges) {
    if (edge.source === edge.target || !graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
    if (graph.hasEdge(edge.source, edge.target)) continue;
    graph.addEdge(edge.source, edge.target, { kind: edge.kind, color: EDGE_COLOR, size: 0.6 });
  }
  graph.forEachNode((node) => graph.setNodeAttribute(node, 'size', 3 + Math.min(9, Math.sqrt(graph.degree(node)) * 1.6)));
  if (graph.order > 1) {
    const iterations = graph.order > 3000 ? 80 : graph.order > 800 ? 150 : 300;
    forceAtlas2.assign(graph, {
      iterations,
      settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: graph.order > 800, adjustSizes: false },
    });
  }
  return graph;
}

export async function graphView(context: ViewContext): Promise<View> {
  const data = await context.api.graph();
  const graph = buildGraph(data);
  const counts = new Map<string, number>();
  graph.forEachNode((_node, attributes) => {
    const stage = (attributes.stage as string | null) ?? '';
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  });
  const canvas = h('div', { class: 'graph-canvas', id: 'graph' });
  let focused: string | null = null;
  let renderer: Sigma | null = null;

  const legendItems = data.stages.map((stage) =>
    h(
      'li',
      { 'data-stage': stage.id },
      h(
        'button',
        { type: 'button', title: 'show only this stage (click again for all)', onclick: () => focus(stage.id) },
        h('span', { class: 'swatch', style: `background:${stage.color}` }),
        stage.name,
        ' ',
        h('span', { class: 'count' }, String(counts.get(stage.id) ?? 0)),
      ),
    ),
  );
  const unstaged = counts.get('') ?? 0;
  if (unstaged > 0) legendItems.push(h('li', {}, h('span', { class: 'swatch', style: `background:${FALLBACK_COLOR}` }), 'no stage ', h('span', { class: 'count' }, String(unstaged))));

  function focus(stage: string): void {
    focused = focused === stage ? null : stage;
    for (const item of legendItems) item.classList.toggle('active', focused !== null && item.dataset.stage === focused);
    if (!renderer) return;
    const hidden: string[] = [];
    const shown: string[] = [];
    graph.forEachNode((node, attributes) => (focused === null || attributes.stage === focused ? shown : hidden).push(node));
    renderer.setNodesState(hidden, { isHidden: true });
    renderer.setNodesState(shown, { isHidden: false });
    const hiddenEdges: string[] = [];
    const shownEdges: string[] = [];
    graph.forEachEdge((edge, _attributes, _source, _target, sourceAttributes, targetAttributes) =>
      (focused === null || (sourceAttributes.stage === focused && targetAttributes.stage === focused) ? shownEdges : hiddenEdges).push(edge),
    );
    renderer.setEdgesState(hiddenEdges, { isHidden: true });
    renderer.setEdgesState(shownEdges, { isHidden: false });
  }

  const element = h(
    'div',
    { class: 'view graph' },
    h('div', { class: 'graph-header' }, h('h1', {}, 'Program graph'), h('p', { class: 'meta' }, `${plural(graph.order, 'unit')} · ${plural(graph.size, 'edge')} · coloured by stage · click a unit to open it`)),
    data.truncated ? h('p', { class: 'notice-inline' }, 'The graph is large: only part of it is shown.') : null,
    h('div', { class: 'graph-body' }, canvas, h('aside', { class: 'legend' }, h('h2', {}, 'Stages'), h('ul', {}, legendItems))),
  );
  return {
    element,
    mounted() {
      renderer = new Sigma(graph, canvas, {
        settings: { labelRenderedSizeThreshold: 7, labelDensity: 0.6, allowInvalidContainer: true, minCameraRatio: 0.05, maxCameraRatio: 10 },
      });
      renderer.on('clickNode', ({ node }) => {
        location.hash = href.unit(node);
      });
      renderer.on('enterNode', () => canvas.classList.add('pointer'));
      renderer.on('leaveNode', () => canvas.classList.remove('pointer'));
      // For the console and the browser test: the live renderer (camera, node positions).
      (window as unknown as { handbookGraph?: Sigma }).handbookGraph = renderer;
      canvas.dataset.ready = 'true';
    },
    dispose() {
      renderer?.kill();
      renderer = null;
      delete (window as unknown as { handbookGraph?: Sigma }).handbookGraph;
    },
  };
}
