import type { ChatMessage } from '../llm/chat-types.js';
import type { FactInput } from '../store/run-memory.js';

/**
 * Turns of a conversation read back as data: what each step called, what came of it, and the
 * durable facts in it. Everything here reads the texts the harness itself writes (tool results,
 * its notes), so it is deterministic and needs no model.
 */

export interface CallRecord {
  name: string;
  /** Known in native mode only: the JSON modes carry arguments inside the assistant's text. */
  arguments?: unknown;
  result?: { content: string; isError: boolean };
}

export interface TurnRecord {
  step: number;
  /** What the assistant wrote besides its tool calls. */
  text: string;
  calls: CallRecord[];
  /** Words from the harness in the turn: loop notes, replies to a turn without action. */
  notes: string[];
}

/** How the JSON modes frame each result in one user message (see resultMessages in src/llm/tool-modes.ts). */
const RESULT_HEADER = /^Result of (\S+) \(([^)\n]*)\)( \[error\])?:\n/gm;

/**
 * Reads consecutive turns: each starts at an assistant message, the first of them at step
 * `firstStep`, and holds the messages up to the next one. Messages before the first assistant
 * message belong to no turn and are not read.
 */
export function readTurns(messages: readonly ChatMessage[], firstStep: number): TurnRecord[] {
  const turns: TurnRecord[] = [];
  let pending = new Map<string, CallRecord>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.arguments }));
      pending = new Map((message.toolCalls ?? []).map((call, index) => [call.id, calls[index]!]));
      turns.push({ step: firstStep + turns.length, text: message.content, calls, notes: [] });
      continue;
    }
    const turn = turns[turns.length - 1];
    if (!turn) continue;
    if (message.role === 'tool') {
      const call = pending.get(message.toolCallId);
      if (call) call.result = { content: message.content, isError: message.isError === true };
      continue;
    }
    const read = readUserMessage(message.content);
    turn.calls.push(...read.calls);
    turn.notes.push(...read.notes);
  }
  return turns;
}

function readUserMessage(content: string): { calls: CallRecord[]; notes: string[] } {
  const headers = [...content.matchAll(RESULT_HEADER)];
  if (headers.length === 0) return { calls: [], notes: [content] };
  const calls = headers.map((header, index) => {
    const start = header.index + header[0].length;
    const end = headers[index + 1]?.index ?? content.length;
    return { name: header[1]!, result: { content: content.slice(start, end).replace(/\n\n$/, ''), isError: header[3] !== undefined } };
  });
  const before = content.slice(0, headers[0]!.index).trim();
  // A note rides after the last result in the JSON modes; its paragraphs open as the loop's notes do.
  const last = calls[calls.length - 1]!.result.content;
  return { calls, notes: [...(before === '' ? [] : [before]), ...harnessNotesIn(last)] };
}

/** How the loop's escalation notes open (see escalate() in harness-loop.ts): each is a decision the harness made. */
const HARNESS_NOTE_OPENINGS = ['The harness stopped a loop', 'A stronger model'];

function harnessNotesIn(text: string): string[] {
  return text.split(/\n{2,}/).filter((paragraph) => HARNESS_NOTE_OPENINGS.some((opening) => paragraph.startsWith(opening)));
}

const WRITE_RESULTS: ReadonlyArray<[tool: string, line: RegExp]> = [
  ['edit_file', /^edited (.+?): lines \d+-\d+ are now lines \d+-\d+$/],
  ['create_file', /^created (.+) \(\d+ lines?\)$/],
  ['delete_file', /^deleted (.+)$/],
];
const CHECK_RESULT = /^check (\S+) \(`(.*)`\) (.+?) in \d+ ms$/;
const COMMAND_RESULT = /^`(.*)` (.+?) in \d+ ms$/;
const NOT_COMPLETE = 'Not complete: the harness checked the exit criteria';

