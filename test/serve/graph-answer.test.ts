import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook, type Handbook } from '../../src/index.js';
import { graphResponseSchema } from '../../src/serve/api-schemas.js';
import { graphAnswer } from '../../src/serve/graph-answer.js';
import { primaryBehaviors, primaryStages } from '../../src/serve/primary-stages.js';
import { stageColor } from '../../src/serve/stage-color.js';
import { copyOfFixture } from '../helpers/paths.js';

describe('the graph answer', () => {
  let handbook: Handbook;
  beforeAll(async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    handbook = openHandbook(repo);
  });

  it('keeps the most connected units under the cap, and only the edges between them', () => {
    const whole = graphResponseSchema.parse(graphAnswer(handbook, primaryStages(handbook)));
    const degree = new Map<string, number>();
    for (const edge of whole.edges) for (const end of [edge.source, edge.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
    const capped = graphResponseSchema.parse(graphAnswer(handbook, primaryStages(handbook), primaryBehaviors(handbook), 10));
    expect(capped.truncated).toBe(true);
    expect(capped.nodes).toHaveLength(10);
    const kept = new Set(capped.nodes.map((node) => node.id));
    const leastKept = Math.min(...capped.nodes.map((node) => degree.get(node.id) ?? 0));
    expect(whole.nodes.filter((node) => !kept.has(node.id)).every((node) => (degree.get(node.id) ?? 0) <= leastKept)).toBe(true);
    expect(capped.edges).toEqual(whole.edges.filter((edge) => kept.has(edge.source) && kept.has(edge.target)));
    expect(capped.stages).toEqual(whole.stages);
  });

  it("names each placed node's behaviour, one of its own stage's", () => {
    const whole = graphResponseSchema.parse(graphAnswer(handbook, primaryStages(handbook), primaryBehaviors(handbook)));
    const stageOfBehavior = new Map(handbook.organized.stages.flatMap((stage) => stage.behaviors.map((behavior) => [behavior.id, stage.id] as const)));
    const placed = whole.nodes.filter((node) => node.stage !== null);
    expect(placed.length).toBeGreaterThan(0);
    for (const node of placed) expect(stageOfBehavior.get(node.behavior ?? '')).toBe(node.stage);
    for (const node of whole.nodes.filter((each) => each.stage === null)) expect(node.behavior).toBeNull();
  });

  it('gives each stage position its own color, the same every time', () => {
    const colors = Array.from({ length: 24 }, (_, position) => stageColor(position));
    expect(new Set(colors).size).toBe(24);
    expect(colors.every((color) => /^#[0-9a-f]{6}$/.test(color))).toBe(true);
    expect(stageColor(0)).toBe('#c62f2f');
  });
});
