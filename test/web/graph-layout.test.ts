import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook } from '../../src/index.js';
import { graphResponseSchema, type GraphResponse } from '../../src/serve/api-schemas.js';
import { graphAnswer } from '../../src/serve/graph-answer.js';
import { primaryBehaviors, primaryStages } from '../../src/serve/primary-stages.js';
import { copyOfFixture } from '../helpers/paths.js';

/** What the test reads of the laid-out graph. */
interface LaidOut {
  getNodeAttribute(node: string, name: string): number;
  forEachNode(callback: (node: string, attributes: { x: number; y: number }) => void): void;
}

// The app's module is written for the bundler's module resolution (graphology's default export is
// the Graph class there); imported through a specifier TypeScript does not follow, the project's
// NodeNext type check leaves it to web/tsconfig.json, and vitest loads it as the bundle does.
const layoutModule = '../../web/src/graph-layout.js';
let buildGraph: (data: GraphResponse) => LaidOut;

/** Mean distance between nodes of one behaviour over mean distance between nodes of different behaviours of the same stage: under 1 is clustered. */
function clustering(data: GraphResponse, behaviorOf: (node: GraphResponse['nodes'][number]) => string | null): number {
  const graph = buildGraph({ ...data, nodes: data.nodes.map((node) => ({ ...node, behavior: behaviorOf(node) })) });
  const placed = data.nodes.filter((node) => node.stage !== null && node.behavior !== null);
  let inside = 0;
  let insideCount = 0;
  let across = 0;
  let acrossCount = 0;
  for (const [at, a] of placed.entries()) {
    for (const b of placed.slice(at + 1)) {
      if (a.stage !== b.stage) continue;
      const distance = Math.hypot(graph.getNodeAttribute(a.id, 'x') - graph.getNodeAttribute(b.id, 'x'), graph.getNodeAttribute(a.id, 'y') - graph.getNodeAttribute(b.id, 'y'));
      if (a.behavior === b.behavior) {
        inside += distance;
        insideCount += 1;
      } else {
        across += distance;
        acrossCount += 1;
      }
    }
  }
  expect(insideCount).toBeGreaterThan(0);
  expect(acrossCount).toBeGreaterThan(0);
  return inside / insideCount / (across / acrossCount);
}

describe("the viewer's graph layout", () => {
  let data: GraphResponse;
  beforeAll(async () => {
    ({ buildGraph } = (await import(layoutModule)) as { buildGraph: typeof buildGraph });
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const handbook = openHandbook(repo);
    data = graphResponseSchema.parse(graphAnswer(handbook, primaryStages(handbook), primaryBehaviors(handbook)));
  });

  it("clusters each stage's units by behaviour: nodes of one behaviour lie closer together than the stage's nodes of different behaviours, and closer than the layout without behaviours puts them", () => {
    const clustered = clustering(data, (node) => node.behavior);
    const unclustered = clustering(data, () => null);
    expect(clustered).toBeLessThan(0.8);
    expect(clustered).toBeLessThan(unclustered);
  });

  it('lays out the same graph the same way every time', () => {
    const first = buildGraph(data);
    const second = buildGraph(data);
    first.forEachNode((node, attributes) => {
      expect(second.getNodeAttribute(node, 'x')).toBe(attributes.x);
      expect(second.getNodeAttribute(node, 'y')).toBe(attributes.y);
    });
  });
});
