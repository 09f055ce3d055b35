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

/** The compiler packages: most of a second to load, so only code that analyzes loads them. */
const COMPILER = new Set(['ts-morph', '@ts-morph/common', 'typescript']);

/** What loading a module loads with it: its imports and re-exports that are not type-only; an `import()` loads later, on demand. */
function loadedWith(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(SOURCE, file), 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      return typeOnly ? [] : [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const clause = statement.exportClause;
      const typeOnly = statement.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly));
      return typeOnly ? [] : [(statement.moduleSpecifier as ts.StringLiteral).text];
    }
    return [];
  });
}

/** Each chain of up-front imports from `entry` to a compiler package, as "a -> b -> ts-morph". */
function compilerChainsFrom(entry: string): string[] {
  const reachedFrom = new Map<string, string | undefined>([[entry, undefined]]);
  const chains: string[] = [];
  const chainTo = (file: string): string[] => (file === entry ? [file] : [...chainTo(reachedFrom.get(file)!), file]);
  for (const file of reachedFrom.keys()) {
    for (const specifier of loadedWith(file)) {
      if (COMPILER.has(specifier)) chains.push([...chainTo(file), specifier].join(' -> '));
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
      if (!reachedFrom.has(target)) reachedFrom.set(target, file);
    }
  }
  return chains;
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

  // Loading the compiler is most of an `ask` or a `--version`; it slipped in once through a chain of five imports.
  it('keeps the compiler out of what the library entry and the CLI load up front', () => {
    expect([...compilerChainsFrom('index.ts'), ...compilerChainsFrom('cli/main.ts')]).toEqual([]);
  });

  // A client's initialize and tools/list come before the first sync, which loads the compiler; they wait for what the server loads up front.
  it('keeps the compiler out of what the MCP server and the viewer load before their first sync', () => {
    expect([...compilerChainsFrom('mcp/handbook-server.ts'), ...compilerChainsFrom('serve/viewer-server.ts')]).toEqual([]);
  });
});
