import type { OrganizedHandbook, RegisterEntry } from '../organize/model.js';

/** GitHub refuses to draw Mermaid diagrams with too many edges; stay well under its limit. */
const MAX_EDGES = 400;

/**
 * Stages as nodes in execution order, linked by the state they share: one edge per pair of
 * stages, labelled with how many slots couple them.
 */
export function stageCouplingDiagram(organized: OrganizedHandbook, register: readonly RegisterEntry[]): string {
  const lines = ['flowchart LR'];
  const node = (id: string) => `s_${id.replace(/[^a-zA-Z0-9]/g, '_')}`;
  for (const stage of organized.stages) lines.push(`  ${node(stage.id)}["${stage.position + 1}. ${stage.name.replace(/"/g, "'")}"]`);
  for (let index = 1; index < organized.stages.length; index += 1) lines.push(`  ${node(organized.stages[index - 1]!.id)} --> ${node(organized.stages[index]!.id)}`);
  const pairs = new Map<string, number>();
  for (const entry of register) {
    for (let a = 0; a < entry.stages.length; a += 1) {
      for (let b = a + 1; b < entry.stages.length; b += 1) {
        const key = `${entry.stages[a]}\u0000${entry.stages[b]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  const strongest = [...pairs].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, MAX_EDGES - organized.stages.length);
  for (const [key, count] of strongest.sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    const [from, to] = key.split('\u0000') as [string, string];
    lines.push(`  ${node(from)} -.-|"${count} state"| ${node(to)}`);
  }
  return lines.join('\n');
}