/** Phrases that mark a choice and its reason; plain and English-only, so the same text always gives the same facts. */
const DECISION = /\b(?:decided|decide to|I(?:'ll| will) (?:use|go with|keep|switch to)|I chose|chose to|going with|instead of|because)\b/i;

const KEY_LIMIT = 200;
const TEXT_LIMIT = 300;

/** The durable facts of one turn, in the order they happened. */
export function factsOfTurn(turn: TurnRecord): FactInput[] {
  const facts: FactInput[] = [];
  const add = (kind: FactInput['kind'], key: string, text: string): void => {
    facts.push({ kind, key: clip(key, KEY_LIMIT), text: clip(text, TEXT_LIMIT), step: turn.step });
  };
  for (const call of turn.calls) {
    if (!call.result) continue;
    const { content, isError } = call.result;
    const first = firstLine(content);
    const write = WRITE_RESULTS.find(([tool]) => tool === call.name);
    const changed = write && !isError ? write[1].exec(first) : null;
    if (changed) add('file_changed', changed[1]!, first.replace(/: lines .*$/, ''));
    const check = call.name === 'run_check' ? CHECK_RESULT.exec(first) : null;
    if (check) add('check_result', check[1]!, `check ${check[1]} (\`${check[2]}\`) ${check[3]}${outcomeTail(check[3]!, content)}`);
    const command = call.name === 'run_command' ? COMMAND_RESULT.exec(first) : null;
    if (command) add('check_result', `$ ${command[1]}`, `\`${command[1]}\` ${command[2]}${outcomeTail(command[2]!, content)}`);
    if (call.name === 'task_complete' && isError && content.startsWith(NOT_COMPLETE)) {
      const missing = content.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.slice(2));
      add('check_result', 'exit criteria', `task_complete was refused; failing: ${missing.join('; ')}`);
    }
  }
  for (const sentence of sentencesOf(proseOf(turn.text))) {
    if (sentence.endsWith('?')) add('open_question', normalized(sentence), sentence);
    else if (DECISION.test(sentence)) add('decision', normalized(sentence), sentence);
  }
  for (const note of turn.notes.flatMap(harnessNotesIn)) add('decision', `harness: ${normalized(note)}`, `harness: ${note}`);
  return facts;
}

/** One line for the summary: the step's gist, each call with its key arguments and outcome, the harness's words. */
export function stepLine(turn: TurnRecord): string {
  const parts: string[] = [];
  const gist = sentencesOf(proseOf(turn.text))[0];
  if (gist !== undefined) parts.push(`"${clip(gist, 100)}"`);
  if (turn.calls.length > 0) parts.push(turn.calls.map(callLine).join('; '));
  for (const note of turn.notes) parts.push(`harness: ${clip(sentencesOf(note)[0] ?? firstLine(note.trim()), 100)}`);
  // One line a step is what lets the next compaction find the lines again, whatever a tool name holds.
  return `- step ${turn.step}: ${parts.length === 0 ? 'no action' : parts.join(' | ')}`.replace(/\s*\n\s*/g, ' ');
}

function callLine(call: CallRecord): string {
  const outcome = call.result ? `${call.result.isError ? 'error: ' : ''}${clip(firstLine(call.result.content).replace(/:$/, ''), 140)}` : 'no result';
  return `${call.name}${keyArguments(call.arguments)} → ${outcome}`;
}

// What a write said is in the file now; the summary names where it wrote, not what.
const CONTENT_ARGUMENTS = new Set(['old_text', 'new_text', 'content']);

/** Short scalar arguments name what a call was about (a path, a check, a command); long ones are left out. */
function keyArguments(args: unknown): string {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return '';
  const shown = Object.entries(args as Record<string, unknown>)
    .filter(([key]) => !CONTENT_ARGUMENTS.has(key))
    .filter(([, value]) => typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 80 && !value.includes('\n')))
    .slice(0, 3)
    .map(([key, value]) => `${key}=${String(value)}`);
  return shown.length === 0 ? '' : `(${shown.join(', ')})`;
}

/** A failure's last output line usually says what failed (a test name, an error count). */
function outcomeTail(verdict: string, content: string): string {
  if (verdict === 'exited 0') return '';
  const last = content.split('\n').slice(1).map((line) => line.trim()).filter((line) => line !== '').pop();
  return last === undefined ? '' : ` — ${clip(last, 160)}`;
}

/** The assistant's own words: code blocks and JSON actions are not prose. */
function proseOf(text: string): string {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, ' ').trim();
  return prose.startsWith('{') || prose.startsWith('[') ? '' : prose;
}

function sentencesOf(prose: string): string[] {
  return prose
    .split(/\n+|(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim().replace(/^(?:[-*•]|\d+[.)])\s+/, ''))
    .filter((sentence) => sentence.length >= 8);
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

function normalized(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
