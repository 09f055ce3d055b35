import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { shortName } from '../graph/unit-name.js';
import { firstSentence } from '../text/first-sentence.js';

const LIST_LIMIT = 5;



/**
 * A compact description of one unit for a model: id, kind, signature, first sentence of its
 * doc, a few callers and callees, and the state it touches. Small enough to send hundreds per call.
 */
export function unitCard(graph: ProgramGraph, unit: Unit): string {
  const parts = [`${unit.id} (${unit.kind})`, `  signature: ${unit.signature}`];
  if (unit.doc) parts.push(`  doc: ${firstSentence(unit.doc)}`);
  const callees = graph.callees(unit.id).map((neighbour) => shortName(neighbour.unit.id));
  const callers = graph.callers(unit.id).map((neighbour) => shortName(neighbour.unit.id));
  if (callees.length > 0) parts.push(`  calls: ${callees.slice(0, LIST_LIMIT).join(', ')}${callees.length > LIST_LIMIT ? ', …' : ''}`);
  if (callers.length > 0) parts.push(`  called by: ${callers.slice(0, LIST_LIMIT).join(', ')}${callers.length > LIST_LIMIT ? ', …' : ''}`);
  const writes = graph.outEdges(unit.id, 'writes').map((edge) => shortName(edge.to));
  const reads = graph.outEdges(unit.id, 'reads').map((edge) => shortName(edge.to));
  if (writes.length > 0) parts.push(`  writes: ${writes.slice(0, LIST_LIMIT).join(', ')}`);
  if (reads.length > 0) parts.push(`  reads: ${reads.slice(0, LIST_LIMIT).join(', ')}`);
  return parts.join('\n');
}

/** A rough token count (4 characters a token), enough to keep batches within a budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
