import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import type { OrganizedHandbook, RegisterEntry } from '../../src/organize/model.js';
import { SEED_SKELETON } from '../../src/organize/skeleton.js';
import { organizeOffline } from '../../src/organize/organize-handbook.js';
import { FIXTURE } from '../helpers/paths.js';
import { EXPECTED_STAGES } from './expected-stages.js';

let graph: ProgramGraph;
let handbook: OrganizedHandbook;
let register: RegisterEntry[];

beforeAll(() => {
  graph = new ProgramGraph(analyzeRepository(FIXTURE).graph);
  ({ handbook, register } = organizeOffline(graph, SEED_SKELETON, FIXTURE));
});

const primaryStageOf = () => new Map(handbook.stages.flatMap((stage) => stage.members.filter((member) => member.primary).map((member) => [member.unit, stage.id] as const)));

describe('the offline stager on the fixture harness', () => {
  it('labels itself offline', () => {
    expect(handbook.stager).toEqual({ kind: 'offline' });
    expect(handbook.overview.stager).toEqual({ kind: 'offline' });
  });

  it('expects a stage for every unit it places, and places every unit', () => {
    const placed = new Set([...primaryStageOf().keys(), ...handbook.unassigned]);
    const expected = new Set(EXPECTED_STAGES.map(([unit]) => unit));
    expect([...placed].filter((unit) => !expected.has(unit))).toEqual([]);
    expect([...expected].filter((unit) => !placed.has(unit))).toEqual([]);
  });

  it('puts each unit in the stage a maintainer would expect', () => {
    const stageOf = primaryStageOf();
    const wrong = EXPECTED_STAGES.filter(([unit, accepted]) => !accepted.includes(stageOf.get(unit) as never)).map(
      ([unit, accepted]) => `${unit}: ${stageOf.get(unit) ?? 'unassigned'}, expected ${accepted.join(' or ')}`,
    );
    expect(wrong).toEqual([]);
  });

  it('orders stages from the entry point outwards: startup first, the loop right after', () => {
    expect(handbook.stages[0]!.id).toBe('startup');
    expect(handbook.stages[1]!.id).toBe('agent-loop');
    expect(handbook.stages.map((stage) => stage.position)).toEqual(handbook.stages.map((_stage, index) => index));
    expect(handbook.overview.entryPoints).toEqual(['src/index.ts#main']);
  });

  it('records entry points and exits of a stage from calls across stages', () => {
    const security = handbook.stages.find((stage) => stage.id === 'security')!;
    expect(security.entryPoints).toEqual(['src/security/secrets.ts#maskSecrets']);
    const recovery = handbook.stages.find((stage) => stage.id === 'recovery')!;
    expect(recovery.entryPoints).toContain('src/providers/retry.ts#withRetry');
  });

  it('writes a summary for every stage from the graph', () => {
    for (const stage of handbook.stages) expect(stage.summary.length).toBeGreaterThan(20);
    const security = handbook.stages.find((stage) => stage.id === 'security')!;
    expect(security.summary).toContain('src/security/secrets.ts');
    expect(security.summary).toContain('maskSecrets');
  });

  it('is deterministic', () => {
    const again = organizeOffline(new ProgramGraph(analyzeRepository(FIXTURE).graph), SEED_SKELETON, FIXTURE);
    expect(JSON.stringify(again.handbook)).toBe(JSON.stringify(handbook));
  });
});

describe('the state register', () => {
  const entry = (slot: string) => register.find((candidate) => candidate.slot === slot)!;

  it('lists the session history with its exact writers and readers and the stages it couples', () => {
    const history = entry('src/session/sessionStore.ts#SessionStore.history');
    expect(history.writers.map((access) => access.unit)).toEqual([
      'src/agent/agentLoop.ts#AgentLoop.handleToolCalls',
      'src/agent/agentLoop.ts#AgentLoop.run',
      'src/agent/agentLoop.ts#AgentLoop.step',
      'src/session/sessionStore.ts#SessionStore.appendMessage',
      'src/session/sessionStore.ts#SessionStore.load',
    ]);
    expect(history.readers.map((access) => access.unit)).toEqual(['src/agent/agentLoop.ts#AgentLoop.step', 'src/session/sessionStore.ts#SessionStore.save']);
    expect([...history.stages].sort()).toEqual(['agent-loop', 'persistence']);
  });

  it('ties the approval mode to startup, the loop, prompt assembly and the tool boundary', () => {
    const mode = entry('src/config/loadConfig.ts#HarnessConfig.approvalMode');
    // DEFAULT_CONFIG's literal, typed HarnessConfig, sets the mode, as readEnv does.
    expect(mode.writers.map((access) => access.unit)).toEqual(['src/config/loadConfig.ts#DEFAULT_CONFIG', 'src/config/loadConfig.ts#readEnv']);
    expect([...mode.stages].sort()).toEqual(['agent-loop', 'context-assembly', 'startup', 'tool-boundary']);
  });

  it('lists module state and class fields touched by several units, and leaves out private ones', () => {
    expect(entry('src/observability/telemetry.ts#spans').writers.map((access) => access.unit)).toEqual([
      'src/observability/telemetry.ts#flushTelemetry',
      'src/observability/telemetry.ts#recordToolCall',
    ]);
    expect(entry('src/agent/agentLoop.ts#activeRunId').readers).toHaveLength(3);
    expect(register.every((candidate) => new Set([...candidate.writers, ...candidate.readers].map((access) => access.unit)).size >= 2)).toBe(true);
  });

  it('names the slots that couple the most stages in the overview', () => {
    const slots = handbook.overview.couplingSlots.map((slot) => slot.slot);
    expect(slots).toContain('src/config/loadConfig.ts#HarnessConfig.approvalMode');
    expect(handbook.overview.couplingSlots.every((slot) => slot.stages.length >= 2)).toBe(true);
  });
});
