import type { EdgeKind } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';

/** Base names of the files a JavaScript or TypeScript program starts from. */
export const ENTRY_FILE_NAMES: readonly string[] = ['index', 'main', 'cli', 'app', 'server', 'agent'];
const ENTRY_FILE = new RegExp(`(^|/)(${ENTRY_FILE_NAMES.join('|')})\\.[cm]?[jt]sx?$`);
const WALKED: readonly EdgeKind[] = ['calls', 'references', 'instantiates'];

/**
 * Where execution starts: functions named `main`, and exported units of entry files (index,
 * main, cli, ...) that nothing in the repository calls. Falls back to every exported unit
 * nothing calls when a repository has neither.
 */
export function findEntryPoints(graph: ProgramGraph, candidates: ReadonlySet<string>): string[] {
  const called = new Set<string>();
  for (const edge of graph.edgesOfKinds(WALKED)) if (edge.from !== edge.to && candidates.has(edge.from)) called.add(edge.to);
  const uncalled = graph.units.filter((unit) => candidates.has(unit.id) && !called.has(unit.id) && (unit.kind === 'function' || unit.kind === 'method' || unit.kind === 'class'));
  const named = uncalled.filter((unit) => unit.symbol === 'main' || unit.symbol.endsWith('.main') || (unit.exported && ENTRY_FILE.test(unit.file)));
  const chosen = named.length > 0 ? named : uncalled.filter((unit) => unit.exported);
  return chosen.map((unit) => unit.id).sort();
}

/**
 * Orders stages along execution. The stage holding the entry points comes first; the rest by
 * the direction calls flow between stages: a stage that mostly calls into others (a source)
 * runs before one that others call (a sink, such as logging). The skeleton's order breaks
 * ties and places stages with no calls across stages.
 */
export function orderStages(graph: ProgramGraph, stageIds: readonly string[], primaryStageOf: Map<string, string>, entryPoints: readonly string[]): string[] {
  const outgoing = new Map<string, number>();
  const incoming = new Map<string, number>();
  for (const edge of graph.edgesOfKinds(['calls'])) {
    const from = primaryStageOf.get(edge.from);
    const to = primaryStageOf.get(edge.to);
    if (!from || !to || from === to) continue;
    outgoing.set(from, (outgoing.get(from) ?? 0) + 1);
    incoming.set(to, (incoming.get(to) ?? 0) + 1);
  }
  const entryStages = new Set(entryPoints.map((id) => primaryStageOf.get(id)).filter((id): id is string => id !== undefined));
  const key = new Map<string, number>();
  for (const id of stageIds) {
    const into = incoming.get(id) ?? 0;
    const out = outgoing.get(id) ?? 0;
    key.set(id, entryStages.has(id) ? -2 : into + out === 0 ? 2 : (into - out) / (into + out));
  }
  return [...stageIds].sort((a, b) => key.get(a)! - key.get(b)! || stageIds.indexOf(a) - stageIds.indexOf(b));
}
