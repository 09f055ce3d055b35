import { z } from 'zod';
import { lineCount } from '../read-ledger.js';
import type { ToolContext } from '../tool-context.js';
import { PathRefused } from '../workspace.js';
import type { ToolContract, ToolOutput } from '../tool-contract.js';
import { unreadable } from './read-tools.js';

/** What every tool that writes through the journal promises: one attempt, never repeated, and time to wait its turn at the journal. */
const JOURNALED_WRITE = {
  effect: 'write',
  repeatSafe: false,
  // Longer than the journal's lock wait: a write must not be given up while it waits its turn.
  timeoutMs: 30_000,
  retries: 0,
} as const;

const editFileInput = z.object({ path: z.string().min(1), old_text: z.string().min(1, 'old_text is empty: quote the exact text to replace'), new_text: z.string() }).strict();

export const editFileTool: ToolContract<z.output<typeof editFileInput>, ToolContext> = {
  name: 'edit_file',
  description: 'Replace one exact, unique occurrence of old_text in a file with new_text. Read the region first; include enough surrounding lines to make old_text unique.',
  input: editFileInput,
  ...JOURNALED_WRITE,
  approval: 'auto',
  run: async (input, context, signal) => {
    const read = context.workspace.readText(input.path, 'write');
    if (read.status === 'missing') return { ok: false, content: `${read.path.relative} does not exist: use create_file`, rule: 'not-found' };
    if (read.status !== 'text') return unreadable(read);
    const { path: target, text } = read;
    const { oldText, newText } = inLineEndingsOf(text, input.old_text, input.new_text);
    const at = text.indexOf(oldText);
    if (at < 0) return { ok: false, content: `old_text was not found in ${target.relative}: read the file again and quote it exactly`, rule: 'no-match' };
    const count = occurrences(text, oldText);
    if (count > 1) return { ok: false, content: `old_text occurs ${count} times in ${target.relative}: include more surrounding lines so it is unique`, rule: 'ambiguous-match' };

    const startLine = lineCount(text.slice(0, at)) + (at === 0 || text[at - 1] === '\n' ? 1 : 0);
    const oldEndLine = startLine + Math.max(1, lineCount(oldText)) - 1;
    const refusal = context.ledger.refusal(target.relative, text, startLine, oldEndLine);
    if (refusal) return { ok: false, content: refusal, rule: 'read-before-edit' };

    const next = text.slice(0, at) + newText + text.slice(at + oldText.length);
    const problem = checkNewText(context, target.relative, text, next);
    if (problem) return problem;

    await context.journalWrite({ kind: 'write', path: target.relative, before: Buffer.from(text, 'utf8'), after: Buffer.from(next, 'utf8') });
    // A call the harness already gave up on (its timeout, the run's end) must not write behind its back.
    signal.throwIfAborted();
    context.workspace.writeText(target.relative, next, { maxBytes: context.maxWriteBytes });
    // Lines below the edit move by the change in newline count, whatever the edit's shape.
    const newEndLine = oldEndLine + newlines(newText) - newlines(oldText);
    context.ledger.recordEdit(target.relative, next, startLine, oldEndLine, newEndLine);
    context.noteWrite(target.relative);
    return {
      ok: true,
      content: `edited ${target.relative}: lines ${startLine}-${oldEndLine} are now lines ${startLine}-${newEndLine}`,
      data: { path: target.relative, startLine, oldEndLine, newEndLine },
    };
  },
};

const createFileInput = z.object({ path: z.string().min(1), content: z.string() }).strict();

export const createFileTool: ToolContract<z.output<typeof createFileInput>, ToolContext> = {
  name: 'create_file',
  description: 'Create a new file with the given content. Refuses to overwrite an existing file: change existing files with edit_file.',
  input: createFileInput,
  ...JOURNALED_WRITE,
  approval: 'auto',
  run: async (input, context, signal) => {
    const target = context.workspace.resolve(input.path, 'write');
    // Refused here, before it is journaled: a create that could never happen must leave no entry to undo.
    if (context.workspace.readFile(target.relative, 'read').status !== 'missing') throw new PathRefused('no-overwrite', `"${target.relative}" already exists; creating never overwrites (change it with edit_file)`);
    const problem = checkNewText(context, target.relative, undefined, input.content);
    if (problem) return problem;
    await context.journalWrite({ kind: 'create', path: target.relative, before: null, after: Buffer.from(input.content, 'utf8') });
    signal.throwIfAborted();
    context.workspace.createText(target.relative, input.content, { maxBytes: context.maxWriteBytes });
    context.ledger.recordCreate(target.relative, input.content);
    context.noteWrite(target.relative);
    return { ok: true, content: `created ${target.relative} (${lineCount(input.content)} lines)`, data: { path: target.relative, created: true } };
  },
};

const deleteFileInput = z.object({ path: z.string().min(1) }).strict();

export const deleteFileTool: ToolContract<z.output<typeof deleteFileInput>, ToolContext> = {
  name: 'delete_file',
  description: 'Delete a file of the repository.',
  input: deleteFileInput,
  ...JOURNALED_WRITE,
  approval: 'ask',
  run: async (input, context, signal) => {
    const existing = context.workspace.readFile(input.path, 'write');
    const target = existing.path;
    if (existing.status === 'missing') return { ok: false, content: `${target.relative} does not exist`, rule: 'not-found' };
    if (existing.status !== 'file') throw new PathRefused('not-a-regular-file', `"${target.relative}" is a folder; delete_file removes files`);
    await context.journalWrite({ kind: 'delete', path: target.relative, before: existing.bytes, after: null });
    signal.throwIfAborted();
    const removal = context.workspace.remove(target.relative);
    if (removal.status === 'missing') return { ok: false, content: `${target.relative} does not exist`, rule: 'not-found' };
    context.ledger.forget(target.relative);
    context.noteWrite(target.relative);
    return { ok: true, content: `deleted ${target.relative}`, data: { path: target.relative, deleted: true } };
  },
};

function checkNewText(context: ToolContext, file: string, oldText: string | undefined, newText: string): ToolOutput | undefined {
  // The size cap first: the import check should not parse text that could never be written.
  context.workspace.checkSize(file, newText, { maxBytes: context.maxWriteBytes });
  const problems = context.findHallucinatedImports(file, oldText, newText);
  if (problems.length === 0) return undefined;
  return {
    ok: false,
    content: `the change adds imports that do not exist, so it was not written:\n${problems.map((problem) => `- ${problem.reason}`).join('\n')}`,
    rule: 'hallucinated-import',
  };
}

/**
 * Models write line breaks as \n whatever the file holds: in a file with CRLF line endings an
 * old_text of several lines never matched, and the model, told to quote it exactly, could not.
 * Such an edit is matched, and written, in the file's own line endings.
 */
function inLineEndingsOf(text: string, oldText: string, newText: string): { oldText: string; newText: string } {
  if (text.includes(oldText) || oldText.includes('\r') || !oldText.includes('\n') || !text.includes('\r\n')) return { oldText, newText };
  const crlf = (lines: string): string => lines.replace(/\r?\n/g, '\r\n');
  return { oldText: crlf(oldText), newText: crlf(newText) };
}

function newlines(text: string): number {
  return text.split('\n').length - 1;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count++;
  return count;
}
