import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './helpers/paths.js';

const SOURCE = path.join(PROJECT_ROOT, 'src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(directory, entry.name)) : entry.name.endsWith('.ts') ? [path.join(directory, entry.name)] : [],
  );
}

const imports = sourceFiles(SOURCE).map((file) => ({
  file: path.relative(SOURCE, file).split(path.sep).join('/'),
  specifiers: ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((reference) => reference.fileName),
}));

/** The pipeline's folders, in the order data flows; a folder may import only from itself and earlier ones. */
const LAYERS = ['errors.ts', 'text', 'graph', 'llm', 'analyze', 'organize', 'render', 'store', 'locate', 'route', 'harness', 'plan', 'api', 'watch', 'mcp', 'serve', 'lab', 'index.ts', 'cli'];

function layerOf(file: string): number {
  const top = file.split('/')[0]!;
  return LAYERS.indexOf(top);
}

describe('architecture', () => {
  it('places every source file in a known layer', () => {
    expect(imports.filter(({ file }) => layerOf(file) < 0).map(({ file }) => file)).toEqual([]);
  });

  it('lets data flow one way: no folder imports from a later one', () => {
    const violations = imports.flatMap(({ file, specifiers }) =>
      specifiers
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it('keeps SQLite inside src/store', () => {
    const users = imports.filter(({ specifiers }) => specifiers.includes('better-sqlite3')).map(({ file }) => file);
    expect(users.every((file) => file.startsWith('store/'))).toBe(true);
    expect(users.length).toBeGreaterThan(0);
  });

  it('has the CLI use only the public library entry', () => {
    const reaching = imports
      .filter(({ file }) => file.startsWith('cli/'))
      .flatMap(({ file, specifiers }) => specifiers.filter((specifier) => specifier.startsWith('../') && specifier !== '../index.js').map((specifier) => `${file} -> ${specifier}`));
    expect(reaching).toEqual([]);
  });
});
