import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../../src/analyze/analyze-repository.js';
import type { EdgeKind, ProgramGraphData } from '../../../src/graph/model.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';

const FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'go-harness');
const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'go-harness.graph.json');

let data: ProgramGraphData;

beforeAll(() => {
  data = analyzeRepository(FIXTURE).graph;
});

const edges = (kind: EdgeKind, match: (from: string, to: string) => boolean): string[] =>
  data.edges.filter((edge) => edge.kind === kind && match(edge.from, edge.to)).map((edge) => `${edge.from} -> ${edge.to} ${edge.lines.join(',')}`);

describe('the Go fixture harness, end to end through the analysis session', () => {
  it('reads every .go file, _test.go files as tests', () => {
    expect(data.files.filter((file) => file.path.endsWith('_test.go')).every((file) => file.test)).toBe(true);
    expect(data.files.some((file) => !file.test && file.path === 'cmd/goharness/main.go')).toBe(true);
  });

  it('masks secrets on the capture paths that call the helper, and no others', () => {
    expect(edges('calls', (_from, to) => to === 'internal/security/mask.go#MaskSecrets')).toEqual([
      'internal/model/http_base.go#httpBase.post -> internal/security/mask.go#MaskSecrets 51',
      'internal/session/store.go#Store.Save -> internal/security/mask.go#MaskSecrets 61',
      'internal/tools/shell.go#runBash -> internal/security/mask.go#MaskSecrets 29',
    ]);
  });

  it('finds interface satisfaction by method sets (by name), and embedding as extends (by scope)', () => {
    expect(data.edges.filter((edge) => edge.kind === 'implements').map((edge) => `${edge.from} -> ${edge.to} ${edge.resolution}`)).toEqual([
      'internal/approval/policy.go#Ask -> internal/approval/policy.go#Policy name',
      'internal/approval/policy.go#AutoApprove -> internal/approval/policy.go#Policy name',
      'internal/approval/policy.go#DenyList -> internal/approval/policy.go#Policy name',
      'internal/model/anthropic.go#AnthropicProvider -> internal/model/provider.go#Provider name',
      'internal/model/openai.go#OpenAIProvider -> internal/model/provider.go#Provider name',
    ]);
    expect(edges('extends', () => true).map((edge) => edge.split(' ').slice(0, 3).join(' '))).toEqual([
      'internal/agent/loop.go#Agent -> internal/agent/hooks.go#Hooks',
      'internal/model/anthropic.go#AnthropicProvider -> internal/model/http_base.go#httpBase',
      'internal/model/openai.go#OpenAIProvider -> internal/model/http_base.go#httpBase',
    ]);
  });

  it('matches the golden file (UPDATE_GOLDENS=true rewrites it)', () => {
    const text = `${JSON.stringify(data, null, 1)}\n`;
    if (process.env.UPDATE_GOLDENS === 'true') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});
