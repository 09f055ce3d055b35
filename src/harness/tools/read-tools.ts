import { z } from 'zod';
import { lineCount } from '../read-ledger.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolContract, ToolOutput } from '../tool-contract.js';
import type { FileText } from '../workspace.js';

const LINES_PER_READ = 400;
const LISTED_FILES = 500;
const SEARCH_HITS = 12;

const readFileInput = z
  .object({
    path: z.string().min(1),
    startLine: z.number().int().positive().optional(),
    endLine: z.number().int().positive().optional(),
  })
  .strict()
  .refine((input) => input.startLine === undefined || input.endLine === undefined || input.startLine <= input.endLine, 'startLine must not be after endLine');

export const readFileTool: ToolContract<z.output<typeof readFileInput>, ToolContext> = {
  name: 'read_file',
  description: `Read a text file of the repository, with line numbers. Reads at most ${LINES_PER_READ} lines at a time; give startLine and endLine (1-based, inclusive) for a region.`,
  input: readFileInput,
  effect: 'read',
  repeatSafe: true,
  timeoutMs: 10_000,
  retries: 1,
  approval: 'auto',
  run: async (input, context) => {
    const read = context.workspace.readText(input.path);
    if (read.status !== 'text') return unreadable(read);
    const { path: target, text } = read;
    const total = lineCount(text);
    if (total === 0) {
      context.ledger.recordRead(target.relative, text, 1, 1);
      return { ok: true, content: `${target.relative} is empty`, data: { path: target.relative, lines: 0 } };
    }
    const start = Math.min(input.startLine ?? 1, total);
    const end = Math.min(input.endLine ?? start + LINES_PER_READ - 1, total, start + LINES_PER_READ - 1);
    const lines = text.split('\n').slice(start - 1, end);
    context.ledger.recordRead(target.relative, text, start, end);
    const width = String(end).length;
    const body = lines.map((line, index) => `${String(start + index).padStart(width)}| ${line}`).join('\n');
    const more = end < total ? `\n(lines ${start}-${end} of ${total}; read on with startLine ${end + 1})` : '';
    return { ok: true, content: `${target.relative} lines ${start}-${end} of ${total}:\n${body}${more}`, data: { path: target.relative, startLine: start, endLine: end, lines: total } };
  },
};

const listFilesInput = z.object({ path: z.string().min(1).optional(), pattern: z.string().min(1).optional() }).strict();

export const listFilesTool: ToolContract<z.output<typeof listFilesInput>, ToolContext> = {
  name: 'list_files',
  description: `List files under a folder of the repository (default: the root), optionally filtered by a glob such as "**/*.ts". Lists at most ${LISTED_FILES}.`,
  input: listFilesInput,
  effect: 'read',
  repeatSafe: true,
  timeoutMs: 20_000,
  retries: 1,
  approval: 'auto',
  run: async (input, context) => {
    const listing = await context.workspace.listFiles(input.path ?? '.', input.pattern ?? '**/*');
    const folder = listing.path.relative || '.';
    if (listing.status !== 'listed') {
      return listing.status === 'missing' ? { ok: false, content: `${folder} does not exist`, rule: 'not-found' } : { ok: false, content: `${folder} is not a folder`, rule: 'not-a-folder' };
    }
    const files = listing.files;
    const shown = files.slice(0, LISTED_FILES);
    const more = files.length > shown.length ? `\n(${files.length - shown.length} more not shown: narrow the path or pattern)` : '';
    return { ok: true, content: files.length === 0 ? 'no files match' : shown.join('\n') + more, data: { count: files.length } };
  },
};

const searchInput = z.object({ query: z.string().trim().min(1).max(2000) }).strict();

export const searchTool: ToolContract<z.output<typeof searchInput>, ToolContext> = {
  name: 'search',
  description: 'Ask the repository\'s handbook where a behavior is implemented ("where are secrets masked?"); answers with source locations, best first, each with the hash of its code as it stands now.',
  input: searchInput,
  effect: 'read',
  repeatSafe: true,
  timeoutMs: 60_000,
  retries: 1,
  approval: 'auto',
  run: async (input, context) => {
    if (!context.search) return { ok: false, content: 'this repository has no handbook to search: use list_files and read_file', rule: 'no-handbook' };
    const hits = await context.search(input.query, SEARCH_HITS);
    if (hits.length === 0) return { ok: true, content: 'the handbook found nothing for that request', data: { count: 0 } };
    const lines = hits.map((hit) => `${hit.file}:${hit.line}-${hit.endLine} ${hit.symbol}${hit.hash ? ` (hash ${hit.hash})` : ''}${hit.stage ? ` [${hit.stage}]` : ''}${hit.why ? ` — ${hit.why}` : ''}`);
    return { ok: true, content: lines.join('\n'), data: { count: hits.length } };
  },
};

/** Why a file's text cannot be shown, for the model. */
export function unreadable(read: Exclude<FileText, { status: 'text' }>): ToolOutput {
  const file = read.path.relative;
  switch (read.status) {
    case 'missing':
      return { ok: false, content: `${file} does not exist`, rule: 'not-found' };
    case 'folder':
      return { ok: false, content: `${file || '.'} is a folder: use list_files`, rule: 'not-a-file' };
    case 'binary':
      return { ok: false, content: `${file} is a binary file`, rule: 'binary-file' };
  }
}
