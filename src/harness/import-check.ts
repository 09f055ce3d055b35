import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { ts } from 'ts-morph';

/**
 * The gate against invented imports: an edit may add an import only of something that exists.
 * Imports the file already had are never judged, so a repository that is broken already stays
 * editable; the gate asks only whether the model made something up in this edit.
 */

export interface ImportProblem {
  specifier: string;
  /** The imported name when the module exists but lacks it. */
  name?: string;
  /** One sentence naming what is missing and where the gate looked. */
  reason: string;
}

export interface ImportCheckOptions {
  /** Files (relative, posix) the task has created or will create: they count as existing before they are on disk. */
  pendingFiles?: ReadonlySet<string>;
  /** Reads a file by absolute path, undefined when it is missing; defaults to the disk. */
  readFile?: (absolutePath: string) => string | undefined;
}

type ReadFile = (absolutePath: string) => string | undefined;

/** One module a file imports, and at most one name imported from it; the name-less use stands for the module itself. */
interface ImportUse {
  specifier: string;
  name?: string;
}

interface Manifest {
  name?: string;
  dependencies: Set<string>;
  /** Keys of the "imports" field: the package's own `#` specifiers. */
  imports: string[];
}

interface CompilerAliases {
  paths: string[];
  baseUrl?: string;
}

interface ExportSurface {
  names: Set<string>;
  /** Exports the gate cannot list without resolving further (`export *`, `export =`, CommonJS). */
  opaque: boolean;
}

type Resolution = { kind: 'found'; absolute: string } | { kind: 'missing'; reason: string };

const SOURCE_FILE = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;
/** The extensions a specifier without one may leave off, TypeScript's first so a name check reads the source. */
const IMPLIED_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
/** ESM-style TypeScript imports name the emitted file; the source beside it is what exists. */
const EMITTED_FROM: Record<string, string[]> = { '.js': ['.ts', '.tsx', '.d.ts'], '.jsx': ['.tsx'], '.mjs': ['.mts', '.d.mts'], '.cjs': ['.cts', '.d.cts'] };
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
/** How deep below the root workspace packages are looked for: deep enough for `packages/group/name`, cheap in a large tree. */
const WORKSPACE_DEPTH = 4;
/** Bounds `extends` chains, which may form a cycle. */
const EXTENDS_DEPTH = 8;

/**
 * The imports `newText` adds to `file` (relative to `root`, posix) that point at nothing: modules,
 * packages or names that `oldText` (undefined for a created file) did not import already.
 * `root` is the repository's real path; an empty answer means the edit may be written.
 */
export function findHallucinatedImports(root: string, file: string, oldText: string | undefined, newText: string, options: ImportCheckOptions = {}): ImportProblem[] {
  if (!SOURCE_FILE.test(file)) return [];
  const before = oldText === undefined ? [] : collectImports(file, oldText);
  const oldUses = new Set(before.map(useKey));
  const repo = new RepositoryView(root, file, options);
  const judged = new Set<string>();
  const problems: ImportProblem[] = [];
  for (const use of collectImports(file, newText)) {
    const key = useKey(use);
    if (oldUses.has(key) || judged.has(key)) continue;
    judged.add(key);
    const problem = use.name === undefined ? repo.moduleProblem(use.specifier) : repo.nameProblem(use.specifier, use.name);
    if (problem) problems.push(problem);
  }
  return problems;
}

function useKey(use: ImportUse): string {
  return `${use.specifier}\u0000${use.name ?? ''}`;
}

function scriptKindOf(fileName: string): ts.ScriptKind {
  if (fileName.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (fileName.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function parse(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKindOf(fileName));
}

/** Every module the text imports, each followed by the names it imports from that module. */
function collectImports(fileName: string, text: string): ImportUse[] {
  const uses: ImportUse[] = [];
  const add = (specifier: ts.Expression | undefined, names: string[] = []): void => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    uses.push({ specifier: specifier.text }, ...names.map((name) => ({ specifier: specifier.text, name })));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, importedNames(node.importClause));
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      add(node.moduleSpecifier, clause && ts.isNamedExports(clause) ? clause.elements.map((element) => (element.propertyName ?? element.name).text) : []);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(fileName, text));
  return uses;
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return [];
  const names = clause.name ? ['default'] : [];
  if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
    names.push(...clause.namedBindings.elements.map((element) => (element.propertyName ?? element.name).text));
  }
  return names;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
}

type NamedDeclaration = ts.FunctionDeclaration | ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration | ts.EnumDeclaration | ts.ModuleDeclaration | ts.ImportEqualsDeclaration;

function isNamedDeclaration(statement: ts.Statement): statement is NamedDeclaration {
  return (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement)
  );
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isBindingElement(element) ? bindingNames(element.name) : []));
}

