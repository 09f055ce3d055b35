import { describe, expect, it } from 'vitest';
import { parseTextActions, textActionInstructions } from '../../src/llm/json-text-actions.js';

const FENCE = '```';
const READ_A = { name: 'read_file', arguments: { path: 'src/a.ts' } };

function fenced(json: string, tag = 'json'): string {
  return `${FENCE}${tag}\n${json}\n${FENCE}`;
}

describe('parseTextActions', () => {
  it('reads an action between prose and keeps the prose', () => {
    const text = `I'll read the entry point first.\n\n${fenced('{"tool": "read_file", "arguments": {"path": "src/a.ts"}}')}\n\nThen I'll decide where the guard goes.`;
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [READ_A],
      prose: "I'll read the entry point first.\n\nThen I'll decide where the guard goes.",
    });
  });

  it('reads several blocks in order', () => {
    const text = `${fenced('{"tool": "read_file", "arguments": {"path": "src/a.ts"}}')}\n${fenced('{"tool": "run_command", "arguments": {"command": "npm test"}}')}`;
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [READ_A, { name: 'run_command', arguments: { command: 'npm test' } }],
      prose: '',
    });
  });

  it('reads an array of actions in one block', () => {
    const text = fenced('[\n  {"tool": "read_file", "arguments": {"path": "src/a.ts"}},\n  {"tool": "read_file", "arguments": {"path": "src/b.ts"}}\n]');
    expect(parseTextActions(text)).toMatchObject({ kind: 'actions', actions: [READ_A, { name: 'read_file', arguments: { path: 'src/b.ts' } }] });
  });

  it('reads one action per line in one block', () => {
    const text = fenced('{"tool": "read_file", "arguments": {"path": "src/a.ts"}}\n{"tool": "task_complete", "arguments": {"summary": "done"}}');
    expect(parseTextActions(text)).toMatchObject({ kind: 'actions', actions: [READ_A, { name: 'task_complete', arguments: { summary: 'done' } }] });
  });

  it.each([
    ['a trailing comma', '{"tool": "read_file", "arguments": {"path": "src/a.ts",},}', 'json'],
    ['single quotes', "{'tool': 'read_file', 'arguments': {'path': 'src/a.ts'}}", 'json'],
    ['unquoted keys', '{tool: "read_file", arguments: {path: "src/a.ts"}}', 'json'],
    ['comments', '// look at the entry point\n{"tool": "read_file", /* the one we saw */ "arguments": {"path": "src/a.ts"}}', 'jsonc'],
    ['a missing closing brace', '{"tool": "read_file", "arguments": {"path": "src/a.ts"}', 'json'],
  ])('repairs %s', (_, json, tag) => {
    expect(parseTextActions(fenced(json, tag))).toEqual({ kind: 'actions', actions: [READ_A], prose: '' });
  });

  it('repairs a missing closing brace when the text stops before the closing fence', () => {
    expect(parseTextActions(`Reading it now.\n${FENCE}json\n{"tool": "read_file", "arguments": {"path": "src/a.ts"}`)).toEqual({
      kind: 'actions',
      actions: [READ_A],
      prose: 'Reading it now.',
    });
  });

  it.each([['JSON'], [''], ['jsonc']])('accepts the fence tag %j', (tag) => {
    expect(parseTextActions(fenced('{"tool": "read_file", "arguments": {"path": "src/a.ts"}}', tag))).toMatchObject({ kind: 'actions', actions: [READ_A] });
  });

  it('ignores fences in other languages, even when they hold an action', () => {
    const text = `The harness builds calls shaped like this:\n${fenced("{ tool: 'read_file', arguments: { path: 'src/a.ts' } }", 'ts')}`;
    expect(parseTextActions(text)).toEqual({ kind: 'none', prose: text });
  });

  it.each([
    ['name and args', '{"name": "read_file", "args": {"path": "src/a.ts"}}'],
    ['name and input', '{"name": "read_file", "input": {"path": "src/a.ts"}}'],
    ['tool and parameters', '{"tool": "read_file", "parameters": {"path": "src/a.ts"}}'],
  ])('accepts the aliases %s', (_, json) => {
    expect(parseTextActions(fenced(json))).toMatchObject({ kind: 'actions', actions: [READ_A] });
  });

  it('parses arguments given as a JSON string', () => {
    expect(parseTextActions(fenced('{"tool": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}'))).toMatchObject({ kind: 'actions', actions: [READ_A] });
  });

  it('reads empty string arguments as none', () => {
    expect(parseTextActions(fenced('{"tool": "list_files", "arguments": ""}'))).toEqual({ kind: 'actions', actions: [{ name: 'list_files', arguments: {} }], prose: '' });
  });

  it('gives an action without arguments empty ones', () => {
    expect(parseTextActions(fenced('{"tool": "list_files"}'))).toEqual({ kind: 'actions', actions: [{ name: 'list_files', arguments: {} }], prose: '' });
  });

  it('leaves JSON that is not an action in the prose', () => {
    const data = fenced('{"name": "harness-handbook", "version": "0.1.0", "type": "module"}');
    const text = `The package manifest reads:\n${data}\nSo it is ESM; I will check the imports.\n${fenced('{"tool": "read_file", "arguments": {"path": "src/a.ts"}}')}`;
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [READ_A],
      prose: `The package manifest reads:\n${data}\nSo it is ESM; I will check the imports.`,
    });
  });

  it('leaves command output in a plain fence alone, even when it mentions a tool', () => {
    const text = `The last run printed:\n${fenced('tool: eslint exited with code 1', '')}\nThe lint rule is the cause.`;
    expect(parseTextActions(text)).toEqual({ kind: 'none', prose: text });
  });

  it('finds no action in a reply with only data', () => {
    const text = `The response body is:\n${fenced('[{"id": 1, "status": "open"}, {"id": 2, "status": "closed"}]')}`;
    expect(parseTextActions(text)).toEqual({ kind: 'none', prose: text });
  });

  it('reports an action attempt it cannot repair, naming the block', () => {
    const text = `First the config.\n${fenced('{"tool": "read_file", "arguments": {"path": "a.json"}}')}\nThen the source.\n${fenced('{"tool": "read_file", "arguments": read_file(path="src/a.ts")}')}`;
    const parse = parseTextActions(text);
    expect(parse).toMatchObject({ kind: 'malformed', prose: 'First the config.\n\nThen the source.' });
    expect(parse.kind === 'malformed' && parse.problem).toMatch(/^JSON block 2 looks like an action but is not valid JSON \(.+\); write it as \{"tool": NAME, "arguments": \{\.\.\.\}\}\.$/);
  });

  it.each([
    ['a tool that is not a string', '{"tool": 7, "arguments": {}}', 'JSON block 1 has no tool name'],
    ['string arguments that are not JSON', '{"tool": "read_file", "arguments": "path=src/a.ts"}', 'The arguments of "read_file" in JSON block 1 are a string that is not a JSON object'],
    ['an array item that is not an action', '[{"tool": "read_file", "arguments": {"path": "src/a.ts"}}, "then run the tests"]', 'Item 2 of JSON block 1 is not an action'],
  ])('reports %s', (_, json, problem) => {
    const parse = parseTextActions(fenced(json));
    expect(parse.kind).toBe('malformed');
    expect(parse.kind === 'malformed' && parse.problem.startsWith(problem)).toBe(true);
  });

  it('reads an unfenced reply that is one object, repairing it', () => {
    expect(parseTextActions("  {tool: 'read_file', arguments: {path: 'src/a.ts'}\n")).toEqual({ kind: 'actions', actions: [READ_A], prose: '' });
  });

  it('finds an unfenced action object inside prose', () => {
    const text = 'The failure is in the loader. {"name": "read_file", "arguments": {"path": "src/a.ts"}} That should show the bad import.';
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [READ_A],
      prose: 'The failure is in the loader. That should show the bad import.',
    });
  });

  it('matches braces past the ones inside strings', () => {
    const content = "export function guard(x) { if (!x) { throw new Error('}'); } return \"{\"; }";
    const text = `Writing the guard: {"tool": "write_file", "arguments": {"path": "src/guard.ts", "content": ${JSON.stringify(content)}}} which closes the gap }.`;
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [{ name: 'write_file', arguments: { path: 'src/guard.ts', content } }],
      prose: 'Writing the guard: which closes the gap }.',
    });
  });

  it('skips unfenced objects that are not actions', () => {
    const text = 'The options object {"retries": 3, "timeoutMs": 500} is fine; now {"tool": "run_command", "arguments": {"command": "npm test"}}';
    expect(parseTextActions(text)).toEqual({
      kind: 'actions',
      actions: [{ name: 'run_command', arguments: { command: 'npm test' } }],
      prose: 'The options object {"retries": 3, "timeoutMs": 500} is fine; now',
    });
  });

  it('looks past an unclosed brace in the prose', () => {
    const text = 'The template has a stray { on line 3, so: {"tool": "read_file", "arguments": {"path": "src/a.ts"}}';
    expect(parseTextActions(text)).toEqual({ kind: 'actions', actions: [READ_A], prose: 'The template has a stray { on line 3, so:' });
  });

  it('reports an unfenced action attempt it cannot repair', () => {
    const parse = parseTextActions('Reading it: {"tool": "read_file", "arguments": read_file(path="src/a.ts")');
    expect(parse).toMatchObject({ kind: 'malformed', prose: 'Reading it:' });
    expect(parse.kind === 'malformed' && parse.problem.startsWith('The JSON object in your text looks like an action but is not valid JSON')).toBe(true);
  });

  it('reports a broken unfenced action after a good one', () => {
    const parse = parseTextActions('{"tool": "read_file", "arguments": {"path": "src/a.ts"}} and then {"tool": "run_command", "arguments": npm test');
    expect(parse.kind).toBe('malformed');
  });

  it('finds nothing in plain prose', () => {
    expect(parseTextActions('  I fixed the loader; all tests pass.\n')).toEqual({ kind: 'none', prose: 'I fixed the loader; all tests pass.' });
  });

  it('finds nothing in empty text', () => {
    expect(parseTextActions('')).toEqual({ kind: 'none', prose: '' });
  });
});

