import type { BuildSummary, Neighbour, Slot, StateAccess, Unit } from '../index.js';

function counts(record: Partial<Record<string, number>>): string {
  const parts = Object.entries(record)
    .filter(([, value]) => (value ?? 0) > 0)
    .map(([key, value]) => `${key} ${value}`);
  return parts.length > 0 ? parts.join(' · ') : 'none';
}

function total(record: Record<string, number>): number {
  return Object.values(record).reduce((sum, value) => sum + value, 0);
}

export function formatSummary(summary: BuildSummary, heading: string): string {
  const calls = summary.calls;
  const share = (calls.resolvedShare * 100).toFixed(1);
  const lines = [
    `${heading} ${summary.root}`,
    `  generation ${summary.generation}${summary.commit ? `, commit ${summary.commit.slice(0, 12)}` : ', not a git checkout'}`,
    `  files      ${summary.files} analyzed; skipped files: ${counts(summary.skipped)}; skipped folders: ${counts(summary.skippedDirectories)}`,
    `  units      ${total(summary.units)}: ${counts(summary.units)}`,
    `  edges      ${total(summary.edges)}: ${counts(summary.edges)}`,
    `  calls      ${calls.sites} call sites: ${calls.resolved} resolved to repository code (${share}% of the ${calls.sites - calls.external} that are not external), ${calls.external} external, ${calls.dynamic} dynamic, ${calls.unknown} unknown`,
    `  state      ${summary.slots} slots`,
  ];
  if (summary.parseWarnings.length > 0) {
    const first = summary.parseWarnings[0]!;
    lines.push(`  warnings   ${summary.parseWarnings.length} file(s) with syntax errors, analyzed partially; first: ${first.file}:${first.line} ${first.message}`);
  }
  lines.push(`  time       ${(summary.durationMs / 1000).toFixed(2)} s`);
  return lines.join('\n');
}

export function location(unit: Unit, line = unit.startLine): string {
  return `${unit.file}:${line}`;
}

export function formatUnit(unit: Unit, callers: Neighbour[], callees: Neighbour[]): string {
  const lines = [
    `${unit.id}  (${unit.kind}${unit.exported ? ', exported' : ''})`,
    `  at         ${unit.file}:${unit.startLine}-${unit.endLine}`,
    `  signature  ${unit.signature}`,
  ];
  if (unit.doc) lines.push(`  doc        ${unit.doc}`);
  lines.push(`  hash       ${unit.hash}`);
  lines.push(`  callers    ${callers.length}${callers.length ? `: ${callers.slice(0, 8).map((c) => c.unit.id).join(', ')}${callers.length > 8 ? ', …' : ''}` : ''}`);
  lines.push(`  callees    ${callees.length}${callees.length ? `: ${callees.slice(0, 8).map((c) => c.unit.id).join(', ')}${callees.length > 8 ? ', …' : ''}` : ''}`);
  return lines.join('\n');
}

/**
 * Callers are shown at their call site (a line in the caller's file); callees at their own
 * declaration, with the line of the call in the unit asked about.
 */
export function formatNeighbours(title: string, neighbours: Neighbour[], direction: 'callers' | 'callees'): string {
  if (neighbours.length === 0) return `${title}: none`;
  const rows = neighbours.map(({ unit, lines, via }) => {
    const at = direction === 'callers' ? `${unit.file}:${lines.join(',')}` : `${unit.file}:${unit.startLine}  (called at line ${lines.join(',')})`;
    return `  ${unit.id}  ${at}${via === 'dispatch' ? '  (through an interface or override)' : ''}`;
  });
  return [`${title}: ${neighbours.length}`, ...rows].join('\n');
}

export function formatSlot(slot: Slot, writers: StateAccess[], readers: StateAccess[]): string {
  const access = (list: StateAccess[]): string[] => list.map(({ unit, lines }) => `    ${unit.id}  ${unit.file}:${lines.join(',')}`);
  return [
    `${slot.id}  (${slot.kind}${slot.type ? `: ${slot.type}` : ''})`,
    `  declared   ${slot.file}:${slot.line}`,
    `  writers    ${writers.length}`,
    ...access(writers),
    `  readers    ${readers.length}`,
    ...access(readers),
  ].join('\n');
}
