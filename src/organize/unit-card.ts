import type { Unit } from '../graph/model.js';
import type { ProgramGraph } from '../graph/program-graph.js';

const LIST_LIMIT = 5;

function shortName(id: string): string {
  const hash = id.indexOf('#');
  return hash < 0 ? id : id.slice(hash + 1);
}

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  const sentence = match ? match[1]! : text;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

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
