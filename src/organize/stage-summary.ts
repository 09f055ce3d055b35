import type { ProgramGraph } from '../graph/program-graph.js';
import type { RegisterEntry, Stage } from './model.js';
import { shortName } from '../graph/unit-name.js';


function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * A one-paragraph summary written from the graph alone, by template: what the stage is for,
 * where its code lives, how other stages enter it, and the state it shares. Deterministic.
 */
export function summarizeStage(stage: Stage, graph: ProgramGraph, register: readonly RegisterEntry[], enteredCount: Map<string, number>): string {
  const primary = stage.members.filter((member) => member.primary).map((member) => member.unit);
  if (primary.length === 0) return `${stage.description}. No unit of this repository was placed here.`;
  const perFile = new Map<string, number>();
  for (const id of primary) {
    const file = graph.getUnit(id)?.file;
    if (file) perFile.set(file, (perFile.get(file) ?? 0) + 1);
  }
  const files = [...perFile].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const sentences = [`${stage.description}.`];
  sentences.push(`${primary.length} unit${primary.length === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}, chiefly ${list(files.slice(0, 2).map(([file]) => file))}.`);
  const entries = [...stage.entryPoints].sort((a, b) => (enteredCount.get(b) ?? 0) - (enteredCount.get(a) ?? 0) || (a < b ? -1 : 1)).slice(0, 3);
  if (entries.length > 0) sentences.push(`Other stages enter it through ${list(entries.map(shortName))}.`);
  const members = new Set(primary);
  const touched = (accesses: RegisterEntry['writers']) => accesses.some((access) => members.has(access.unit));
  const byReach = (a: RegisterEntry, b: RegisterEntry) => b.stages.length - a.stages.length || b.writers.length + b.readers.length - (a.writers.length + a.readers.length) || (a.slot < b.slot ? -1 : 1);
  const written = register.filter((entry) => touched(entry.writers)).sort(byReach).slice(0, 3);
  const read = register.filter((entry) => !written.includes(entry) && touched(entry.readers)).sort(byReach).slice(0, 3);
  const state: string[] = [];
  if (written.length > 0) state.push(`writes ${list(written.map((entry) => shortName(entry.slot)))}`);
  if (read.length > 0) state.push(`reads ${list(read.map((entry) => shortName(entry.slot)))}`);
  if (state.length > 0) sentences.push(`It ${state.join(' and ')}.`);
  return sentences.join(' ');
}
