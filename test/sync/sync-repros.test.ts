import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { buildHandbook, LiveHandbook, syncHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

/**
 * Every counterexample the sync property test has found, shrunk to one edit, kept as a regression
 * catalog: A slot lines, B doc comments, C syntax errors that nest units, D heritage and dispatch,
 * E renames of types, E2 types seen through annotations, F barrel re-exports. Each runs through a
 * kept-open handbook and through `handbook sync` from the store.
 */
const write = (repo: string, files: Record<string, string>) => { for (const [f, t] of Object.entries(files)) { mkdirSync(path.dirname(path.join(repo, f)), { recursive: true }); writeFileSync(path.join(repo, f), t); } };
type Case = { name: string; files?: Record<string, string>; edit: (repo: string) => void; warm?: (repo: string) => void };
const change = (repo: string, file: string, f: (t: string) => string) => writeFileSync(path.join(repo, file), f(readFileSync(path.join(repo, file), 'utf8')));
const cases: Case[] = [
  { name: 'A slot line: blank line above an interface (tiny)', files: { 'src/config.ts': 'export interface Config {\n  mode: string;\n}\n', 'src/reader.ts': "import type { Config } from './config';\nexport function modeOf(config: Config): string {\n  return config.mode;\n}\n" }, edit: (r) => write(r, { 'src/config.ts': '\nexport interface Config {\n  mode: string;\n}\n' }) },
  { name: 'A slot line: blank line at top of loadConfig.ts (fixture)', edit: (r) => change(r, 'src/config/loadConfig.ts', (t) => `\n${t}`) },
  { name: 'B doc only edit', files: { 'src/a.ts': '/** Counts the tokens. */\nexport function measure(): number { return 1; }\n' }, edit: (r) => write(r, { 'src/a.ts': '/** Estimates the budget. */\nexport function measure(): number { return 1; }\n' }) },
  { name: 'B orphaned doc', files: { 'src/a.ts': '/** Why the history was compacted. */\nexport type Reason = string;\n\nexport let activeRunId = 1;\n' }, edit: (r) => write(r, { 'src/a.ts': '/** Why the history was compacted. */\n\nexport let activeRunId = 1;\n' }) },
  { name: 'B stage follows doc (needs a stored sync first)', files: { 'src/a.ts': '/** Masks secrets and api keys before logging; redacts credentials. */\nexport function x1(): number { return 1; }\n/** Other. */\nexport function x2(): number { return 2; }\n' }, warm: (r) => write(r, { 'src/b.ts': 'export const unrelated = 1;\n' }), edit: (r) => change(r, 'src/a.ts', (t) => t.replace('Masks secrets and api keys before logging; redacts credentials.', 'Retries the model provider request with exponential backoff after a rate limit.')) },
  { name: 'C closing brace dropped: next function nested (tiny)', files: { 'src/a.ts': 'function outer(): number {\n  return 1;\n}\n\nexport function inner(): number {\n  return 2;\n}\n', 'src/b.ts': "import { inner } from './a';\nexport function use(): number {\n  return inner();\n}\n" }, edit: (r) => write(r, { 'src/a.ts': 'function outer(): number {\n  return 1;\n\n\nexport function inner(): number {\n  return 2;\n}\n' }) },
  { name: 'C `import { from;` inside providerKindFor (fixture)', edit: (r) => change(r, 'src/providers/createProvider.ts', (t) => t.replace("  if (process.env.HARNESS_PROVIDER === 'openai' || process.env.HARNESS_PROVIDER === 'anthropic') {\n", "  if (process.env.HARNESS_PROVIDER === 'openai' || process.env.HARNESS_PROVIDER === 'anthropic') {\nimport { from;\n")) },
  { name: 'C `class {` inside HttpError constructor params (fixture)', edit: (r) => change(r, 'src/providers/baseHttpProvider.ts', (t) => t.replace('    readonly status: number,', 'class {\n    readonly status: number,')) },
  { name: 'D remove implements (tiny)', files: { 'src/tool.ts': 'export interface Tool { execute(input: string): string }\n', 'src/runner.ts': "import type { Tool } from './tool';\nexport function runAll(tools: Tool[]): string[] { return tools.map((tool) => tool.execute('x')); }\n", 'src/echo.ts': "import type { Tool } from './tool';\nexport class Echo implements Tool { execute(input: string): string { return input; } }\n" }, edit: (r) => change(r, 'src/echo.ts', (t) => t.replace(' implements Tool', '')) },
  { name: 'D add implements (tiny)', files: { 'src/tool.ts': 'export interface Tool { execute(input: string): string }\n', 'src/runner.ts': "import type { Tool } from './tool';\nexport function runAll(tools: Tool[]): string[] { return tools.map((tool) => tool.execute('x')); }\n", 'src/echo.ts': "import type { Tool } from './tool';\nexport class Echo { execute(input: string): string { return input; } }\n" }, edit: (r) => change(r, 'src/echo.ts', (t) => t.replace('class Echo', 'class Echo implements Tool')) },
  { name: 'D base import broken: the heritage goes, dispatch into the subtype with it (fixture)', edit: (r) => change(r, 'src/providers/anthropicProvider.ts', (t) => `import { from;\n${t}`) },
  { name: 'D drop implements ModelProvider (fixture)', edit: (r) => change(r, 'src/providers/anthropicProvider.ts', (t) => t.replace(' implements ModelProvider {', ' {')) },
  { name: 'E rename class AnthropicProvider in its file (fixture)', edit: (r) => change(r, 'src/providers/anthropicProvider.ts', (t) => t.replaceAll('AnthropicProvider', 'ClaudeProvider')) },
  { name: 'E rename class AnthropicProvider everywhere (fixture)', edit: (r) => { for (const f of ['src/providers/anthropicProvider.ts', 'src/providers/createProvider.ts']) change(r, f, (t) => t.replaceAll('AnthropicProvider', 'ClaudeProvider')); } },
  { name: 'E rename type ToolSchema in its file (fixture)', edit: (r) => change(r, 'src/tools/validate.ts', (t) => t.replaceAll('ToolSchema', 'ToolShape')) },
  { name: 'E rename type ToolSchema everywhere (fixture)', edit: (r) => { for (const f of ['src/tools/validate.ts', 'src/providers/provider.ts', 'src/tools/files.ts', 'src/tools/registry.ts', 'src/tools/shell.ts', 'src/tools/webFetch.ts']) change(r, f, (t) => t.replaceAll('ToolSchema', 'ToolShape')); } },
  { name: 'E rename a type alias everywhere (tiny)', files: { 'src/a.ts': 'export type Shape = { size: number };\n', 'src/b.ts': "import type { Shape } from './a';\nexport interface Box { shape: Shape }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => { change(r, 'src/a.ts', (t) => t.replaceAll('Shape', 'Form')); change(r, 'src/b.ts', (t) => t.replaceAll('Shape', 'Form')); } },
  { name: 'E rename an interface everywhere (tiny)', files: { 'src/a.ts': 'export interface Shape { size: number }\n', 'src/b.ts': "import type { Shape } from './a';\nexport interface Box { shape: Shape }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => { change(r, 'src/a.ts', (t) => t.replaceAll('Shape', 'Form')); change(r, 'src/b.ts', (t) => t.replaceAll('Shape', 'Form')); } },
  { name: 'E2 rename a type alias in its file only (tiny)', files: { 'src/a.ts': 'export type Shape = { size: number };\n', 'src/b.ts': "import type { Shape } from './a';\nexport interface Box { shape: Shape }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => change(r, 'src/a.ts', (t) => t.replaceAll('Shape', 'Form')) },
  { name: 'E2 rename an interface in its file only (tiny)', files: { 'src/a.ts': 'export interface Shape { size: number }\n', 'src/b.ts': "import type { Shape } from './a';\nexport interface Box { shape: Shape }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => change(r, 'src/a.ts', (t) => t.replaceAll('Shape', 'Form')) },
  { name: 'E2 delete an interface (tiny)', files: { 'src/a.ts': 'export interface Shape { size: number }\nexport const other = 1;\n', 'src/b.ts': "import type { Shape } from './a';\nexport interface Box { shape: Shape }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => write(r, { 'src/a.ts': 'export const other = 1;\n' }) },
  { name: 'E2 change a member type through an annotation (tiny)', files: { 'src/a.ts': 'export interface Shape { size: number }\nexport interface Other { size: number }\nexport type Alias = Shape;\n', 'src/b.ts': "import type { Alias } from './a';\nexport interface Box { shape: Alias }\n", 'src/c.ts': "import type { Box } from './b';\nexport function sizeOf(box: Box): number { return box.shape.size; }\n" }, edit: (r) => change(r, 'src/a.ts', (t) => t.replace('export type Alias = Shape;', 'export type Alias = Other;')) },
  { name: 'F remove export * from the agent barrel (fixture)', edit: (r) => change(r, 'src/agent/index.ts', (t) => t.replace("export * from './agentLoop.js';\n", '')) },
  { name: 'F barrel re-export removed (tiny)', files: { 'src/a.ts': 'export function run(): number { return 1; }\n', 'src/index.ts': "export * from './a';\n", 'src/use.ts': "import { run } from './index';\nexport function go(): number { return run(); }\n" }, edit: (r) => write(r, { 'src/index.ts': '\n' }) },
  { name: 'F barrel re-export added (tiny)', files: { 'src/a.ts': 'export function run(): number { return 1; }\n', 'src/index.ts': '\n', 'src/use.ts': "import { run } from './index';\nexport function go(): number { return run(); }\n" }, edit: (r) => write(r, { 'src/index.ts': "export * from './a';\n" }) },
  { name: 'F barrel re-export retargeted (tiny)', files: { 'src/a.ts': 'export function run(): number { return 1; }\n', 'src/b.ts': 'export function run(): number { return 2; }\n', 'src/index.ts': "export { run } from './a';\n", 'src/use.ts': "import { run } from './index';\nexport function go(): number { return run(); }\n" }, edit: (r) => write(r, { 'src/index.ts': "export { run } from './b';\n" }) },
];
describe('sync counterexamples found by the property test', () => {
for (const keepOpen of [true, false]) {
  for (const c of cases) {
    it(`${c.name}, keepOpen=${keepOpen}`, async () => {
      let repo: string;
      if (c.files) { repo = path.join(scratchDirectory(), 'tiny'); write(repo, c.files); } else repo = copyOfFixture();
      const database = path.join(scratchDirectory(), 'handbook.db');
      await buildHandbook(repo, { database });
      const live = keepOpen ? await LiveHandbook.open(repo, { database }) : undefined;
      const sync = () => (live ? live.sync() : syncHandbook(repo, { database }));
      if (c.warm) { c.warm(repo); await sync(); }
      c.edit(repo);
      await sync();
      live?.close();
      await expectSameAsColdBuild(repo, database, c.name);
    });
  }
}
});
