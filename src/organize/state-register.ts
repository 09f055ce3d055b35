import type { ProgramGraph } from '../graph/program-graph.js';
import type { RegisterEntry } from './model.js';

/**
 * The state register: every slot that crosses units (touched by at least two, or written by one
 * and read by another), with its writers and readers and the stages it couples. This is what
 * lets a question about one stage reach the stages that share its state.
 */
export function buildStateRegister(graph: ProgramGraph, primaryStageOf: Map<string, string>, stageOrder: Map<string, number>): RegisterEntry[] {
  const entries: RegisterEntry[] = [];
  for (const slot of graph.slots) {
    const writers = graph.writers(slot.id).map(({ unit, lines }) => ({ unit: unit.id, lines }));
    const readers = graph.readers(slot.id).map(({ unit, lines }) => ({ unit: unit.id, lines }));
    const accessors = new Set([...writers, ...readers].map((access) => access.unit));
    if (accessors.size < 2) continue;
    const stages = [...new Set([...accessors].map((unit) => primaryStageOf.get(unit)).filter((stage): stage is string => stage !== undefined))]
      .sort((a, b) => (stageOrder.get(a) ?? 0) - (stageOrder.get(b) ?? 0) || (a < b ? -1 : 1));
    entries.push({ slot: slot.id, kind: slot.kind, owner: slot.owner, type: slot.type, file: slot.file, line: slot.line, writers, readers, stages });
  }
  return entries;
}
