import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import type { EdgeKind, ProgramGraphData } from '../../src/graph/model.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import { FIXTURE, PROJECT_ROOT } from '../helpers/paths.js';

const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'mini-harness.graph.json');

let data: ProgramGraphData;
let graph: ProgramGraph;

beforeAll(() => {
  data = analyzeRepository(FIXTURE).graph;
  graph = new ProgramGraph(data);
});

const id = (file: string, symbol?: string) => (symbol ? `${file}#${symbol}` : file);
const edgesOf = (kind: EdgeKind, from?: string, to?: string) =>
  data.edges.filter((edge) => edge.kind === kind && (!from || edge.from === from) && (!to || edge.to === to));

describe('units of the fixture harness', () => {
  it.each([
    ['src/agent/agentLoop.ts', 'AgentLoop', 'class'],
    ['src/agent/agentLoop.ts', 'AgentLoop.constructor', 'constructor'],
    ['src/agent/agentLoop.ts', 'AgentLoop.run', 'method'],
    ['src/agent/agentLoop.ts', 'AgentLoop.step', 'method'],
    ['src/agent/agentLoop.ts', 'AgentLoop.onAbort', 'property'],
    ['src/agent/agentLoop.ts', 'TurnOutcome', 'enum'],
    ['src/agent/agentLoop.ts', 'CompactionReason', 'type'],
    ['src/agent/agentLoop.ts', 'activeRunId', 'variable'],
    ['src/agent/agentLoop.ts', 'currentRunId', 'function'],
    ['src/providers/provider.ts', 'ModelProvider', 'interface'],
    ['src/session/sessionStore.ts', 'SessionStore.id', 'accessor'],
    ['src/session/sessionStore.ts', 'SessionStore.id~2', 'accessor'],
    ['src/tools/validate.ts', 'validateToolArgs.typeOf', 'function'],
    ['src/hooks.ts', 'defaultHooks', 'variable'],
    ['src/hooks.ts', 'defaultHooks.onToolResult', 'property'],
    ['src/hooks.ts', 'defaultHooks.onError', 'property'],
    ['src/hooks.ts', 'defaultHooks.beforeModelCall', 'property'],
    ['src/config/loadConfig.ts', 'DEFAULT_CONFIG', 'variable'],
    ['src/security/secrets.ts', 'maskSecrets', 'function'],
  ])('%s#%s is a %s', (file, symbol, kind) => {
    expect(graph.getUnit(id(file, symbol))?.kind).toBe(kind);
  });

  it('gives every unit its exact line span, doc comment and export flag', () => {
    const mask = graph.getUnit(id('src/security/secrets.ts', 'maskSecrets'))!;
    expect(mask.startLine).toBe(27);
    expect(mask.exported).toBe(true);
    expect(mask.doc.length).toBeGreaterThan(0);
    expect(mask.signature).toMatch(/^export function maskSecrets\(/);
    const run = graph.getUnit(id('src/agent/agentLoop.ts', 'AgentLoop.run'))!;
    expect(run.startLine).toBe(58);
    expect(run.parent).toBe(id('src/agent/agentLoop.ts', 'AgentLoop'));
    expect(graph.getUnit(id('src/tools/files.ts', 'resolveInWorkspace'))!.exported).toBe(false);
  });

  it('keeps a unit hash when only whitespace changes', async () => {
    const { unitHasher } = await import('../../src/analyze/typescript/unit-text.js');
    const { ts } = await import('ts-morph');
    const parse = (text: string) => ts.createSourceFile('a.ts', text, ts.ScriptTarget.ES2022, true);
    const a = parse('function f(a: number) {\n  return a + 1;\n}');
    const b = parse('function f(a: number)   {  return a +\n 1; }');
    const c = parse('function f(a: number) { return a + 2; }');
    const hashOf = (file: ReturnType<typeof parse>) => unitHasher(file)(file.statements[0]!);
    expect(hashOf(a)).toBe(hashOf(b));
    expect(hashOf(a)).not.toBe(hashOf(c));
  });

  it.each([
    ['inside a string', "const f = () => 'a  b';", "const f = () => 'a b';"],
    ['inside a template literal', 'const f = () => `a  b`;', 'const f = () => `a b`;'],
    ['between the substitutions of a template', 'const f = (x: number) => `a ${x}  b`;', 'const f = (x: number) => `a ${x} b`;'],
    ['inside a regular expression', 'const f = (x: string) => /a  b/.test(x);', 'const f = (x: string) => /a b/.test(x);'],
    ['inside a line of JSX text', 'const f = () => <p>a  b</p>;', 'const f = () => <p>a b</p>;'],
    ['where a line break ends a return', 'function f(x: number) { return\n  x; }', 'function f(x: number) { return x; }'],
  ])('changes a unit hash when whitespace changes %s', async (_, before, after) => {
    expect(await tsxUnitHash(before)).not.toBe(await tsxUnitHash(after));
  });

  it('keeps a unit hash when JSX is re-indented or spaces move between tokens', async () => {
    const indented = 'const f = (x: number) => (\n  <p className="a  b">\n    sum: {x+1}\n  </p>\n);';
    expect(await tsxUnitHash(indented)).toBe(await tsxUnitHash('const f = (x: number) => (\n<p className="a  b">\n        sum: { x + 1 }\n</p>);'));
  });
});

/** The hash of the first statement of a .tsx file holding `text`. */
async function tsxUnitHash(text: string): Promise<string> {
  const { unitHasher } = await import('../../src/analyze/typescript/unit-text.js');
  const { ts } = await import('ts-morph');
  const file = ts.createSourceFile('a.tsx', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX);
  return unitHasher(file)(file.statements[0]!);
}

describe('edges of the fixture harness', () => {
  it('finds exactly the three callers of the secret-masking helper', () => {
    const callers = graph.callers(id('src/security/secrets.ts', 'maskSecrets')).map((caller) => caller.unit.id);
    expect(callers).toEqual([
      id('src/observability/logger.ts', 'Logger.write'),
      id('src/session/sessionStore.ts', 'SessionStore.save'),
      id('src/tools/shell.ts', 'runShellTool'),
    ]);
  });

  it('resolves a call through an interface to every implementation', () => {
    const step = id('src/agent/agentLoop.ts', 'AgentLoop.step');
    const targets = edgesOf('calls', step).filter((edge) => edge.via === 'dispatch').map((edge) => edge.to);
    expect(targets).toEqual([
      id('src/providers/anthropicProvider.ts', 'AnthropicProvider.complete'),
      id('src/providers/openaiProvider.ts', 'OpenAIProvider.complete'),
    ]);
    expect(edgesOf('calls', step, id('src/providers/anthropicProvider.ts', 'AnthropicProvider.complete'))[0]!.lines).toEqual([98]);
  });

  it('records handlers registered by reference', () => {
    const registered = edgesOf('references', id('src/tools/registry.ts', 'registerBuiltinTools')).map((edge) => edge.to);
    expect(registered).toEqual(
      expect.arrayContaining([
        id('src/tools/shell.ts', 'runShellTool'),
        id('src/tools/files.ts', 'readFileTool'),
        id('src/tools/files.ts', 'editFileTool'),
        id('src/tools/files.ts', 'writeFileTool'),
        id('src/tools/webFetch.ts', 'webFetchTool'),
      ]),
    );
    expect(edgesOf('references', id('src/agent/agentLoop.ts', 'AgentLoop.run'), id('src/agent/agentLoop.ts', 'AgentLoop.onAbort'))).toHaveLength(1);
  });

  it('records calls into hooks held in a config object', () => {
    const loop = (symbol: string) => id('src/agent/agentLoop.ts', symbol);
    expect(edgesOf('calls', loop('AgentLoop.handleToolCalls'), id('src/hooks.ts', 'defaultHooks.onToolResult'))).toHaveLength(1);
    expect(edgesOf('calls', id('src/hooks.ts', 'defaultHooks.onToolResult'), id('src/observability/telemetry.ts', 'recordToolCall'))).toHaveLength(1);
  });

  it('records instantiation, inheritance and implementation', () => {
    expect(edgesOf('instantiates', id('src/providers/createProvider.ts', 'createProvider')).map((edge) => edge.to)).toEqual([
      id('src/providers/anthropicProvider.ts', 'AnthropicProvider'),
      id('src/providers/openaiProvider.ts', 'OpenAIProvider'),
    ]);
    expect(edgesOf('extends', id('src/providers/anthropicProvider.ts', 'AnthropicProvider')).map((edge) => edge.to)).toEqual([
      id('src/providers/baseHttpProvider.ts', 'BaseHttpProvider'),
    ]);
    expect(edgesOf('implements').map((edge) => `${edge.from} -> ${edge.to}`)).toEqual([
      `${id('src/providers/anthropicProvider.ts', 'AnthropicProvider')} -> ${id('src/providers/provider.ts', 'ModelProvider')}`,
      `${id('src/providers/openaiProvider.ts', 'OpenAIProvider')} -> ${id('src/providers/provider.ts', 'ModelProvider')}`,
    ]);
    expect(edgesOf('calls', id('src/providers/anthropicProvider.ts', 'AnthropicProvider.complete'), id('src/providers/baseHttpProvider.ts', 'BaseHttpProvider.post'))).toHaveLength(1);
  });

  it('resolves imports: relative, barrel index, tsconfig path alias, and the circular pair', () => {
    const imports = (from: string) => edgesOf('imports', from).map((edge) => edge.to);
    expect(imports('src/observability/logger.ts')).toContain('src/security/secrets.ts');
    expect(imports('src/session/sessionStore.ts')).toContain('src/security/secrets.ts');
    expect(imports('src/index.ts')).toContain('src/agent/index.ts');
    expect(imports('src/agent/index.ts')).toEqual(['src/agent/agentLoop.ts', 'src/agent/promptBuilder.ts']);
    expect(imports('src/agent/agentLoop.ts')).toContain('src/context/compaction.ts');
    expect(imports('src/context/compaction.ts')).toContain('src/agent/agentLoop.ts');
  });

  it('keeps unresolvable calls with their text instead of guessing', () => {
    const dispatch = data.unresolved.filter((call) => call.from === id('src/tools/registry.ts', 'ToolRegistry.dispatch'));
    expect(dispatch).toContainEqual(expect.objectContaining({ text: 'handler', reason: 'dynamic' }));
    expect(data.unresolved).toContainEqual(expect.objectContaining({ from: id('src/providers/openaiProvider.ts', 'OpenAIProvider.complete'), text: 'fetch', reason: 'external' }));
  });
});

describe('state reads and writes', () => {
  const access = (slot: string, kind: 'reads' | 'writes') =>
    Object.fromEntries(edgesOf(kind, undefined, slot).map((edge) => [edge.from.slice(edge.from.indexOf('#') + 1), edge.lines]));

  it('tracks a shared session field written through another object', () => {
    const slot = id('src/session/sessionStore.ts', 'SessionStore.history');
    expect(access(slot, 'writes')).toEqual({
      'AgentLoop.run': [63],
      'AgentLoop.step': [89, 101],
      'AgentLoop.handleToolCalls': [117],
      'SessionStore.appendMessage': [50],
      'SessionStore.load': [73],
    });
    expect(access(slot, 'reads')).toEqual({ 'AgentLoop.step': [87, 88, 89, 90, 94], 'SessionStore.save': [60] });
  });

  it('tracks class fields, module variables and mutated module arrays', () => {
    expect(access(id('src/agent/agentLoop.ts', 'AgentLoop.turnCount'), 'writes')).toEqual({ 'AgentLoop.run': [60], 'AgentLoop.step': [86] });
    expect(access(id('src/agent/agentLoop.ts', 'AgentLoop.turnCount'), 'reads')).toEqual({ 'AgentLoop.run': [69] });
    expect(access(id('src/agent/agentLoop.ts', 'activeRunId'), 'writes')).toEqual({ 'AgentLoop.run': [59] });
    expect(access(id('src/agent/agentLoop.ts', 'activeRunId'), 'reads')).toEqual({ currentRunId: [29], 'AgentLoop.onAbort': [54], 'AgentLoop.run': [64] });
    expect(access(id('src/observability/telemetry.ts', 'spans'), 'writes')).toEqual({ recordToolCall: [17], flushTelemetry: [42] });
    expect(access(id('src/tools/approval.ts', 'ApprovalGate.decisions'), 'writes')).toEqual({ 'ApprovalGate.remember': [37], 'ApprovalGate.reset': [42] });
    expect(access(id('src/tools/approval.ts', 'ApprovalGate.decisions'), 'reads')).toEqual({ 'ApprovalGate.check': [32] });
  });

  it('identifies a config property by its declaring type, wherever it is read', () => {
    const readers = Object.keys(access(id('src/config/loadConfig.ts', 'HarnessConfig.approvalMode'), 'reads')).sort();
    expect(readers).toEqual(['AgentLoop.handleToolCalls', 'AgentLoop.isApproved', 'buildSystemPrompt', 'requiresApproval', 'validateConfig']);
  });
});

describe('the exported graph', () => {
  it('matches the golden file (UPDATE_GOLDENS=true rewrites it)', () => {
    const text = `${JSON.stringify(data, null, 1)}\n`;
    if (process.env.UPDATE_GOLDENS === 'true') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('is identical across two analyses of the same tree', () => {
    expect(JSON.stringify(analyzeRepository(FIXTURE).graph)).toBe(JSON.stringify(data));
  });
});
