import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { z } from 'zod';
import { fileStamp, RACY_WINDOW_MS } from '../discover-files.js';
import { findConfigFiles, type SettingsInputs, settingsInputsOf } from '../settings-inputs.js';

const packageJsonSchema = z
  .object({
    name: z.string().optional(),
    main: z.string().optional(),
    module: z.string().optional(),
    types: z.string().optional(),
    description: z.string().optional(),
  })
  .passthrough();

export interface CompilerSetup {
  /** What the program is created with: its `paths` targets are absolute, so they point into the tree where it sits now. */
  options: ts.CompilerOptions;
  /**
   * `options.paths` with targets from the root: what settings are compared by, so a repository
   * moved, copied or reached through a symlink keeps the analysis stored with it.
   */
  rootRelativePaths: Record<string, string[]>;
  /** tsconfig files that contributed, from the root. */
  tsconfigs: string[];
  /** Workspace packages found (package name → folder from the root). */
  workspacePackages: Record<string, string>;
  /** outDir folders of the tsconfigs, from the root: their contents are build output. */
  outDirectories: string[];
  /**
   * Per folder (from the root) with a package.json, the fields that decide where an import of the
   * folder itself leads (`./lib` → its `types` or `main`), named package or not: a change there
   * moves imports though no source file changed, as a tsconfig's paths do.
   */
  folderEntries: Record<string, Record<string, unknown>>;
  /** Every file the setup was read from (tsconfigs, the files their `extends` chains name, manifests), absolute: a watcher wakes for these. */
  settingsFiles: string[];
  /** The files found and the text read of each, digested: stored with a handbook, so `status` tells the settings unchanged without the compiler. */
  inputs: SettingsInputs;
  /** Settings files read with problems (broken JSON, an `extends` not found), from the root, each with why: paths and packages they declare may be missing from the analysis. */
  settingsProblems: SettingsWarning[];
}

export interface SettingsWarning {
  file: string;
  message: string;
}

/**
 * The compiler's complaint that a tsconfig names no input files: the setup reads no folders
 * (the program's files come from discovery), so every tsconfig would say it.
 */
const NO_INPUTS = 18003;

/** The package.json fields module resolution reads for an import of the folder holding it. */
const FOLDER_ENTRY_FIELDS = ['types', 'typings', 'typesVersions', 'main', 'module'] as const;

function folderEntryOf(manifest: Record<string, unknown>): Record<string, unknown> | undefined {
  const entry = Object.fromEntries(FOLDER_ENTRY_FIELDS.filter((field) => manifest[field] !== undefined).map((field) => [field, manifest[field]]));
  return Object.keys(entry).length > 0 ? entry : undefined;
}

function toRootRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/') || '.';
}

/**
 * Reads a tsconfig with its `extends` chain; a broken one contributes nothing rather than failing
 * the build, and says why in `problems`. Every file read is added to `read`, with its text.
 */
function readTsconfig(file: string, read: Map<string, string | undefined>, problems: string[]): ts.ParsedCommandLine | undefined {
  const readText = (name: string): string | undefined => {
    const text = existsSync(name) ? readFileSync(name, 'utf8') : undefined;
    read.set(name, text);
    return text;
  };
  const config = ts.readConfigFile(file, (name) => readText(name) ?? '');
  if (config.error) {
    problems.push(diagnosticText(config.error));
    return undefined;
  }
  const host: ts.ParseConfigHost = {
    useCaseSensitiveFileNames: true,
    readDirectory: () => [],
    fileExists: existsSync,
    readFile: readText,
  };
  const parsed = ts.parseJsonConfigFileContent(config.config, host, path.dirname(file));
  for (const error of parsed.errors) if (error.code !== NO_INPUTS) problems.push(diagnosticText(error));
  return parsed;
}

function diagnosticText(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
}

