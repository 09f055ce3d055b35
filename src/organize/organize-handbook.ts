import { shortHash } from '../graph/content-hash.js';
import { compareText } from '../graph/order.js';
import type { EdgeKind, Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { Behavior, RegisterEntry, OrganizedHandbook, Stage, Stager } from './model.js';
import { assignStagesOffline, type UnitAssignment } from './offline-stager.js';
import type { StageDefinition } from './skeleton.js';
import { buildRegisterState, type RegisterChange, type RegisterState, updateRegisterState } from './state-register.js';
import { findEntryPoints, orderStages } from './stage-order.js';
import { buildOverview, describeProject, type ProjectDescription } from './overview.js';
import { summarizeStage } from './stage-summary.js';
import { behaviorInputKeys, groupBehaviors } from './behaviors.js';
import { placeByPath } from './path-roles.js';

const STAGE_EDGE_KINDS: readonly EdgeKind[] = ['calls', 'references', 'instantiates'];

/** What organizing read beyond the assignments, and what it wrote: what a later run with the same structure keeps. */
export interface OrganizeRun {
  assignments: readonly UnitAssignment[];
  units: readonly Unit[];
  register: readonly RegisterEntry[];
  /** What the register was built from, for the next run to update where a change allows. */
  registerState: RegisterState;
  entryPoints: string[];
  handbook: OrganizedHandbook;
  /** Each placed unit's primary stage, as the assignments give it. */
  primaryStageOf: ReadonlyMap<string, string>;
  /** Each stage's behaviours with the key (a hash of behaviorInputKeys's) of what they were grouped from. */
  behaviorsOf: ReadonlyMap<string, { key: string; behaviors: Behavior[] }>;
}

/** Whether two registers agree but for lines: slots, stages, writers and readers are what stage summaries read of one. */
function sameRegisterShape(before: readonly RegisterEntry[], now: readonly RegisterEntry[]): boolean {
  const sameUnits = (a: readonly { unit: string }[], b: readonly { unit: string }[]): boolean => a.length === b.length && a.every((access, at) => access.unit === b[at]!.unit);
  return before.length === now.length && before.every((entry, position) => {
    const other = now[position]!;
    return entry.slot === other.slot && entry.stages.length === other.stages.length && entry.stages.every((stage, at) => stage === other.stages[at]) &&
      sameUnits(entry.writers, other.writers) && sameUnits(entry.readers, other.readers);
  });
}

/** Whether the units read the same to entry points (kind, export, file) as last time; only units of changed files are new objects. */
function sameUnits(before: readonly Unit[], now: readonly Unit[]): boolean {
  return before.length === now.length && before.every((unit, position) => {
    const other = now[position]!;
    return unit === other || (unit.id === other.id && unit.kind === other.kind && unit.exported === other.exported && unit.file === other.file);
  });
}

/**
 * Turns per-unit stage assignments into the handbook (after what paths say: placeByPath): stages
 * with members, entry points and exits, ordered along execution; the state register; and the overview. With `previous`, the
 * run before over the same repository: when the assignments are the very same (the stager found
 * its inputs unchanged, calls between units included) and units and register read the same, the
 * stages are kept and only the register's lines and the overview are new.
 */
export function organizeHandbook(
  graph: ProgramGraph,
  skeleton: readonly StageDefinition[],
  assignments: readonly UnitAssignment[],
  stager: Stager,
  project: ProjectDescription,
  previous?: OrganizeRun,
  /** Behaviours a stored handbook holds, with the keys they were grouped under: a new process keeps those whose key stands. */
  stored?: ReadonlyMap<string, { key: string; behaviors: Behavior[] }>,
  /** What changed in the graph since `previous` was organized, when the caller knows: the register is updated, not built again. */
  change?: RegisterChange,
): { handbook: OrganizedHandbook; register: RegisterEntry[]; run: OrganizeRun } {
  if (previous && previous.assignments === assignments && sameUnits(previous.units, graph.units) && previous.handbook.stager.kind === stager.kind) {
    const primaryStageOf = previous.primaryStageOf;
    const stages = previous.handbook.stages;
    const stageOrder = new Map(stages.map((stage) => [stage.id, stage.position]));
    const registerState = change ? updateRegisterState(previous.registerState, graph, change, primaryStageOf, stageOrder) : buildRegisterState(graph, primaryStageOf, stageOrder);
    const register = registerState.entries;
    if (sameRegisterShape(previous.register, register)) {
      const entryPoints = previous.entryPoints;
      const handbook: OrganizedHandbook = {
        stager,
        stages,
        unassigned: previous.handbook.unassigned,
        overview: buildOverview({ graph, stages, register, entryPoints, stager, project, unassigned: previous.handbook.unassigned.length }),
      };
      return { handbook, register, run: { assignments, units: graph.units, register, registerState, entryPoints, handbook, primaryStageOf, behaviorsOf: previous.behaviorsOf } };
    }
  }
  const behaviorsOf = new Map<string, { key: string; behaviors: Behavior[] }>();
  const membersOf = new Map<string, Array<{ unit: string; score: number }>>(skeleton.map((stage) => [stage.id, []]));
  const primaryStageOf = new Map<string, string>();
  const unassigned: string[] = [];
  for (const assignment of placeByPath(assignments, skeleton)) {
    if (assignment.stages.length === 0) {
      unassigned.push(assignment.unit);
      continue;
    }
    assignment.stages.forEach(({ stage, score }, position) => {
      membersOf.get(stage)?.push({ unit: assignment.unit, score });
      if (position === 0) primaryStageOf.set(assignment.unit, stage);
    });
  }

  const candidates = new Set(assignments.map((assignment) => assignment.unit));
  const entryPoints = findEntryPoints(graph, candidates);
  const order = orderStages(graph, skeleton.map((stage) => stage.id), primaryStageOf, entryPoints);
  const position = new Map(order.map((id, index) => [id, index]));

  const registerState = buildRegisterState(graph, primaryStageOf, position);
  const register = registerState.entries;
  const crossing = crossStageUnits(graph, primaryStageOf);
  const primaryOf = (id: string): string[] => (membersOf.get(id) ?? []).filter((member) => primaryStageOf.get(member.unit) === id).map((member) => member.unit);
  const behaviorKeys = behaviorInputKeys(order.map((id) => ({ id, members: primaryOf(id) })), graph, register);
  const stages: Stage[] = order.map((id) => {
    const definition = skeleton.find((stage) => stage.id === id)!;
    const members = (membersOf.get(id) ?? [])
      .sort((a, b) => compareText(a.unit, b.unit))
      .map(({ unit, score }) => ({ unit, score, primary: primaryStageOf.get(unit) === id }));
    const memberSet = new Set(members.filter((member) => member.primary).map((member) => member.unit));
    const stage: Stage = {
      id,
      name: definition.name,
      description: definition.description,
      summary: '',
      position: position.get(id)!,
      members,
      entryPoints: [...memberSet].filter((unit) => crossing.entered.has(unit)).sort(),
      exits: [...memberSet].filter((unit) => crossing.leaving.has(unit)).sort(),
      behaviors: [],
    };
    const key = shortHash(behaviorKeys.get(id)!);
    const kept = previous?.behaviorsOf.get(id) ?? stored?.get(id);
    stage.behaviors = kept && kept.key === key ? kept.behaviors : groupBehaviors(id, [...memberSet], graph, register);
    behaviorsOf.set(id, { key, behaviors: stage.behaviors });
    stage.summary = summarizeStage(stage, graph, register, crossing.enteredCount);
    return stage;
  });
  const handbook: OrganizedHandbook = {
    stager,
    stages,
    unassigned: unassigned.sort(),
    overview: buildOverview({ graph, stages, register, entryPoints, stager, project, unassigned: unassigned.length }),
  };
  return { handbook, register, run: { assignments, units: graph.units, register, registerState, entryPoints, handbook, primaryStageOf, behaviorsOf } };
}

/** Which primary members are called from another stage, and which call into one. */
function crossStageUnits(graph: ProgramGraph, primaryStageOf: Map<string, string>) {
  const entered = new Set<string>();
  const leaving = new Set<string>();
  const enteredCount = new Map<string, number>();
  for (const edge of graph.edgesOfKinds(STAGE_EDGE_KINDS)) {
    const from = primaryStageOf.get(edge.from);
    const to = primaryStageOf.get(edge.to);
    if (!from || !to || from === to) continue;
    entered.add(edge.to);
    leaving.add(edge.from);
    enteredCount.set(edge.to, (enteredCount.get(edge.to) ?? 0) + 1);
  }
  return { entered, leaving, enteredCount };
}

/** The offline path from a program graph to an organized handbook: deterministic, no model. */
export function organizeOffline(graph: ProgramGraph, skeleton: readonly StageDefinition[], root: string): { handbook: OrganizedHandbook; register: RegisterEntry[] } {
  return organizeHandbook(graph, skeleton, assignStagesOffline(graph, skeleton), { kind: 'offline' }, describeProject(root));
}
