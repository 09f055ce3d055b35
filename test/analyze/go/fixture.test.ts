import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goFrontEnd } from '../../../src/analyze/go/go-front-end.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';
import { access, edgeList, extract, findEdge } from './go-kit.js';

const ROOT = path.join(PROJECT_ROOT, 'fixtures/go-harness');

function goFiles(directory: string): string[] {
  return readdirSync(directory).sort().flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? goFiles(full) : name.endsWith('.go') ? [full] : [];
  });
}

const sources = goFiles(ROOT).map((full) => [path.relative(ROOT, full).split(path.sep).join('/'), readFileSync(full, 'utf8')] as const);

function resolveInOrder(order: ReadonlyArray<readonly [string, string]>) {
  return goFrontEnd.resolve(new Map(order.map(([file, text]) => [file, extract(file, text)])));
}

const AGENT = 'internal/agent/loop.go';
const CLIENT = 'internal/model/client.go';

describe('the go-harness fixture', () => {
  const resolved = resolveInOrder(sources);
  const edges = [...resolved.files.values()].flatMap((resolution) => resolution.edges);
  const fileOf = (file: string) => resolved.files.get(file)!;

  it('parses every file cleanly', () => {
    for (const [file, text] of sources) expect(extract(file, text).parseErrors, file).toBe(0);
  });

  it('follows the agent loop into the model client, the tool registry and the approval policy', () => {
    expect(findEdge(edges, 'calls', `${AGENT}#Agent.step`, `${CLIENT}#Client.Complete`)).toMatchObject({ via: 'direct', resolution: 'scope', lines: [68] });
    expect(findEdge(edges, 'calls', `${AGENT}#Agent.runTool`, 'internal/tools/registry.go#Registry.Dispatch')).toBeDefined();
    expect(edgeList(edges, 'calls').filter((edge) => edge.startsWith(`${AGENT}#Agent.runTool `) && edge.includes('.Decide'))).toEqual([
      `${AGENT}#Agent.runTool -> internal/approval/policy.go#Ask.Decide`,
      `${AGENT}#Agent.runTool -> internal/approval/policy.go#AutoApprove.Decide`,
      `${AGENT}#Agent.runTool -> internal/approval/policy.go#DenyList.Decide`,
    ]);
  });

  it('dispatches the client’s provider call to both providers, which post through their embedded base', () => {
    for (const provider of ['anthropic.go#AnthropicProvider', 'openai.go#OpenAIProvider']) {
      expect(findEdge(edges, 'calls', `${CLIENT}#Client.Complete`, `internal/model/${provider}.Complete`)).toMatchObject({ via: 'dispatch', resolution: 'name', lines: [42] });
      expect(findEdge(edges, 'calls', `internal/model/${provider}.Complete`, 'internal/model/http_base.go#httpBase.post')?.via).toBe('direct');
    }
  });

  it('implements the interfaces by method sets and extends the embedded structs', () => {
    expect(edgeList(resolved.heritage, 'implements')).toEqual([
      'internal/approval/policy.go#Ask -> internal/approval/policy.go#Policy',
      'internal/approval/policy.go#AutoApprove -> internal/approval/policy.go#Policy',
      'internal/approval/policy.go#DenyList -> internal/approval/policy.go#Policy',
      'internal/model/anthropic.go#AnthropicProvider -> internal/model/provider.go#Provider',
      'internal/model/openai.go#OpenAIProvider -> internal/model/provider.go#Provider',
    ]);
    expect(edgeList(resolved.heritage, 'extends')).toEqual([
      'internal/agent/loop.go#Agent -> internal/agent/hooks.go#Hooks',
      'internal/model/anthropic.go#AnthropicProvider -> internal/model/http_base.go#httpBase',
      'internal/model/openai.go#OpenAIProvider -> internal/model/http_base.go#httpBase',
    ]);
  });

  it('finds the tool handlers through the registry map, and leaves the call of a handler dynamic', () => {
    expect(edgeList(edges, 'references').filter((edge) => edge.startsWith('internal/tools/registry.go#builtins '))).toEqual([
      'internal/tools/registry.go#builtins -> internal/tools/edit.go#editFile',
      'internal/tools/registry.go#builtins -> internal/tools/edit.go#readFile',
      'internal/tools/registry.go#builtins -> internal/tools/shell.go#runBash',
    ]);
    expect(fileOf('internal/tools/registry.go').unresolved.filter((call) => call.reason === 'dynamic').map((call) => call.text)).toEqual(['r.onCall', 'handler']);
  });

  it('shows which capture paths mask secrets and which do not', () => {
    const masks = edgeList(edges, 'calls').filter((edge) => edge.endsWith('-> internal/security/mask.go#MaskSecrets')).map((edge) => edge.split(' ')[0]);
    expect(masks).toEqual(['internal/model/http_base.go#httpBase.post', 'internal/session/store.go#Store.Save', 'internal/tools/shell.go#runBash']);
    expect(findEdge(edges, 'calls', 'internal/model/http_base.go#httpBase.post', 'internal/logging/logger.go#Capture')).toBeDefined();
  });

  it('reads goroutines and defer as calls, and the command wires the parts', () => {
    expect(findEdge(edges, 'calls', `${AGENT}#Agent.Run`, 'internal/agent/events.go#EventBus.Pump')?.lines).toEqual([50]);
    expect(findEdge(edges, 'calls', `${AGENT}#Agent.Run`, `${AGENT}#Agent.save`)?.lines).toEqual([51]);
    const run = edgeList(fileOf('cmd/goharness/main.go').edges, 'calls').filter((edge) => edge.startsWith('cmd/goharness/main.go#run '));
    expect(run).toEqual(expect.arrayContaining([
      `cmd/goharness/main.go#run -> ${AGENT}#Agent.Run`,
      `cmd/goharness/main.go#run -> ${AGENT}#New`,
      `cmd/goharness/main.go#run -> ${CLIENT}#NewClient`,
      'cmd/goharness/main.go#run -> internal/model/factory.go#NewProvider',
    ]));
    expect(access(fileOf('cmd/goharness/main.go').edges, 'cmd/goharness/main.go#run', 'internal/agent/hooks.go#Hooks.OnTurn')).toBe('writes 60');
  });

  it('keeps the state package-level variables and fields hold', () => {
    expect(fileOf('internal/logging/logger.go').slots.map((slot) => slot.id)).toEqual([
      'internal/logging/logger.go#captured', 'internal/logging/logger.go#level', 'internal/logging/logger.go#lines', 'internal/logging/logger.go#output',
    ]);
    expect(access(edges, 'internal/logging/logger.go#logf', 'internal/logging/logger.go#lines')).toBe('reads 59 writes 59');
    expect(access(edges, 'internal/tools/registry.go#Register', 'internal/tools/registry.go#builtins')).toBe('reads 29 writes 29');
    expect(access(edges, `${CLIENT}#Client.Complete`, `${CLIENT}#totalRequests`)).toBe('reads 41 writes 41');
    expect(access(edges, 'internal/model/http_base.go#httpBase.post', 'internal/model/http_base.go#httpBase.requests')).toBe('reads 47 writes 47');
    expect(findEdge(edges, 'references', 'internal/tools/registry.go#Registry.NeedsApproval', 'internal/tools/registry.go#mutating')).toBeDefined();
  });

  it('imports the files of each package, and names what comes from outside', () => {
    expect(edgeList(fileOf('cmd/goharness/main.go').edges, 'imports').filter((edge) => edge.includes('internal/agent/'))).toEqual([
      'cmd/goharness/main.go -> internal/agent/events.go',
      'cmd/goharness/main.go -> internal/agent/hooks.go',
      'cmd/goharness/main.go -> internal/agent/loop.go',
    ]);
    expect(fileOf('internal/tools/shell.go').externalImports).toEqual(['context', 'errors', 'os/exec', 'strings', 'time']);
  });

  it('gives test files and testdata their imports only', () => {
    expect(edgeList(fileOf('internal/tools/registry_test.go').edges, 'imports')).toEqual([
      'internal/tools/registry_test.go -> internal/tools/edit.go',
      'internal/tools/registry_test.go -> internal/tools/registry.go',
      'internal/tools/registry_test.go -> internal/tools/shell.go',
    ]);
    for (const [file, text] of sources.filter(([name]) => goFrontEnd.isTestPath(name))) expect(extract(file, text).units, file).toHaveLength(1);
    expect(fileOf('internal/agent/loop_test.go').edges.every((edge) => edge.kind === 'imports')).toBe(true);
  });

  it('resolves the same whatever order the files come in, and again', () => {
    const canonical = (result: typeof resolved) => JSON.stringify({ files: [...result.files].sort(([a], [b]) => (a < b ? -1 : 1)), heritage: result.heritage });
    expect(canonical(resolveInOrder([...sources].reverse()))).toBe(canonical(resolved));
    const files = new Map(sources.map(([file, text]) => [file, extract(file, text)]));
    const first = canonical(goFrontEnd.resolve(files));
    expect(canonical(goFrontEnd.resolve(files))).toBe(first);
    expect(first).toBe(canonical(resolved));
  });

  it('extracts the same units from the same text', () => {
    const [file, text] = sources.find(([name]) => name === AGENT)!;
    expect(JSON.stringify(extract(file, text))).toBe(JSON.stringify(extract(file, text)));
  });
});