/** The names a module's top level exports, read from its syntax alone. */
function exportsOf(fileName: string, text: string): ExportSurface {
  const names = new Set<string>();
  // CommonJS exports are assignments that may be built at run time, not declarations to list.
  let opaque = /\.c?js$/.test(fileName) && /\bmodule\.exports\b|\bexports\.[\w$]+\s*=/.test(text);
  for (const statement of parse(fileName, text).statements) {
    if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) opaque = true;
      else names.add('default');
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause) opaque = true;
      else if (ts.isNamespaceExport(clause)) names.add(clause.name.text);
      else for (const element of clause.elements) names.add(element.name.text);
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) names.add('default');
      else if (ts.isVariableStatement(statement)) for (const declaration of statement.declarationList.declarations) bindingNames(declaration.name).forEach((name) => names.add(name));
      else if (isNamedDeclaration(statement) && statement.name) names.add(statement.name.text);
    }
  }
  return { names, opaque };
}

function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('/');
}

function matchesPattern(pattern: string, specifier: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === specifier;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Where a package's type declarations would live in DefinitelyTyped: type-only imports of it are real. */
function typesPackageOf(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function readFromDisk(absolutePath: string): string | undefined {
  try {
    return readFileSync(absolutePath, 'utf8');
  } catch {
    return undefined;
  }
}

/** The repository as one edited file sees it; everything read is cached for the one check. */
class RepositoryView {
  private readonly read: ReadFile;
  private readonly pending: ReadonlySet<string>;
  private readonly directory: string;
  private readonly manifests = new Map<string, Manifest | undefined>();
  private readonly resolutions = new Map<string, Resolution>();
  private workspaceNames: Set<string> | undefined;
  private aliases: CompilerAliases | undefined;

  constructor(
    private readonly root: string,
    file: string,
    options: ImportCheckOptions,
  ) {
    this.read = options.readFile ?? readFromDisk;
    this.pending = options.pendingFiles ?? new Set();
    this.directory = path.dirname(path.join(root, file));
  }

  moduleProblem(specifier: string): ImportProblem | undefined {
    if (isPathSpecifier(specifier)) {
      const resolution = this.resolveRelative(specifier);
      return resolution.kind === 'missing' ? { specifier, reason: resolution.reason } : undefined;
    }
    return this.bareProblem(specifier);
  }

  /** Only names from the repository's own modules are checked: a package's exports would need its types resolved. */
  nameProblem(specifier: string, name: string): ImportProblem | undefined {
    if (!isPathSpecifier(specifier)) return undefined;
    const resolution = this.resolveRelative(specifier);
    // A module that is missing was reported once already, or was missing before this edit.
    if (resolution.kind === 'missing') return undefined;
    const text = this.read(resolution.absolute);
    if (text === undefined || !SOURCE_FILE.test(resolution.absolute)) return undefined;
    const surface = exportsOf(resolution.absolute, text);
    if (surface.opaque || surface.names.has(name)) return undefined;
    // Whether a .js or .cjs file is CommonJS, and so has a default import, cannot be told from it.
    if (name === 'default' && /\.c?js$/.test(resolution.absolute)) return undefined;
    const target = this.relative(resolution.absolute);
    return name === 'default'
      ? { specifier, name, reason: `module "${specifier}" (${target}) has no default export` }
      : { specifier, name, reason: `module "${specifier}" (${target}) does not export "${name}"` };
  }

  private relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  private exists(absolute: string): boolean {
    return this.pending.has(this.relative(absolute)) || this.read(absolute) !== undefined;
  }

  private resolveRelative(specifier: string): Resolution {
    const cached = this.resolutions.get(specifier);
    if (cached) return cached;
    const resolution = this.resolveFile(specifier, path.resolve(this.directory, specifier));
    this.resolutions.set(specifier, resolution);
    return resolution;
  }

  private resolveFile(specifier: string, target: string): Resolution {
    const shown = this.relative(target);
    if (shown.startsWith('..') || path.isAbsolute(shown)) return { kind: 'missing', reason: `module "${specifier}" resolves to ${shown}, outside the repository` };
    const extension = path.extname(target);
    const stem = target.slice(0, target.length - extension.length);
    const candidates = [
      ...(EMITTED_FROM[extension] ?? []).map((source) => stem + source),
      target,
      ...IMPLIED_EXTENSIONS.map((implied) => target + implied),
      ...IMPLIED_EXTENSIONS.map((implied) => path.join(target, `index${implied}`)),
    ];
    const found = candidates.find((candidate) => this.exists(candidate));
    return found
      ? { kind: 'found', absolute: found }
      : { kind: 'missing', reason: `module "${specifier}" does not exist: looked for ${shown}, with source extensions and as ${shown}/index` };
  }

  private bareProblem(specifier: string): ImportProblem | undefined {
    if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
    const manifests = this.manifestFiles();
    const nearest = manifests[0];
    if (specifier.startsWith('#')) {
      const imports = nearest ? this.manifest(nearest)?.imports ?? [] : [];
      if (imports.some((pattern) => matchesPattern(pattern, specifier))) return undefined;
      return { specifier, reason: `subpath import "${specifier}" is not in the "imports" of ${nearest ? this.relative(nearest) : 'any package.json up to the repository root'}` };
    }
    const aliases = this.compilerAliases();
    if (aliases.paths.some((pattern) => matchesPattern(pattern, specifier))) return undefined;
    if (aliases.baseUrl !== undefined && this.resolveFile(specifier, path.resolve(aliases.baseUrl, specifier)).kind === 'found') return undefined;
    const name = packageNameOf(specifier);
    const rootManifest = path.join(this.root, 'package.json');
    const declaring = [...new Set([...manifests.slice(0, 1), rootManifest])].map((file) => this.manifest(file));
    if (declaring.some((manifest) => manifest && (manifest.dependencies.has(name) || manifest.dependencies.has(typesPackageOf(name))))) return undefined;
    if (nearest && this.manifest(nearest)?.name === name) return undefined;
    if (this.workspacePackages().has(name)) return undefined;
    return { specifier, reason: this.undeclaredReason(name, nearest, rootManifest) };
  }

  private undeclaredReason(name: string, nearest: string | undefined, rootManifest: string): string {
    if (!nearest) return `package "${name}" is not a dependency: there is no package.json from ${this.relative(this.directory) || '.'} up to the repository root`;
    if (this.manifest(rootManifest) === undefined) return `package "${name}" is not a dependency in ${this.relative(nearest)}`;
    const inner = nearest === rootManifest ? '' : ` (nearest: ${this.relative(nearest)})`;
    return `package "${name}" is not a dependency in package.json${inner}`;
  }

  /** The folders from the edited file's up to the root, nearest first. */
  private folders(): string[] {
    const folders: string[] = [];
    for (let folder = this.directory; ; folder = path.dirname(folder)) {
      const relative = path.relative(this.root, folder);
      if (relative.startsWith('..') || path.isAbsolute(relative)) break;
      folders.push(folder);
      if (relative === '') break;
    }
    return folders;
  }

  private manifestFiles(): string[] {
    return this.folders()
      .map((folder) => path.join(folder, 'package.json'))
      .filter((file) => this.manifest(file) !== undefined);
  }

  private manifest(file: string): Manifest | undefined {
    if (this.manifests.has(file)) return this.manifests.get(file);
    const json = record(this.parseJson(file));
    const manifest = json && {
      ...(typeof json.name === 'string' ? { name: json.name } : {}),
      dependencies: new Set(DEPENDENCY_FIELDS.flatMap((field) => Object.keys(record(json[field]) ?? {}))),
      imports: Object.keys(record(json.imports) ?? {}),
    };
    this.manifests.set(file, manifest);
    return manifest;
  }

  private parseJson(file: string): unknown {
    const text = this.read(file);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  private workspacePackages(): Set<string> {
    if (this.workspaceNames) return this.workspaceNames;
    const names = new Set<string>();
    const visit = (folder: string, depth: number): void => {
      // The root package is no workspace of itself: its name resolves only as a self-reference.
      const name = depth === 0 ? undefined : this.manifest(path.join(folder, 'package.json'))?.name;
      if (name) names.add(name);
      if (depth === WORKSPACE_DEPTH) return;
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        return;
      }
      // Dot folders hold caches and tool state, whose package.json files are not the repository's packages.
      for (const entry of entries) if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) visit(path.join(folder, entry.name), depth + 1);
    };
    visit(this.root, 0);
    this.workspaceNames = names;
    return names;
  }

  private compilerAliases(): CompilerAliases {
    if (this.aliases) return this.aliases;
    const config = this.folders()
      .map((folder) => path.join(folder, 'tsconfig.json'))
      .find((file) => this.read(file) !== undefined);
    this.aliases = config ? this.aliasesOf(config, 0) : { paths: [] };
    return this.aliases;
  }

  /** `paths` and `baseUrl` as TypeScript sees them: a config's own replace those it extends, and only relative `extends` are followed. */
  private aliasesOf(configFile: string, depth: number): CompilerAliases {
    const text = depth > EXTENDS_DEPTH ? undefined : this.read(configFile);
    if (text === undefined) return { paths: [] };
    const config = record(ts.parseConfigFileTextToJson(configFile, text).config);
    const extended = [config?.extends].flat().filter((parent): parent is string => typeof parent === 'string' && parent.startsWith('.'));
    const inherited = extended.reduce<CompilerAliases>((aliases, parent) => {
      const parentFile = path.resolve(path.dirname(configFile), parent.endsWith('.json') ? parent : `${parent}.json`);
      const own = this.aliasesOf(parentFile, depth + 1);
      return { paths: own.paths.length > 0 ? own.paths : aliases.paths, baseUrl: own.baseUrl ?? aliases.baseUrl };
    }, { paths: [] });
    const options = record(config?.compilerOptions);
    const paths = record(options?.paths);
    const baseUrl = typeof options?.baseUrl === 'string' ? path.resolve(path.dirname(configFile), options.baseUrl) : inherited.baseUrl;
    return { paths: paths ? Object.keys(paths) : inherited.paths, ...(baseUrl === undefined ? {} : { baseUrl }) };
  }
}
