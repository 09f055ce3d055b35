import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rustFrontEnd } from '../../../src/analyze/rust/rust-front-end.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';
import { access, edgeList, extract, findEdge } from './rust-kit.js';

const ROOT = path.join(PROJECT_ROOT, 'fixtures/rust-harness');
const CORE = 'crates/core/src';

function rustFiles(directory: string): string[] {
  return readdirSync(directory).sort().flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? rustFiles(full) : name.endsWith('.rs') ? [full] : [];
  });
}

const sources = rustFiles(ROOT).map((full) => [path.relative(ROOT, full).split(path.sep).join('/'), readFileSync(full, 'utf8')] as const);

function resolveInOrder(order: ReadonlyArray<readonly [string, string]>) {
  return rustFrontEnd.resolve(new Map(order.map(([file, text]) => [file, extract(file, text)])));
}

describe('the rust-harness fixture', () => {
  const resolved = resolveInOrder(sources);
  const edges = [...resolved.files.values()].flatMap((resolution) => resolution.edges);
  const id = (file: string, symbol: string) => `${CORE}/${file}#${symbol}`;

  it('parses every file cleanly', () => {
    for (const [file, text] of sources) expect({ file, errors: extract(file, text).parseErrors }).toEqual({ file, errors: 0 });
  });

  it('follows the agent loop into the provider trait, dispatched to both vendors, with retries', () => {
    expect(findEdge(edges, 'calls', id('agent.rs', 'Agent.run'), id('agent.rs', 'Agent.step'))?.via).toBe('direct');
    expect(findEdge(edges, 'calls', id('agent.rs', 'Agent.step'), id('model/provider.rs', 'Provider.complete_with_retry'))).toMatchObject({ via: 'direct', resolution: 'scope' });
    for (const vendor of ['model/openai.rs#OpenAiProvider', 'model/anthropic.rs#AnthropicProvider']) {
      expect(findEdge(edges, 'calls', id('model/provider.rs', 'Provider.complete_with_retry'), `${CORE}/${vendor}.Provider.complete`)).toMatchObject({ via: 'dispatch', resolution: 'scope' });
    }
    expect(findEdge(edges, 'calls', id('model/provider.rs', 'Provider.complete_with_retry'), id('model/retry.rs', 'with_backoff'))).toBeDefined();
    expect(findEdge(edges, 'calls', id('model/retry.rs', 'with_backoff'), id('error.rs', 'HarnessError.is_retryable'))?.resolution).toBe('name');
  });

  it('runs tool calls past the approver (a trait default, dispatched) into the registry of fn handlers', () => {
    expect(findEdge(edges, 'calls', id('agent.rs', 'Agent.handle_tool_call'), id('approval.rs', 'Approver.check'))?.via).toBe('direct');
    expect(edgeList(edges, 'calls').filter((edge) => edge.startsWith(`${id('approval.rs', 'Approver.check')} `))).toEqual([
      `${id('approval.rs', 'Approver.check')} -> ${id('approval.rs', 'AutoApprove.Approver.decide')}`,
      `${id('approval.rs', 'Approver.check')} -> ${id('approval.rs', 'PromptApprover.Approver.decide')}`,
      `${id('approval.rs', 'Approver.check')} -> ${id('security.rs', 'is_dangerous')}`,
    ]);
    expect(findEdge(edges, 'calls', id('agent.rs', 'Agent.handle_tool_call'), id('tools/registry.rs', 'ToolRegistry.dispatch'))).toBeDefined();
    expect(edgeList(edges, 'references').filter((edge) => edge.startsWith(`${id('tools/registry.rs', 'ToolRegistry.with_defaults')} `))).toEqual([
      `${id('tools/registry.rs', 'ToolRegistry.with_defaults')} -> ${id('tools/file_edit.rs', 'edit_file')}`,
      `${id('tools/registry.rs', 'ToolRegistry.with_defaults')} -> ${id('tools/file_edit.rs', 'read_file')}`,
      `${id('tools/registry.rs', 'ToolRegistry.with_defaults')} -> ${id('tools/shell.rs', 'run_shell')}`,
    ]);
    expect(resolved.files.get(`${CORE}/tools/registry.rs`)!.unresolved).toEqual([
      { from: id('tools/registry.rs', 'ToolRegistry.new'), text: 'HashMap::new', line: 33, reason: 'external' },
      { from: id('tools/registry.rs', 'ToolRegistry.dispatch'), text: 'handler', line: 59, reason: 'dynamic' },
    ]);
  });

  it('shows which capture paths mask secrets and which do not', () => {
    const masking = edgeList(edges, 'calls').filter((edge) => edge.endsWith(` -> ${id('security.rs', 'mask_secrets')}`)).map((edge) => edge.split(' -> ')[0]);
    expect(masking).toEqual([
      id('agent.rs', 'Agent.summary'),
      id('model/openai.rs', 'OpenAiProvider.Provider.complete'),
      id('tools/file_edit.rs', 'read_file'),
      id('tools/shell.rs', 'capture'),
      id('tools/shell.rs', 'run_shell'),
    ]);
    // A tool's error goes to the model through handle_tool_call, unmasked.
    expect(masking).not.toContain(id('agent.rs', 'Agent.handle_tool_call'));
  });

  it('finds the session history written through its Arc<Mutex<..>>, and the static counter', () => {
    const session = resolved.files.get(`${CORE}/session.rs`)!;
    expect(access(session.edges, id('session.rs', 'Session.record'), id('session.rs', 'Session.history'))).toBe('reads 30 writes 30');
    expect(access(session.edges, id('session.rs', 'Session.compact'), id('session.rs', 'Session.history'))).toBe('reads 45 writes 48,49,50');
    expect(access(session.edges, id('session.rs', 'Session.messages'), id('session.rs', 'Session.history'))).toBe('reads 35');
    expect(access(session.edges, id('session.rs', 'Session.new'), id('session.rs', 'SESSION_COUNTER'))).toBe('reads 24 writes 24');
    expect(session.slots.find((slot) => slot.id === id('session.rs', 'SESSION_COUNTER'))).toMatchObject({ kind: 'module-variable', line: 12, type: 'AtomicUsize' });
    expect(access(resolved.files.get(`${CORE}/logging.rs`)!.edges, id('logging.rs', 'log_line'), id('logging.rs', 'LOG'))).toBe('reads 21 writes 21');
    expect(access(edges, id('agent.rs', 'Agent.run'), id('agent.rs', 'Agent.steps'))).toBe('reads 43,44 writes 44');
  });

  it('leaves the #[cfg(test)] modules out and gives the tests/ file its imports', () => {
    const units = [...sources].flatMap(([file, text]) => extract(file, text).units);
    expect(units.filter((unit) => unit.symbol.startsWith('tests.') || unit.symbol === 'tests')).toEqual([]);
    expect(edgeList(resolved.files.get('crates/core/tests/agent_loop.rs')!.edges, 'imports')).toEqual([
      `crates/core/tests/agent_loop.rs -> ${CORE}/approval.rs`,
      `crates/core/tests/agent_loop.rs -> ${CORE}/lib.rs`,
      `crates/core/tests/agent_loop.rs -> ${CORE}/model/mod.rs`,
    ]);
  });

  it('crosses from the cli crate into harness_core (the crate in crates/core)', () => {
    const main = resolved.files.get('crates/cli/src/main.rs')!;
    expect(edgeList(main.edges, 'calls')).toEqual(expect.arrayContaining([
      `crates/cli/src/main.rs#main -> crates/cli/src/args.rs#Args.parse`,
      `crates/cli/src/main.rs#main -> ${id('agent.rs', 'Agent.new')}`,
      `crates/cli/src/main.rs#main -> ${id('agent.rs', 'Agent.run')}`,
      `crates/cli/src/main.rs#main -> ${id('session.rs', 'Session.save')}`,
      `crates/cli/src/main.rs#main -> ${id('model/mod.rs', 'provider_for')}`,
    ]));
    expect(main.externalImports).toEqual(['std']);
    expect(edgeList(main.edges, 'imports')).toContain(`crates/cli/src/main.rs -> ${CORE}/agent.rs`);
  });

  it('records the trait impls', () => {
    expect(edgeList(resolved.heritage, 'implements')).toEqual([
      `${id('approval.rs', 'AutoApprove')} -> ${id('approval.rs', 'Approver')}`,
      `${id('approval.rs', 'PromptApprover')} -> ${id('approval.rs', 'Approver')}`,
      `${id('model/anthropic.rs', 'AnthropicProvider')} -> ${id('model/provider.rs', 'Provider')}`,
      `${id('model/openai.rs', 'OpenAiProvider')} -> ${id('model/provider.rs', 'Provider')}`,
    ]);
  });

  it('resolves the same whatever order the files come in, and again', () => {
    const canonical = (result: typeof resolved) => JSON.stringify({ files: [...result.files].sort(([a], [b]) => (a < b ? -1 : 1)), heritage: result.heritage });
    expect(canonical(resolveInOrder([...sources].reverse()))).toBe(canonical(resolved));
    const files = new Map(sources.map(([file, text]) => [file, extract(file, text)]));
    const first = canonical(rustFrontEnd.resolve(files));
    // Resolving leaves its input as it found it: the same extracted files resolve the same again.
    expect(canonical(rustFrontEnd.resolve(files))).toBe(first);
    expect(first).toBe(canonical(resolved));
  });

  it('extracts the same units from the same text', () => {
    const [file, text] = sources.find(([name]) => name.endsWith('agent.rs'))!;
    expect(JSON.stringify(extract(file, text))).toBe(JSON.stringify(extract(file, text)));
  });
});
