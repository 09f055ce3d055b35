import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { syncHandbook } from '../../src/api/live-handbook.js';
import { discoverFiles } from '../../src/analyze/discover-files.js';
import { HandbookError } from '../../src/errors.js';
import { scratchDirectory } from '../helpers/paths.js';
import { refusal } from '../helpers/refusal.js';

function repoWith(files: Record<string, string | Buffer>): string {
  const root = scratchDirectory();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

function errorCodeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return HandbookError.isInstance(error) ? error.code : `unexpected: ${String(error)}`;
  }
  return undefined;
}

function errorOf(action: () => unknown): HandbookError | undefined {
  try {
    action();
  } catch (error) {
    if (HandbookError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}

describe('bad input to analysis', () => {
  it('refuses a path that does not exist', () => {
    expect(errorCodeOf(() => analyzeRepository('/definitely/not/here'))).toBe('REPO_NOT_FOUND');
  });

  it('refuses a file instead of a folder', () => {
    const root = repoWith({ 'a.ts': 'export const a = 1;' });
    expect(errorCodeOf(() => analyzeRepository(path.join(root, 'a.ts')))).toBe('NOT_A_DIRECTORY');
  });

  it('refuses an empty folder and a folder with no TS or JS', () => {
    expect(errorCodeOf(() => analyzeRepository(scratchDirectory()))).toBe('NO_SOURCE_FILES');
    expect(errorCodeOf(() => analyzeRepository(repoWith({ 'README.md': '# hi', 'data.json': '{}' })))).toBe('NO_SOURCE_FILES');
  });

  it('names every --include entry that is missing, a file or outside the root, instead of "no files"', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;' });
    const outside = scratchDirectory();
    symlinkSync(outside, path.join(root, 'elsewhere'));
    const missing = errorOf(() => analyzeRepository(root, { include: ['nosuchdir', 'src', 'other'] }));
    expect(missing).toMatchObject({ code: 'INVALID_INPUT', message: `--include nosuchdir, other: no such folder in ${root}`, hint: expect.stringMatching(/relative to its root/) });
    const file = errorOf(() => analyzeRepository(root, { include: ['src/a.ts'] }));
    expect(file).toMatchObject({ code: 'INVALID_INPUT', message: '--include src/a.ts: a file, not a folder', hint: expect.stringMatching(/include its folder/) });
    for (const entry of ['..', '../outside', outside, 'elsewhere']) {
      expect(errorOf(() => analyzeRepository(root, { include: [entry] }))).toMatchObject({ code: 'INVALID_INPUT', message: `--include ${entry}: outside ${root}` });
    }
  });

  it('refuses a bad --include before any work: build creates no database', async () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;' });
    const error = await refusal(() => buildHandbook(root, { include: ['nosuchdir'] }));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^--include nosuchdir: no such folder/) });
    expect(existsSync(path.join(root, '.handbook'))).toBe(false);
  });

  it('refuses a size cap that is not a positive whole number from the library too, before any work', async () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;' });
    for (const maxFileBytes of [0, -5, 1.5, Number.NaN]) {
      const error = await refusal(() => buildHandbook(root, { maxFileBytes }));
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^maxFileBytes must be a positive whole number/) });
    }
    expect(existsSync(path.join(root, '.handbook'))).toBe(false);
  });

  it('says a sync cannot find a folder the build included, and that a new build chooses others', async () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;', 'lib/b.ts': 'export const b = 1;' });
    await buildHandbook(root, { include: ['src', 'lib'] });
    rmSync(path.join(root, 'lib'), { recursive: true });
    const error = await refusal(() => syncHandbook(root));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: `--include lib: no such folder in ${root}`, hint: expect.stringMatching(/run `handbook build` again/) });
  });

  it('analyzes the --include folders of a root reached through a symlink, each once', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;', 'src/deep/b.ts': 'export const b = 1;', 'lib/c.ts': 'export const c = 1;' });
    const link = path.join(scratchDirectory(), 'link');
    symlinkSync(root, link);
    const result = analyzeRepository(link, { include: ['./src/', 'src/deep', 'src'] });
    expect(result.graph.files.map((file) => file.path)).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect(result.statistics.skippedDirectories).toEqual({});
  });

  it('says how many files were found and why each was skipped when none is left to analyze', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;', 'src/b.ts': 'export const b = 2;', 'src/types.d.ts': 'export {};' });
    const error = errorOf(() => analyzeRepository(root, { maxFileBytes: 1 }));
    expect(error).toMatchObject({
      code: 'NO_SOURCE_FILES',
      message: `all 3 source files in ${root} were skipped: 1 declaration-only (.d.ts), 2 over the 1-byte --max-file-size`,
      hint: expect.stringMatching(/larger --max-file-size/),
    });
    const only = repoWith({ 'types/x.d.ts': 'export {};' });
    expect(errorOf(() => analyzeRepository(only))).toMatchObject({ code: 'NO_SOURCE_FILES', message: `the only source file in ${only} was skipped: 1 declaration-only (.d.ts)` });
  });

  it('analyzes a file with syntax errors partially and warns about it', () => {
    const root = repoWith({
      'good.ts': "import { broken } from './broken';\nexport function good() { return broken(); }",
      'broken.ts': 'export function broken() { return 1; }\nexport function half( {\n',
    });
    const result = analyzeRepository(root);
    expect(result.graph.units.map((unit) => unit.id)).toContain('broken.ts#broken');
    expect(result.statistics.parseWarnings).toEqual([expect.objectContaining({ file: 'broken.ts' })]);
    expect(result.graph.files.find((file) => file.path === 'broken.ts')!.parseErrors).toBeGreaterThan(0);
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ kind: 'calls', from: 'good.ts#good', to: 'broken.ts#broken' }));
  });

  // A broken tsconfig or manifest loses the import paths and packages it declares: calls through
  // them stay unresolved, which the build must say rather than leave the user to guess.
  it('names each settings file it read with problems, and why, and builds anyway', async () => {
    const root = repoWith({
      'index.ts': "export function main() { return 1; }\n",
      'tsconfig.json': '{ "compilerOptions": { "paths": { "@app/*": ["src/*"] } ',
      'packages/a/tsconfig.json': '{ "extends": "./missing-base.json" }',
      'packages/a/package.json': '{ "name": "a", ',
      'packages/a/index.ts': 'export const a = 1;\n',
      'packages/b/tsconfig.json': '{ "compilerOptions": { "strict": true } }',
      'packages/b/package.json': '{ "name": "b", "types": ["not", "a string"] }',
      'packages/b/index.ts': 'export const b = 1;\n',
    });
    const problems = analyzeRepository(root).statistics.settingsProblems;
    expect(problems.map((problem) => problem.file)).toEqual(['packages/a/package.json', 'packages/a/tsconfig.json', 'packages/b/package.json', 'tsconfig.json']);
    expect(problems[1]!.message).toBe("Cannot read file 'packages/a/missing-base.json'.");
    expect(problems[2]!.message).toBe('its name, main, module, types or description is not a string');
    expect(problems.every((problem) => problem.message.length > 0 && !problem.message.includes(root))).toBe(true);
    const summary = await buildHandbook(root, {});
    expect(summary.settingsProblems).toEqual(problems);
  });

  it('skips a binary file named .ts, a generated file and an oversized file, counting each', () => {
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]);
    const generated = `// @generated by protoc\n${'export const x = 1;\n'.repeat(10)}`;
    const huge = `export const table = [\n${'  "0123456789abcdef0123456789abcdef",\n'.repeat(140_000)}];\n`;
    expect(huge.length).toBeGreaterThan(5_000_000);
    const root = repoWith({ 'a.ts': 'export const a = 1;', 'blob.ts': binary, 'gen.ts': generated, 'big.ts': huge, 'types.d.ts': 'export {};' });
    const result = analyzeRepository(root);
    expect(result.graph.files.map((file) => file.path)).toEqual(['a.ts']);
    expect(result.statistics.skippedFiles).toEqual({ binary: 1, generated: 1, 'too-large': 1, declaration: 1 });
  });

  it('skips node_modules, build output beside sources and vendored code', () => {
    const root = repoWith({
      'src/a.ts': 'export const a = 1;',
      'dist/a.js': 'export const a = 1;',
      'node_modules/x/index.js': 'module.exports = 1;',
      'vendor/lib.js': 'var v = 1;',
    });
    const result = analyzeRepository(root);
    expect(result.graph.files.map((file) => file.path)).toEqual(['src/a.ts']);
    expect(result.statistics.skippedDirectories).toEqual({ 'build-output': 1, node_modules: 1, vendored: 1 });
  });

  it('analyzes a published package whose whole content is dist/', () => {
    const root = repoWith({ 'package.json': '{"name":"p"}', 'dist/index.js': 'export function f() { return 1; }' });
    expect(analyzeRepository(root).graph.units.map((unit) => unit.id)).toContain('dist/index.js#f');
  });

  it('terminates on a symlink loop and counts it', () => {
    const root = repoWith({ 'src/a.ts': 'export const a = 1;' });
    symlinkSync(path.join(root, 'src'), path.join(root, 'src', 'loop'));
    symlinkSync(path.join(root, 'self.ts'), path.join(root, 'self.ts'));
    const result = analyzeRepository(root);
    expect(result.graph.files.map((file) => file.path)).toEqual(['src/a.ts']);
    expect(result.statistics.skippedDirectories['symlink-loop']).toBe(1);
    expect(result.statistics.skippedFiles['symlink-loop']).toBe(1);
  });

  it('handles circular imports', () => {
    const root = repoWith({
      'a.ts': "import { b } from './b';\nexport function a(): number { return b(); }",
      'b.ts': "import { a } from './a';\nexport function b(): number { return a(); }",
    });
    const edges = analyzeRepository(root).graph.edges;
    expect(edges.filter((edge) => edge.kind === 'imports').map((edge) => `${edge.from}>${edge.to}`)).toEqual(['a.ts>b.ts', 'b.ts>a.ts']);
    expect(edges.filter((edge) => edge.kind === 'calls').map((edge) => `${edge.from}>${edge.to}`)).toEqual(['a.ts#a>b.ts#b', 'b.ts#b>a.ts#a']);
  });

  it('counts a file this process may not read as unreadable', () => {
    const root = repoWith({ 'a.ts': 'export const a = 1;', 'secret.ts': 'export const s = 1;' });
    const denied = (file: string, length: number): Buffer => {
      if (file.endsWith('secret.ts')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return readFileSync(file).subarray(0, length);
    };
    const result = discoverFiles(root, { readHead: denied });
    expect(result.files.map((file) => file.path)).toEqual(['a.ts']);
    expect(result.skippedFiles).toEqual({ unreadable: 1 });
  });

  it('indexes test files by their imports only', () => {
    const root = repoWith({
      'src/retry.ts': 'export function retry() { return 1; }',
      'src/retry.test.ts': "import { retry } from './retry';\nimport { helper } from '../test/helper';\nretry(); helper();",
      'test/helper.ts': 'export function helper() { return 2; }',
    });
    const graph = analyzeRepository(root).graph;
    expect(graph.units.filter((unit) => unit.file !== 'src/retry.ts').map((unit) => `${unit.id}:${unit.kind}`)).toEqual([
      'src/retry.test.ts:file',
      'test/helper.ts:file',
    ]);
    expect(graph.edges.filter((edge) => edge.kind === 'imports')).toEqual([
      { kind: 'imports', from: 'src/retry.test.ts', to: 'src/retry.ts', lines: [1] },
      { kind: 'imports', from: 'src/retry.test.ts', to: 'test/helper.ts', lines: [2] },
    ]);
  });
});
