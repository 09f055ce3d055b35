import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../../src/analyze/analyze-repository.js';
import type { EdgeKind, ProgramGraphData } from '../../../src/graph/model.js';
import { PROJECT_ROOT } from '../../helpers/paths.js';

const FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'py-harness');
const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'py-harness.graph.json');
const P = 'src/pyharness';

let data: ProgramGraphData;

beforeAll(() => {
  data = analyzeRepository(FIXTURE).graph;
});

/** `kind from -> to`, for the edges of a kind from (or to) a unit: what the fixture's own map of its code says, checked by hand. */
const edges = (kind: EdgeKind, match: (from: string, to: string) => boolean): string[] =>
  data.edges.filter((edge) => edge.kind === kind && match(edge.from, edge.to)).map((edge) => `${edge.from} -> ${edge.to} ${edge.lines.join(',')}`);

describe('the Python fixture harness, end to end through the analysis session', () => {
  it('masks secrets on exactly three capture paths: logging tool output, saving the session, the shell tool (stdout only)', () => {
    expect(edges('calls', (_from, to) => to === `${P}/security.py#mask_secrets`)).toEqual([
      `${P}/logging_setup.py#log_tool_output -> ${P}/security.py#mask_secrets 32`,
      `${P}/session/store.py#SessionStore.save -> ${P}/security.py#mask_secrets 51`,
      `${P}/tools/shell.py#run_bash -> ${P}/security.py#mask_secrets 34,36`,
    ]);
  });

  it('finds a method through the second base (MRO), and the base classes', () => {
    expect(edges('calls', (from) => from === `${P}/tools/approval.py#InteractivePolicy.allows`)).toEqual([
      `${P}/tools/approval.py#InteractivePolicy.allows -> ${P}/tools/approval.py#ApprovalPolicy.describe 68`,
      `${P}/tools/approval.py#InteractivePolicy.allows -> ${P}/tools/approval.py#ApprovalPolicy.needs_approval 64`,
      `${P}/tools/approval.py#InteractivePolicy.allows -> ${P}/tools/approval.py#ConsolePrompt.confirm 68`,
    ]);
    expect(edges('extends', () => true)).toEqual([
      `${P}/model/openai_client.py#OpenAIClient -> ${P}/model/client.py#ModelClient 18`,
      `${P}/tools/approval.py#DenyPolicy -> ${P}/tools/approval.py#ApprovalPolicy 49`,
      `${P}/tools/approval.py#InteractivePolicy -> ${P}/tools/approval.py#ApprovalPolicy 58`,
      `${P}/tools/approval.py#InteractivePolicy -> ${P}/tools/approval.py#ConsolePrompt 58`,
    ]);
  });

  it('instantiates through an import alias and imports a namespace package', () => {
    expect(edges('instantiates', (from) => from === `${P}/cli.py#main`)).toEqual([`${P}/cli.py#main -> ${P}/agent/loop.py#Agent 67`, `${P}/cli.py#main -> ${P}/model/openai_client.py#OpenAIClient 66`]);
    expect(edges('imports', (from) => from === `${P}/cli.py`)).toContain(`${P}/cli.py -> ${P}/plugins/notify.py 15`);
    expect(edges('calls', (from) => from === `${P}/cli.py#main`)).toContain(`${P}/cli.py#main -> ${P}/plugins/notify.py#install 64`);
  });

  it('keeps the handler registry and the callbacks as references', () => {
    expect(edges('references', (from) => from === `${P}/tools/registry.py#HANDLERS`)).toEqual([
      `${P}/tools/registry.py#HANDLERS -> ${P}/tools/edit.py#apply_edit 18`,
      `${P}/tools/registry.py#HANDLERS -> ${P}/tools/edit.py#read_file 17`,
      `${P}/tools/registry.py#HANDLERS -> ${P}/tools/edit.py#write_file 19`,
      `${P}/tools/registry.py#HANDLERS -> ${P}/tools/shell.py#run_bash 16`,
    ]);
    expect(edges('references', (from) => from === `${P}/plugins/notify.py#install`)).toEqual([`${P}/plugins/notify.py#install -> ${P}/plugins/notify.py#on_event 33`]);
  });

  it('records state: the history list mutated through self, and a module global written through `global`', () => {
    expect(edges('writes', (_from, to) => to === `${P}/agent/loop.py#Agent.history`)).toEqual([
      `${P}/agent/loop.py#Agent.__init__ -> ${P}/agent/loop.py#Agent.history 45`,
      `${P}/agent/loop.py#Agent._add -> ${P}/agent/loop.py#Agent.history 117`,
      `${P}/agent/loop.py#Agent.compact -> ${P}/agent/loop.py#Agent.history 110,111`,
    ]);
    expect(edges('writes', (_from, to) => to === `${P}/events.py#emitted`)).toEqual([`${P}/events.py#emit -> ${P}/events.py#emitted 24`]);
    expect(data.slots.find((slot) => slot.id === `${P}/events.py#emitted`)?.kind).toBe('module-variable');
  });

  it('leaves calls through a lookup unresolved, with their text, never guessed', () => {
    const dynamic = data.unresolved.filter((call) => call.reason === 'dynamic').map((call) => `${call.from} ${call.text}`);
    expect(dynamic).toContain(`${P}/tools/approval.py#make_policy POLICIES[mode]`);
    expect(dynamic).toContain(`${P}/tools/registry.py#ToolRegistry.dispatch entry`);
  });

  it('matches the golden file (UPDATE_GOLDENS=true rewrites it)', () => {
    const text = `${JSON.stringify(data, null, 1)}\n`;
    if (process.env.UPDATE_GOLDENS === 'true') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});
