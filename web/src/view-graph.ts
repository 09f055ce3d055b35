import Sigma from 'sigma';
import type { View, ViewContext } from './context.js';
import { h, plural } from './dom.js';
import { href } from './router.js';
import { buildGraph, FALLBACK_COLOR } from './graph-layout.js';

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
