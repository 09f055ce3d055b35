import type { ProgramGraph } from '../graph/program-graph.js';
import type { OrganizedHandbook, RegisterEntry } from './model.js';
import { assignStagesOffline } from './offline-stager.js';
import { organizeHandbook } from './organize-handbook.js';
import { describeProject } from './overview.js';
import type { StageDefinition } from './skeleton.js';

/** The offline path from a program graph to an organized handbook: deterministic, no model. */
export function organizeOffline(graph: ProgramGraph, skeleton: readonly StageDefinition[], root: string): { handbook: OrganizedHandbook; register: RegisterEntry[] } {
  const assignments = assignStagesOffline(graph, skeleton);
  return organizeHandbook(graph, skeleton, assignments, { kind: 'offline' }, describeProject(root));
}
