import { compareText } from '../../graph/order.js';
import type { GoImport } from './go-facts.js';

/** A package of the repository: the files of one folder that declare one package name. */
export interface GoPackage {
  /** `folder\0name`: a folder may hold a second package (a `package main` tool beside a library). */
  key: string;
  folder: string;
  name: string;
  /** Its files that are no test files, sorted. */
  files: string[];
}

/** What an import path names: a package of the repository, a path of the repository's module that no folder holds, or a package from outside. */
export type ImportTarget = { kind: 'package'; package: GoPackage } | { kind: 'missing' } | { kind: 'external'; name: string };

/** The import paths that name no package: cgo's pseudo-package. */
const NOT_PACKAGES = new Set(['C']);

interface ModuleGuess {
  root: string;
  module: string;
  /** Distinct import paths that agree with it. */
  support: number;
  /** The most segments one of them shares with its folder. */
  widest: number;
}

/**
 * The repository's Go packages and the module paths their import paths start with. The front end
 * is given `.go` files only (a `go.mod` or `go.work` is not one), so module paths are read off the
 * imports themselves:
 *
 * - An import path P and a folder F holding a package (not `main`, which no one can import) that
 *   end with the same segments (`internal/model` of `example.com/app/internal/model` and
 *   `internal/model`) suggest that F's module root is F without those segments ('' here) and its
 *   module path P without them (`example.com/app`). The guess is never an empty module path, so a
 *   standard-library path (`errors`) never names a folder (`errors/`).
 * - For each module root, the module path the most distinct import paths agree on is taken (ties:
 *   the longer path, then the first in code-unit order). A root other than the repository's own
 *   needs two import paths, or one that shares two segments or more with its folder: a single
 *   coincidence (`github.com/x/tools` and `internal/tools`) is no module. This covers a `go.work`
 *   workspace (`svc/a` holding module `example.com/a`) by the same rule.
 * - An import path names folder R/rest when it is M/rest for a module root R with module path M
 *   (the longest M first; roots in code-unit order). A path under a module path that no such
 *   folder holds is the module's, missing: neither an edge nor an external import.
 *
 * The import of a package goes to every file of it; what a qualifier names is the package clause
 * of the folder's files (the name most of them declare; ties: the first in code-unit order).
 */
export class GoPackages {
  readonly byKey = new Map<string, GoPackage>();
  /** Each folder's package that imports reach: the name most of its files declare. */
  private readonly byFolder = new Map<string, GoPackage>();
  private readonly modules: Array<{ root: string; module: string }>;
  private readonly targets = new Map<string, ImportTarget>();

  constructor(files: ReadonlyArray<{ path: string; packageName: string; test: boolean }>, imports: Iterable<string>) {
    const counts = new Map<string, Map<string, number>>();
    for (const file of [...files].sort((a, b) => compareText(a.path, b.path))) {
      if (file.test || file.packageName === '') continue;
      const folder = parentOf(file.path);
      const key = `${folder}\u0000${file.packageName}`;
      let found = this.byKey.get(key);
      if (!found) this.byKey.set(key, (found = { key, folder, name: file.packageName, files: [] }));
      found.files.push(file.path);
      const names = counts.get(folder) ?? new Map<string, number>();
      counts.set(folder, names.set(file.packageName, (names.get(file.packageName) ?? 0) + 1));
    }
    for (const [folder, names] of counts) {
      const name = [...names].sort(([a, countA], [b, countB]) => countB - countA || compareText(a, b))[0]![0];
      this.byFolder.set(folder, this.byKey.get(`${folder}\u0000${name}`)!);
    }
    this.modules = guessModules([...new Set(imports)].sort(compareText), [...this.byFolder.values()].filter((found) => found.name !== 'main').map((found) => found.folder));
  }

  packageOf(file: string, packageName: string): GoPackage | undefined {
    return this.byKey.get(`${parentOf(file)}\u0000${packageName}`);
  }

  resolve(importPath: string): ImportTarget {
    let target = this.targets.get(importPath);
    if (!target) this.targets.set(importPath, (target = this.lookUp(importPath)));
    return target;
  }

  private lookUp(importPath: string): ImportTarget {
    let underModule = false;
    for (const { root, module } of this.modules) {
      if (importPath !== module && !importPath.startsWith(`${module}/`)) continue;
      underModule = true;
      const rest = importPath.slice(module.length + 1);
      const found = this.byFolder.get(root === '' ? rest : rest === '' ? root : `${root}/${rest}`);
      if (found) return { kind: 'package', package: found };
    }
    return underModule ? { kind: 'missing' } : { kind: 'external', name: importPath };
  }

  /** Whether an import path is a package at all (not cgo's `C`). */
  static isPackagePath(importPath: string): boolean {
    return !NOT_PACKAGES.has(importPath);
  }
}

function guessModules(importPaths: readonly string[], folders: readonly string[]): Array<{ root: string; module: string }> {
  const guesses = new Map<string, ModuleGuess>();
  const byLast = new Map<string, string[]>();
  for (const folder of folders) {
    if (folder === '') continue;
    const last = folder.slice(folder.lastIndexOf('/') + 1);
    byLast.set(last, [...(byLast.get(last) ?? []), folder]);
  }
  for (const importPath of importPaths) {
    const pathSegments = importPath.split('/');
    for (const folder of byLast.get(pathSegments[pathSegments.length - 1]!) ?? []) {
      const folderSegments = folder.split('/');
      let shared = 0;
      while (shared < folderSegments.length && shared < pathSegments.length && folderSegments[folderSegments.length - 1 - shared] === pathSegments[pathSegments.length - 1 - shared]) shared += 1;
      if (shared === pathSegments.length) continue;
      const root = folderSegments.slice(0, folderSegments.length - shared).join('/');
      const module = pathSegments.slice(0, pathSegments.length - shared).join('/');
      const key = `${root}\u0000${module}`;
      const guess = guesses.get(key) ?? { root, module, support: 0, widest: 0 };
      guess.support += 1;
      guess.widest = Math.max(guess.widest, shared);
      guesses.set(key, guess);
    }
  }
  const best = new Map<string, ModuleGuess>();
  for (const guess of [...guesses.values()].sort((a, b) => compareText(a.module, b.module))) {
    const held = best.get(guess.root);
    if (!held || guess.support > held.support || (guess.support === held.support && guess.module.length > held.module.length)) best.set(guess.root, guess);
  }
  return [...best.values()]
    .filter((guess) => guess.root === '' || guess.support >= 2 || guess.widest >= 2)
    .sort((a, b) => b.module.length - a.module.length || compareText(a.module, b.module) || compareText(a.root, b.root))
    .map(({ root, module }) => ({ root, module }));
}

/**
 * The name a file's code calls an import by: its alias, else (for a package of the repository)
 * its package clause, else a guess from the path as Go tools make it: the last element, without
 * a major-version element (`/v2`) or suffix (`yaml.v3`) and a `go-` prefix or `-go` suffix.
 */
export function qualifierOf(fact: GoImport, target: ImportTarget): string | undefined {
  if (fact.alias !== undefined) return fact.alias === '_' || fact.alias === '.' ? undefined : fact.alias;
  if (target.kind === 'package') return target.package.name;
  const segments = fact.path.split('/');
  let last = segments[segments.length - 1]!;
  if (/^v\d+$/.test(last) && segments.length > 1) last = segments[segments.length - 2]!;
  return last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/-go$/, '').replace(/[^A-Za-z0-9_]/g, '_');
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
