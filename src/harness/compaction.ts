import type { ChatMessage } from '../llm/chat-types.js';
import type { Fact, FactKind, RunMemory } from '../store/run-memory.js';
import { factsOfTurn, readTurns, stepLine } from './turn-records.js';

/**
 * Context compaction: compress means promote and point, never forget. Before old turns leave
 * the conversation, their durable facts go to the run's long-term memory; the turns become one
 * summary node of a line a step, and a memory block after the task re-states every current
 * fact, so a fact outlives any number of compactions. No model is asked: the same
 * conversation always compacts the same way.
 */

/** How the two messages compaction writes open; it finds them by these on the next compaction. */
export const MEMORY_BLOCK_OPENING = '[Harness memory]';
export const SUMMARY_NODE_OPENING = '[Harness summary of steps';

export interface CompactionOptions {
  /** The step about to be requested: the last assistant message in the conversation is step − 1. */
  step: number;
  /** Assistant turns at the end kept word for word (default 4). */
  keepRecentTurns?: number;
  /** Step lines the summary node holds before its oldest are condensed into pointers to memory (default 40). */
  maxSummaryLines?: number;
}

export interface CompactionResult {
  messages: ChatMessage[];
  /** Turns newly summarized; 0 when there was nothing old enough to compact (messages is then the input). */
  summarized: number;
  /** Messages replaced by the memory block and the summary node, earlier ones of both included. */
  removedMessages: number;
  /** Facts that changed memory: new subjects and newer versions. */
  promoted: number;
  /** Every fact the summarized turns hold, changed or already known, and the summary's own. */
  factIds: number[];
  /** The steps newly summarized. */
  steps?: { from: number; to: number };
}

const DEFAULT_KEEP_RECENT_TURNS = 4;
const DEFAULT_MAX_SUMMARY_LINES = 40;

/**
 * Replaces the turns before the last `keepRecentTurns` with [memory block, summary node],
 * right after the opening: the task message and whatever the harness sent with it before the
 * first turn (a resume handoff), which stay word for word. Cuts fall only before an assistant
 * message, so a tool result always stays with the call it answers.
 */
export function compactConversation(messages: readonly ChatMessage[], options: CompactionOptions, memory: RunMemory): CompactionResult {
  const keep = options.keepRecentTurns ?? DEFAULT_KEEP_RECENT_TURNS;
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`keepRecentTurns must be a whole number of turns, not ${keep}`);
  const task = messages[0];
  if (task?.role !== 'user') throw new Error('a conversation to compact starts with the task message');

  const turnStarts = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
  const firstStep = options.step - turnStarts.length;
  if (firstStep < 1) throw new Error(`step ${options.step} is too early for a conversation of ${turnStarts.length} turns`);
  if (turnStarts.length <= keep) return { messages: [...messages], summarized: 0, removedMessages: 0, promoted: 0, factIds: [] };
  const cut = keep === 0 ? messages.length : turnStarts[turnStarts.length - keep]!;

  const isCompactionOwn = (message: ChatMessage): boolean => isOwn(message, SUMMARY_NODE_OPENING) || isOwn(message, MEMORY_BLOCK_OPENING);
  const opening = [task, ...messages.slice(1, turnStarts[0]).filter((message) => !isCompactionOwn(message))];
  const earlierSummaries = messages.slice(1, cut).filter((message) => isOwn(message, SUMMARY_NODE_OPENING));
  const turns = readTurns(messages.slice(turnStarts[0], cut).filter((message) => !isCompactionOwn(message)), firstStep);
  const steps = { from: firstStep, to: firstStep + turns.length - 1 };

  // Promote first: the turns leave the conversation only once their facts are in memory.
  const factIds: number[] = [];
  let promoted = 0;
  for (const fact of turns.flatMap(factsOfTurn)) {
    const promotion = memory.promote(fact);
    if (promotion.changed) promoted++;
    if (!factIds.includes(promotion.id)) factIds.push(promotion.id);
  }
  const newLines = turns.map(stepLine);
  const record = memory.promote({ kind: 'summary', key: summaryKey(steps), text: newLines.join('\n'), step: steps.to });
  if (record.changed) promoted++;
  factIds.push(record.id);

  const lines = condensed([...earlierSummaries.flatMap(stepLinesOf), ...newLines], options.maxSummaryLines ?? DEFAULT_MAX_SUMMARY_LINES, memory);
  return {
    messages: [...opening, pinnedMemoryMessage(memory), summaryNode(lines), ...messages.slice(cut)],
    summarized: turns.length,
    removedMessages: cut - opening.length,
    promoted,
    factIds,
    steps,
  };
}

