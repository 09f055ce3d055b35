import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { stem } from '../../src/text/identifier-words.js';
import { WORD_LISTS } from '../../src/api/word-lists.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

/** bench/vocabulary/word-sources.json, as scripts/word-sources.mjs writes it. */
const sourcesSchema = z.object({
  harnesses: z.array(z.object({ name: z.string(), repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/), commit: z.string().regex(/^[0-9a-f]{40}$/) })),
  words: z.record(z.string(), z.array(z.string())),
  folders: z.record(z.string(), z.array(z.string())),
  files: z.record(z.string(), z.array(z.string())),
});
const sources = sourcesSchema.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'bench', 'vocabulary', 'word-sources.json'), 'utf8')));

/**
 * Names of one product: vendors, model families, harnesses, hosted services, named libraries and
 * projects. A word list that holds one describes the harnesses it was measured on, not harnesses
 * (the thesaurus once tied "model" to "gemini", which only lifts code that says so).
 */
const PRODUCT_NAMES = [
  'openai', 'anthropic', 'google', 'gemini', 'claude', 'gpt', 'chatgpt', 'mistral', 'ollama', 'groq', 'deepseek', 'llama', 'qwen', 'grok',
  'azure', 'copilot', 'codex', 'aider', 'cline', 'openhands', 'stagehand', 'langchain', 'langgraph', 'vercel', 'clearcut', 'posthog',
  'sentry', 'datadog', 'docker', 'kubernetes', 'vscode', 'jetbrains', 'github', 'gitlab', 'slack', 'react', 'ink', 'opentelemetry',
  'otel', 'playwright', 'puppeteer', 'chromium', 'seatbelt', 'browserbase', 'twilio',
];
const PRODUCT_STEMS = new Set(PRODUCT_NAMES.map(stem));

describe('word lists describe harnesses, not the ones measured', () => {
  it('were counted over at least three harnesses, each at a pinned commit', () => {
    expect(new Set(sources.harnesses.map((harness) => harness.name)).size).toBeGreaterThanOrEqual(3);
  });

  it('hold only words found in the code of at least three different harnesses', () => {
    const rare: string[] = [];
    for (const list of WORD_LISTS) {
      const found = list.kind === 'folder' ? sources.folders : list.kind === 'file' ? sources.files : sources.words;
      for (const word of list.words) {
        const harnesses = new Set(found[word] ?? []);
        if (harnesses.size < 3) rare.push(`${list.name} (${list.source}): "${word}" in ${harnesses.size === 0 ? 'no harness' : [...harnesses].join(', ')}; run \`npm run word-sources\` if the list changed`);
      }
    }
    expect(rare).toEqual([]);
  });

  it('name no product', () => {
    const named = WORD_LISTS.flatMap((list) => list.words.filter((word) => PRODUCT_STEMS.has(stem(word.toLowerCase()))).map((word) => `${list.name}: ${word}`));
    expect(named).toEqual([]);
  });

  it('are every list the ranking and the organizing read, each non-empty', () => {
    expect(WORD_LISTS.map((list) => list.name)).toEqual([
      'stop words', 'thesaurus', 'request words', 'cross-cutting words', 'names of the system', 'peripheral folders', 'stage hints',
      'behaviour-name plain words', 'outside folders', 'interface folders', 'entry files', 'heavy test folders', 'heavy test kinds',
    ]);
    for (const list of WORD_LISTS) expect(list.words.length, list.name).toBeGreaterThan(0);
  });
});
