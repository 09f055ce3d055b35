import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { lineCount } from '../read-ledger.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolContract, ToolOutput } from '../tool-contract.js';
import { readTextFile } from './read-tools.js';

const editFileInput = z.object({ path: z.string().min(1), old_text: z.string().min(1, 'old_text is empty: quote the exact text to replace'), new_text: z.string() }).strict();

export const editFileTool: ToolContract<z.output<typeof editFileInput>, ToolContext> = {
  name: 'edit_file',
  description: 'Replace one exact, unique occurrence of old_text in a file with new_text. Read the region first; include enough surrounding lines to make old_text unique.',
  input: editFileInput,
  effect: 'write',
  repeatSafe: false,
  timeoutMs: 10_000,
  retries: 0,
  approval: 'auto',
  run: async (input, context) => {
    const target = context.workspace.resolve(input.path, 'write');
    const text = readTextFile(target.absolute, target.relative);
    if (typeof text !== 'string') return text.rule === 'not-found' ? { ...text, content: `${target.relative} does not exist: use create_file` } : text;
    const at = text.indexOf(input.old_text);
    if (at < 0) return { ok: false, content: `old_text was not found in ${target.relative}: read the file again and quote it exactly`, rule: 'no-match' };
    const count = occurrences(text, input.old_text);
    if (count > 1) return { ok: false, content: `old_text occurs ${count} times in ${target.relative}: include more surrounding lines so it is unique`, rule: 'ambiguous-match' };

    const startLine = lineCount(text.slice(0, at)) + (at === 0 || text[at - 1] === '\n' ? 1 : 0);
    const oldEndLine = startLine + Math.max(1, lineCount(input.old_text)) - 1;
    const refusal = context.ledger.refusal(target.relative, text, startLine, oldEndLine);
    if (refusal) return { ok: false, content: refusal, rule: 'read-before-edit' };

    const next = text.slice(0, at) + input.new_text + text.slice(at + input.old_text.length);
    const problem = checkNewText(context, target.relative, text, next);
    if (problem) return problem;

    await writeFileAtomic(target.absolute, next, { encoding: 'utf8' });
    // Lines below the edit move by the change in newline count, whatever the edit's shape.
    const newEndLine = oldEndLine + newlines(input.new_text) - newlines(input.old_text);
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
  effect: 'write',
  repeatSafe: false,
  timeoutMs: 10_000,
  retries: 0,
  approval: 'auto',
  run: async (input, context) => {
    const target = context.workspace.resolve(input.path, 'write');
    const problem = checkNewText(context, target.relative, undefined, input.content);
    if (problem) return problem;
    mkdirSync(path.dirname(target.absolute), { recursive: true });
    try {
      // `wx` makes the existence check and the creation one step, so nothing created in between is overwritten.
      writeFileSync(target.absolute, input.content, { encoding: 'utf8', flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { ok: false, content: `${target.relative} already exists: read it and use edit_file`, rule: 'no-overwrite' };
      throw error;
    }
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
  effect: 'write',
  repeatSafe: false,
  timeoutMs: 10_000,
  retries: 0,
  approval: 'ask',
  run: async (input, context) => {
    const target = context.workspace.resolve(input.path, 'write');
    const text = readTextFile(target.absolute, target.relative);
    if (typeof text !== 'string' && text.rule !== 'binary-file') return text;
    unlinkSync(target.absolute);
    context.ledger.forget(target.relative);
    context.noteWrite(target.relative);
    return { ok: true, content: `deleted ${target.relative}`, data: { path: target.relative, deleted: true } };
  },
};

function checkNewText(context: ToolContext, file: string, oldText: string | undefined, newText: string): ToolOutput | undefined {
  const bytes = Buffer.byteLength(newText);
  if (bytes > context.maxWriteBytes) return { ok: false, content: `${file} would be ${bytes} bytes, over the ${context.maxWriteBytes}-byte limit for one write`, rule: 'size-cap' };
  const problems = context.findHallucinatedImports(file, oldText, newText);
  if (problems.length === 0) return undefined;
  return {
    ok: false,
    content: `the change adds imports that do not exist, so it was not written:\n${problems.map((problem) => `- ${problem.reason}`).join('\n')}`,
    rule: 'hallucinated-import',
  };
}

function newlines(text: string): number {
  return text.split('\n').length - 1;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) count++;
  return count;
}
