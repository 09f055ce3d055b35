import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonFrontEnd } from '../../../src/analyze/python/python-front-end.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';
import { edgeList, extract, findEdge } from './python-kit.js';

const ROOT = path.join(PROJECT_ROOT, 'fixtures/py-harness');

function pythonFiles(directory: string): string[] {
  return readdirSync(directory).sort().flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? pythonFiles(full) : name.endsWith('.py') ? [full] : [];
  });
}

const sources = pythonFiles(ROOT).map((full) => [path.relative(ROOT, full).split(path.sep).join('/'), readFileSync(full, 'utf8')] as const);

function resolveInOrder(order: ReadonlyArray<readonly [string, string]>) {
  return pythonFrontEnd.resolve(new Map(order.map(([file, text]) => [file, extract(file, text)])));
}

describe('the py-harness fixture', () => {
  const resolved = resolveInOrder(sources);
  const edges = [...resolved.files.values()].flatMap((resolution) => resolution.edges);

  it('follows the agent loop into the model client and the tool registry', () => {
    expect(findEdge(edges, 'calls', 'src/pyharness/agent/loop.py#Agent.step', 'src/pyharness/model/client.py#ModelClient.complete')?.via).toBe('direct');
    expect(findEdge(edges, 'calls', 'src/pyharness/agent/loop.py#Agent.step', 'src/pyharness/model/openai_client.py#OpenAIClient.complete')?.via).toBe('dispatch');
    expect(findEdge(edges, 'calls', 'src/pyharness/agent/loop.py#Agent._run_tool', 'src/pyharness/tools/registry.py#ToolRegistry.dispatch')).toBeDefined();
    expect(findEdge(edges, 'instantiates', 'src/pyharness/cli.py#main', 'src/pyharness/agent/loop.py#Agent')).toBeDefined();
  });

  it('finds the tool handlers through the registry dict and the plugin decorator', () => {
    expect(edgeList(edges, 'references').filter((edge) => edge.startsWith('src/pyharness/tools/registry.py#HANDLERS '))).toHaveLength(4);
    expect(findEdge(edges, 'calls', 'src/pyharness/plugins/git_tools.py#git_status', 'src/pyharness/tools/registry.py#tool')).toBeDefined();
  });

  it('gives the tests their imports of the package under src/', () => {
    expect(edgeList(resolved.files.get('tests/test_agent.py')!.edges, 'imports')).toContain('tests/test_agent.py -> src/pyharness/__init__.py');
  });

  it('extends the model client and the approval policies', () => {
    expect(edgeList(resolved.heritage, 'extends')).toContain('src/pyharness/model/openai_client.py#OpenAIClient -> src/pyharness/model/client.py#ModelClient');
  });

  it('resolves the same whatever order the files come in, and again', () => {
    const shuffled = [...sources].reverse();
    const again = resolveInOrder(shuffled);
    const canonical = (result: typeof resolved) => JSON.stringify({ files: [...result.files].sort(([a], [b]) => (a < b ? -1 : 1)), heritage: result.heritage });
    expect(canonical(again)).toBe(canonical(resolved));
    expect(canonical(resolveInOrder(sources))).toBe(canonical(resolved));
    // Resolving leaves its input as it found it: the same extracted files resolve the same again.
    const files = new Map(sources.map(([file, text]) => [file, extract(file, text)]));
    const first = canonical(pythonFrontEnd.resolve(files));
    expect(canonical(pythonFrontEnd.resolve(files))).toBe(first);
    expect(first).toBe(canonical(resolved));
  });

  it('extracts the same units from the same text', () => {
    const [file, text] = sources.find(([name]) => name.endsWith('agent/loop.py'))!;
    expect(JSON.stringify(extract(file, text))).toBe(JSON.stringify(extract(file, text)));
  });
});