function isOwn(message: ChatMessage, opening: string): boolean {
  return message.role === 'user' && message.content.startsWith(opening);
}

const STEP_LINE = /^- steps? (\d+)(?:-(\d+))?:/;
const SUMMARY_KEY = /^steps (\d+)-(\d+)$/;

/** Each compaction's step lines are one summary fact, keyed by the steps they cover. */
function summaryKey(steps: { from: number; to: number }): string {
  return `steps ${steps.from}-${steps.to}`;
}

function stepLinesOf(summary: ChatMessage): string[] {
  return summary.content.split('\n').filter((line) => STEP_LINE.test(line));
}

function rangeOf(line: string): { from: number; to: number } {
  const match = STEP_LINE.exec(line)!;
  const from = Number(match[1]);
  return { from, to: match[2] === undefined ? from : Number(match[2]) };
}

/** Folds the oldest lines into one that points to the summary facts holding them, until the node fits. */
function condensed(lines: readonly string[], maxLines: number, memory: RunMemory): string[] {
  if (lines.length <= maxLines) return [...lines];
  const folded = lines.slice(0, lines.length - Math.max(1, maxLines) + 1);
  const from = rangeOf(folded[0]!).from;
  const to = rangeOf(folded[folded.length - 1]!).to;
  const ids = memory
    .facts('summary')
    .filter((fact) => {
      const range = SUMMARY_KEY.exec(fact.key);
      return range !== null && Number(range[1]) <= to && Number(range[2]) >= from;
    })
    .map((fact) => `#${fact.id}`);
  return [`- steps ${from}-${to}: condensed; their step lines are kept in long-term memory as summary facts ${ids.join(', ')}`, ...lines.slice(folded.length)];
}

function summaryNode(lines: readonly string[]): ChatMessage {
  const from = rangeOf(lines[0]!).from;
  const to = rangeOf(lines[lines.length - 1]!).to;
  return {
    role: 'user',
    content: [
      `${SUMMARY_NODE_OPENING} ${from}-${to}] These turns were compacted to save context. Their durable facts (files changed, check results, decisions, open questions) are in the memory block above; each step is one line here.`,
      ...lines,
    ].join('\n'),
  };
}

export interface MemoryBlockOptions {
  /** The newest decisions shown; older ones are named by id (default 12). */
  maxDecisions?: number;
  /** The newest open questions shown; older ones are named by id (default 8). */
  maxQuestions?: number;
}

const SECTIONS: ReadonlyArray<{ kind: FactKind; title: string; limit: (options: MemoryBlockOptions) => number }> = [
  { kind: 'file_changed', title: 'Files changed', limit: () => Number.POSITIVE_INFINITY },
  { kind: 'check_result', title: 'Check results', limit: () => Number.POSITIVE_INFINITY },
  { kind: 'decision', title: 'Decisions', limit: (options) => options.maxDecisions ?? 12 },
  { kind: 'open_question', title: 'Open questions', limit: (options) => options.maxQuestions ?? 8 },
];

/** Ids named in one overflow line; past them the memory itself is the index. */
const OVERFLOW_IDS = 20;

/**
 * The memory block the conversation keeps right after the task message: every current durable
 * fact (the latest for each file, check, decision and question), each with its id in memory.
 */
export function pinnedMemoryMessage(memory: RunMemory, options: MemoryBlockOptions = {}): ChatMessage {
  const facts = memory.facts();
  const lines = [`${MEMORY_BLOCK_OPENING} Durable facts of this task so far, the latest for each subject. They are kept in long-term memory (#id) and carried across every context compaction.`];
  for (const section of SECTIONS) {
    const ofKind = facts.filter((fact) => fact.kind === section.kind).sort((a, b) => a.step - b.step || a.id - b.id);
    if (ofKind.length === 0) continue;
    const shown = ofKind.slice(Math.max(0, ofKind.length - section.limit(options)));
    const hidden = ofKind.slice(0, ofKind.length - shown.length);
    lines.push(`${section.title}:`);
    if (hidden.length > 0) lines.push(overflowLine(hidden, section.title.toLowerCase()));
    lines.push(...shown.map(factLine));
  }
  if (lines.length === 1) lines.push('(none yet)');
  return { role: 'user', content: lines.join('\n') };
}

function factLine(fact: Fact): string {
  return `- ${fact.text} (step ${fact.step}, #${fact.id})`;
}

function overflowLine(hidden: readonly Fact[], what: string): string {
  const ids = hidden.slice(-OVERFLOW_IDS).map((fact) => `#${fact.id}`);
  return `- ${hidden.length} earlier ${what} are in long-term memory: ${hidden.length > OVERFLOW_IDS ? '…, ' : ''}${ids.join(', ')}`;
}