function packageEntryCandidates(directory: string, manifest: z.infer<typeof packageJsonSchema>): string[] {
  const candidates = ['src/index.ts', 'src/index.tsx', 'index.ts', 'src/index.js', 'index.js'];
  for (const entry of [manifest.types, manifest.module, manifest.main]) {
    if (!entry) continue;
    const stripped = entry.replace(/^\.\//, '');
    candidates.push(stripped);
    const asSource = stripped.replace(/^(dist|build|lib|out)\//, 'src/').replace(/\.d\.ts$|\.js$/, '.ts');
    candidates.push(asSource);
  }
  return candidates.map((candidate) => path.join(directory, candidate));
}

/**
 * One program for the whole repository, so calls across packages resolve. Options come from the
 * repository's tsconfigs (paths, jsx) and its workspace packages; everything that would pull in
 * code outside the repository (node_modules, lib files beyond the standard library) stays out.
 */
export function createCompilerSetup(root: string, previous?: CompilerSetup): CompilerSetup {
  const { tsconfigs, packageJsons } = findConfigFiles(root);
  // A setup is read from the tsconfigs (with every file their `extends` chains read) and the
  // package.json files alone: while none of them moved, it stands.
  const found = [...tsconfigs, ...packageJsons].join('\n');
  const known = previous && setupSources.get(previous);
  if (known && known.found === found && stampOf(known.files).stamp === known.stamp) return previous;
  const read = new Map<string, string | undefined>();
  const readAt = Date.now();
  const paths: Record<string, string[]> = {};
  const outDirectories: string[] = [];
  let jsx: ts.JsxEmit | undefined;
  const byDepth = [...tsconfigs].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || (a < b ? -1 : 1));
  const settingsProblems: SettingsWarning[] = [];
  for (const file of byDepth) {
    const problems: string[] = [];
    const parsed = readTsconfig(file, read, problems);
    if (problems.length > 0) settingsProblems.push({ file: toRootRelative(root, file), message: problems.join('; ').split(`${root}${path.sep}`).join('') });
    if (!parsed) continue;
    const options = parsed.options;
    if (options.outDir) outDirectories.push(toRootRelative(root, options.outDir));
    if (jsx === undefined && options.jsx !== undefined) jsx = options.jsx;
    if (!options.paths) continue;
    const base = options.baseUrl ?? path.dirname(file);
    for (const [pattern, targets] of Object.entries(options.paths)) {
      if (paths[pattern]) continue;
      paths[pattern] = targets.map((target) => path.resolve(base, target));
    }
  }
  const workspacePackages: Record<string, string> = {};
  const folderEntries: Record<string, Record<string, unknown>> = {};
  for (const file of packageJsons) {
    const directory = path.dirname(file);
    if (directory === root) continue;
    let manifest;
    read.set(file, undefined);
    try {
      const text = readFileSync(file, 'utf8');
      read.set(file, text);
      manifest = packageJsonSchema.parse(JSON.parse(text));
    } catch (error) {
      settingsProblems.push({ file: toRootRelative(root, file), message: error instanceof SyntaxError ? error.message : 'its name, main, module, types or description is not a string' });
      continue;
    }
    const folderEntry = folderEntryOf(manifest);
    if (folderEntry) folderEntries[toRootRelative(root, directory)] = folderEntry;
    if (!manifest.name || workspacePackages[manifest.name]) continue;
    workspacePackages[manifest.name] = toRootRelative(root, directory);
    if (!paths[manifest.name]) paths[manifest.name] = packageEntryCandidates(directory, manifest);
    const subpaths = `${manifest.name}/*`;
    if (!paths[subpaths]) paths[subpaths] = [path.join(directory, 'src/*'), path.join(directory, '*')];
  }
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    noResolve: true,
    skipLibCheck: true,
    skipDefaultLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    resolveJsonModule: false,
    jsx: jsx ?? ts.JsxEmit.Preserve,
    paths,
    allowArbitraryExtensions: true,
    experimentalDecorators: true,
  };
  const setup: CompilerSetup = {
    options,
    rootRelativePaths: Object.fromEntries(Object.entries(paths).map(([pattern, targets]) => [pattern, targets.map((target) => toRootRelative(root, target))])),
    tsconfigs: tsconfigs.map((file) => toRootRelative(root, file)),
    workspacePackages,
    outDirectories,
    folderEntries,
    settingsFiles: [],
    inputs: settingsInputsOf(root, [...tsconfigs, ...packageJsons], read),
    settingsProblems: settingsProblems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
  };
  const files = [...read.keys()].sort();
  setup.settingsFiles = files;
  const { stamp, newest } = stampOf(files);
  // A file written within the racy window of this read may change again without its stamp moving: such a setup is read again next time.
  if (newest < readAt - RACY_WINDOW_MS) setupSources.set(setup, { found, files, stamp });
  return setup;
}

/** What each setup was read from: the config files found, every file read, and their state then. */
const setupSources = new WeakMap<CompilerSetup, { found: string; files: string[]; stamp: string }>();

/** The files' state as one string, and the latest modification among them. */
function stampOf(files: readonly string[]): { stamp: string; newest: number } {
  let newest = 0;
  const stamp = files.map((file) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return `${file}\u0000-`;
    const { key, changedAt } = fileStamp(stats);
    newest = Math.max(newest, changedAt);
    return `${file}\u0000${key}`;
  }).join('\n');
  return { stamp, newest };
}
