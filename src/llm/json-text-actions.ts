import { jsonrepair } from 'jsonrepair';

/**
 * The `json_text` tool-calling mode: for models without native tool calls, the model writes each
 * action as a JSON block in its text. Weak models bend the format, so parsing forgives what can
 * be repaired and reports, rather than drops, an action it cannot read: a silently lost action
 * would leave the model believing it acted.
 */

export interface TextAction {
  name: string;
  arguments: unknown;
}

export type TextActionParse =
  | { kind: 'actions'; actions: TextAction[]; /** the prose outside the action blocks, trimmed */ prose: string }
  | { kind: 'none'; prose: string }
  | { kind: 'malformed'; /** what is wrong, one sentence, for the model to fix its output */ problem: string; prose: string };

const ACTION_FORM = '{"tool": NAME, "arguments": {...}}';
const ARGUMENT_KEYS = ['arguments', 'args', 'input', 'parameters'] as const;
const JSON_FENCE_TAGS = new Set(['', 'json', 'jsonc', 'json5']);
// An unterminated fence runs to the end: models often stop right after the JSON.
const FENCE = /```([\w-]*)([\s\S]*?)(?:```|$)/g;

type Reading = { kind: 'actions'; actions: TextAction[] } | { kind: 'ignored' } | { kind: 'malformed'; problem: string };

/** A span of the text read as JSON; only spans that are not `ignored` count as action blocks. */
interface Block {
  start: number;
  end: number;
  reading: Reading;
}

export function parseTextActions(text: string): TextActionParse {
  const blocks = (text.includes('```') ? fencedBlocks(text) : unfencedBlocks(text)).filter((block) => block.reading.kind !== 'ignored');
  const prose = proseOutside(text, blocks);
  const malformed = blocks.find((block) => block.reading.kind === 'malformed')?.reading;
  // One unreadable action spoils the turn: running the others would act on half a plan.
  if (malformed?.kind === 'malformed') return { kind: 'malformed', problem: malformed.problem, prose };
  const actions = blocks.flatMap((block) => (block.reading.kind === 'actions' ? block.reading.actions : []));
  return actions.length === 0 ? { kind: 'none', prose } : { kind: 'actions', actions, prose };
}

/** The instructions appended to the system prompt in json_text mode: how to write an action, with the list of tools (name, description, JSON schema of the arguments) rendered compactly. */
export function textActionInstructions(tools: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>): string {
  const list = tools.map((tool) => `- ${tool.name}: ${tool.description.replace(/\s+/g, ' ').trim()}\n  arguments: ${JSON.stringify(withoutMeta(tool.inputSchema))}`);
  return [
    '# How to act',
    'You act only through actions. An action is a fenced JSON block of this form:',
    '```json',
    '{"tool": "NAME", "arguments": {...}}',
    '```',
    "End every turn with one or more actions: one ```json block per action, or one block holding a JSON array of actions. The arguments must match the tool's schema below.",
    'Never only announce an action ("I will read the file"): write its block in the same turn.',
    'To finish, use the terminal tools in the list: the one that reports the task complete, the one that reports it blocked, or the one that asks the user for input.',
    '',
    '# Tools',
    ...list,
  ].join('\n');
}

// The schema dialect is noise to the model; the shape is what it needs.
function withoutMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let jsonBlocks = 0;
  for (const match of text.matchAll(FENCE)) {
    if (!JSON_FENCE_TAGS.has((match[1] ?? '').toLowerCase())) continue;
    jsonBlocks += 1;
    blocks.push({ start: match.index, end: match.index + match[0].length, reading: readJson(match[2] ?? '', `JSON block ${jsonBlocks}`) });
  }
  return blocks;
}

/** Top-level `{...}` objects in text without fences, found by brace matching; an unclosed one runs to the end. */
function unfencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let unclosed: Block | undefined;
  let index = text.indexOf('{');
  while (index >= 0) {
    const close = matchingBrace(text, index);
    const end = close === undefined ? text.length : close + 1;
    const block = { start: index, end, reading: readJson(text.slice(index, end), 'the JSON object in your text') };
    if (close === undefined && block.reading.kind !== 'actions') {
      // A stray brace in the prose never closes either; an object after it is the better reading.
      unclosed ??= block;
      index = text.indexOf('{', index + 1);
      continue;
    }
    blocks.push(block);
    index = text.indexOf('{', end);
  }
  const foundLater = blocks.some((block) => unclosed !== undefined && block.start > unclosed.start && block.reading.kind !== 'ignored');
  return unclosed === undefined || foundLater ? blocks : [...blocks, unclosed];
}

