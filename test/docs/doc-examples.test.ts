import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runCliAsync } from '../helpers/cli-run.js';
import { createWorkspace, DOCUMENTED_PAGES, findExamples, generatedIds, normalize, runDocumentedCommand, withExitComment } from './doc-examples.js';

/**
 * The documentation's examples run as written and print what the pages show (see doc-examples.ts
 * for the convention). `HANDBOOK_UPDATE_DOCS=1 npx vitest run test/docs` rewrites the output of
 * every example whose output changed, from a real run, and leaves the others as they are.
 */
const UPDATE = process.env.HANDBOOK_UPDATE_DOCS === '1';

const pages = DOCUMENTED_PAGES.map((page) => ({ page, text: readFileSync(path.join(PROJECT_ROOT, page), 'utf8') }));
const checked = pages.filter(({ text }) => findExamples(text).length > 0);

describe('documentation examples', () => {
  it('finds the examples the pages show with their output', () => {
    const counts = Object.fromEntries(pages.map(({ page, text }) => [page, findExamples(text).length]));
    // The README's tour and the reference pages' examples: a page that loses its checked examples
    // (a fence renamed, a prompt dropped) would pass unseen otherwise.
    expect(counts['README.md']).toBeGreaterThanOrEqual(7);
    expect(checked.length).toBeGreaterThanOrEqual(4);
  });

  it('normalizes what differs between runs, and nothing else', () => {
    expect(normalize('synced /x in 1558 ms (generation 1)\n  time       3.51 s  \n\n')).toBe('synced /x in <duration> (generation 1)\n  time       <duration>');
    expect(normalize('built 2026-12-07T00:58:07.190Z at commit 4f5054d3e971; plan plan-20261207-005940-f8717e')).toBe('built <timestamp> at commit <commit>; plan plan-<id>');
    expect(normalize('  "durationMs": 3799,\n  "head": "4f5054d3e9717f651236f55180878c6f2cba24a7"')).toBe('  "durationMs": <duration>,\n  "head": "<commit>"');
    expect(normalize('edges      672: contains 165 · writes 139')).toBe('edges      672: contains 165 · writes 139');
    expect(normalize('5 steps, 1.1 s, 2329 tokens in, 151 out')).toBe('5 steps, <duration>, <n> tokens in, <n> out');
  });

  it.concurrent.for(checked)('$page: every example prints what the page shows', { timeout: 300_000 }, async ({ page, text }, { expect }) => {
    const workspace = createWorkspace();
    const lines = text.split('\n');
    /** Ids the page shows, to the ids this run made in their place: a later command names them. */
    const ids = new Map<string, string>();
    /** Ids of outputs rewritten by an update, to the new ones: a later command line is rewritten to match. */
    const renamed = new Map<string, string>();
    const replacements: Array<{ start: number; end: number; lines: string[] }> = [];
    for (const example of findExamples(text)) {
      let command = example.command;
      for (const [shown, made] of ids) command = command.split(shown).join(made);
      const result = await runDocumentedCommand(command, workspace.root);
      const actual = workspace.asDocumented(result.output);
      const shownIds = generatedIds(example.expected);
      generatedIds(actual).forEach((made, index) => {
        const shown = shownIds[index];
        if (shown !== undefined) ids.set(shown, made);
      });
      const where = `${page}:${example.commandLine + 1}: $ ${example.command}`;
      const same = normalize(actual) === normalize(example.expected) && result.code === example.exitCode;
      if (UPDATE) {
        let shownCommand = withExitComment(example.command, result.code);
        for (const [old, made] of renamed) shownCommand = shownCommand.split(old).join(made);
        if (shownCommand !== example.command) replacements.push({ start: example.commandLine, end: example.commandLine + 1, lines: [`$ ${shownCommand}`] });
        if (normalize(actual) !== normalize(example.expected)) {
          generatedIds(actual).forEach((made, index) => {
            const shown = shownIds[index];
            if (shown !== undefined && shown !== made) renamed.set(shown, made);
          });
          const output = actual.replace(/\n+$/, '').split('\n').map((line) => line.trimEnd());
          replacements.push({ start: example.outputStart, end: example.outputEnd, lines: actual.trim() === '' ? [] : output });
        }
        continue;
      }
      expect.soft(result.code, `${where}\nexit code (the page says ${example.exitCode}); output:\n${actual}`).toBe(example.exitCode);
      if (!same) expect.soft(normalize(actual), `${where}\nprinted otherwise than the page shows (HANDBOOK_UPDATE_DOCS=1 rewrites the page)`).toBe(normalize(example.expected));
    }
    if (UPDATE && replacements.length > 0) {
      for (const { start, end, lines: replacement } of replacements.sort((a, b) => b.start - a.start || b.end - a.end)) lines.splice(start, end - start, ...replacement);
      writeFileSync(path.join(PROJECT_ROOT, page), lines.join('\n'));
    }
  });

  it('ends `handbook --help` and a command\'s help with examples', async () => {
    const [program, ask] = await Promise.all([runCliAsync(['--help']), runCliAsync(['ask', '--help'])]);
    for (const help of [program, ask]) {
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/\nExamples:\n(  \$ handbook .+\n)+$/);
    }
  });
});
