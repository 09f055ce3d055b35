import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../../src/analyze/analyze-repository.js';
import type { EdgeKind, ProgramGraphData } from '../../../src/graph/model.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';

const FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'rust-harness');
const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'rust-harness.graph.json');

let data: ProgramGraphData;

beforeAll(() => {
  data = analyzeRepository(FIXTURE).graph;
});

const edges = (kind: EdgeKind, match: (from: string, to: string) => boolean): string[] =>
  data.edges.filter((edge) => edge.kind === kind && match(edge.from, edge.to)).map((edge) => `${edge.from} -> ${edge.to} ${edge.lines.join(',')}`);

describe('the Rust fixture harness, end to end through the analysis session', () => {
  it('reads every .rs file, tests/ as tests', () => {
    expect(data.files.filter((file) => file.path.includes('/tests/')).every((file) => file.test)).toBe(true);
    expect(data.files.some((file) => !file.test && file.path === 'crates/cli/src/main.rs')).toBe(true);
  });

  it('masks secrets on the capture paths that call the helper, and no others', () => {
    expect(edges('calls', (_from, to) => to.endsWith('#mask_secrets'))).toMatchSnapshot();
  });

  it('finds trait implementations as implements edges', () => {
    expect(data.edges.filter((edge) => edge.kind === 'implements').map((edge) => `${edge.from} -> ${edge.to} ${edge.resolution}`)).toMatchSnapshot();
  });

  it('matches the golden file (UPDATE_GOLDENS=true rewrites it)', () => {
    const text = `${JSON.stringify(data, null, 1)}\n`;
    if (process.env.UPDATE_GOLDENS === 'true') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});