/** The index of the brace closing the one at `open`, skipping braces inside quoted strings. */
function matchingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let index = open; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

function readJson(json: string, where: string): Reading {
  const parsed = parseLenient(json);
  if (!parsed.ok) {
    return looksLikeAction(json)
      ? { kind: 'malformed', problem: `${capitalize(where)} looks like an action but is not valid JSON (${parsed.reason}); write it as ${ACTION_FORM}.` }
      : { kind: 'ignored' };
  }
  const value = parsed.value;
  if (Array.isArray(value)) {
    if (!value.some(isActionLike)) return { kind: 'ignored' };
    const actions: TextAction[] = [];
    for (const [index, item] of value.entries()) {
      const action = isActionLike(item) ? toAction(item, `item ${index + 1} of ${where}`) : `Item ${index + 1} of ${where} is not an action; write each item as ${ACTION_FORM}.`;
      if (typeof action === 'string') return { kind: 'malformed', problem: action };
      actions.push(action);
    }
    return { kind: 'actions', actions };
  }
  if (isActionLike(value)) {
    const action = toAction(value, where);
    return typeof action === 'string' ? { kind: 'malformed', problem: action } : { kind: 'actions', actions: [action] };
  }
  // Repair can turn a broken object into a bare string; if it was meant as an action, say so.
  return isRecord(value) || !looksLikeAction(json) ? { kind: 'ignored' } : { kind: 'malformed', problem: `${capitalize(where)} looks like an action but is not a JSON object; write it as ${ACTION_FORM}.` };
}

function parseLenient(json: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    try {
      return { ok: true, value: JSON.parse(jsonrepair(json)) as unknown };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }
}

/** Raw text meant as an action: an object or array with a `tool` key, or a `name` key beside an arguments key. */
function looksLikeAction(json: string): boolean {
  const trimmed = json.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  const hasKey = (key: string): boolean => new RegExp(`["']?\\b${key}\\b["']?\\s*:`).test(trimmed);
  return hasKey('tool') || (hasKey('name') && ARGUMENT_KEYS.some(hasKey));
}

/**
 * An object meant as an action. `name` alone is a common data key ({"name": "Alice", "age": 30}),
 * so it counts only beside an arguments key or by itself.
 */
function isActionLike(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  if ('tool' in value) return true;
  if (!('name' in value)) return false;
  return ARGUMENT_KEYS.some((key) => key in value) || Object.keys(value).length === 1;
}

/** The action, or the problem with it as one sentence. */
function toAction(value: Record<string, unknown>, where: string): TextAction | string {
  const name = 'tool' in value ? value.tool : value.name;
  if (typeof name !== 'string' || name.trim() === '') return `${capitalize(where)} has no tool name: "tool" must be a non-empty string, as in ${ACTION_FORM}.`;
  const key = ARGUMENT_KEYS.find((candidate) => candidate in value);
  const given = key === undefined ? undefined : value[key];
  if (typeof given !== 'string') return { name: name.trim(), arguments: given ?? {} };
  if (given.trim() === '') return { name: name.trim(), arguments: {} };
  const parsed = parseLenient(given);
  if (!parsed.ok || !isRecord(parsed.value)) return `The arguments of "${name.trim()}" in ${where} are a string that is not a JSON object; give them as a JSON object.`;
  return { name: name.trim(), arguments: parsed.value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function proseOutside(text: string, blocks: readonly Block[]): string {
  const pieces: string[] = [];
  let from = 0;
  for (const block of blocks) {
    pieces.push(text.slice(from, block.start));
    from = block.end;
  }
  pieces.push(text.slice(from));
  // An object cut from mid-sentence leaves the spaces of both sides; keep one.
  const joined = pieces.reduce((prose, piece) => (/[ \t]$/.test(prose) ? prose + piece.replace(/^[ \t]+/, '') : prose + piece));
  return joined.replace(/\n{3,}/g, '\n\n').trim();
}