describe('textActionInstructions', () => {
  const tools = [
    {
      name: 'read_file',
      description: 'Reads a text file.\nReturns numbered lines.',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    { name: 'task_complete', description: 'Ends the task with a summary.', inputSchema: { type: 'object', properties: { summary: { type: 'string' } } } },
    { name: 'task_blocked', description: 'Ends the task as blocked.', inputSchema: { type: 'object', properties: { reason: { type: 'string' } } } },
  ];

  it('lists every tool with its description and compact schema', () => {
    const instructions = textActionInstructions(tools);
    expect(instructions).toContain('- read_file: Reads a text file. Returns numbered lines.\n  arguments: {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}');
    expect(instructions).toContain('- task_complete: Ends the task with a summary.\n  arguments: {"type":"object","properties":{"summary":{"type":"string"}}}');
    expect(instructions).toContain('- task_blocked: Ends the task as blocked.\n  arguments: {"type":"object","properties":{"reason":{"type":"string"}}}');
    expect(instructions).not.toContain('$schema');
  });

  it('teaches the block form, ending turns with actions, and never only announcing', () => {
    const instructions = textActionInstructions(tools);
    expect(instructions).toContain('```json\n{"tool": "NAME", "arguments": {...}}\n```');
    expect(instructions).toMatch(/End every turn with one or more actions/);
    expect(instructions).toMatch(/To finish, use the terminal tools in the list/);
    expect(instructions).toMatch(/Never only announce an action/);
  });

  it('teaches a format its own parser reads', () => {
    const example = /```json\n.*\n```/.exec(textActionInstructions(tools))?.[0].replace('{...}', '{"path": "src/a.ts"}').replace('"NAME"', '"read_file"');
    expect(parseTextActions(example ?? '')).toEqual({ kind: 'actions', actions: [READ_A], prose: '' });
  });
});
