import { compareText } from '../../graph/order.js';
import type { ModuleSpec } from './python-facts.js';

/** A module or package of the repository: its path without `.py` (a package's folder), and its file, which a namespace package lacks. */
export interface ModuleRef {
  key: string;
  file?: string;
  isPackage: boolean;
}

/** Top-level folders that hold importable code by convention even without a package under them (`src/main.py` run as `main`). */
const CONVENTIONAL_ROOTS = new Set(['src', 'lib', 'python']);

/**
 * Python module names of the repository's files, from their paths alone. Absolute imports are
 * looked up under the import roots, in order:
 * - the importing file's own folder when that folder is no package (a script's siblings, a test
 *   folder's helpers: Python and pytest put that folder on the path);
 * - the repository root;
 * - every top-level `src`, `lib` or `python` folder, and every folder that holds a package
 *   (`X/pkg/__init__.py`) but is no package itself (`X/__init__.py` absent): the `src/` layout,
 *   and code kept in a subfolder; sorted by path.
 * A module is `a/b/c.py` → `a.b.c` under the root it is found in; `a/b/__init__.py` is package
 * `a.b`; a folder with Python files and no `__init__.py` is a namespace package.
 */
export class ModuleIndex {
  private readonly files = new Set<string>();
  /** Every folder holding a Python file at any depth, '' included: each can be a (namespace) package. */
  private readonly folders = new Set<string>();
  /** Lookups by module key: a resolution asks for the same few modules over and over. */
  private readonly found = new Map<string, ModuleRef | null>();
  readonly roots: string[];

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      this.files.add(path);
      for (let folder = parentOf(path); ; folder = parentOf(folder)) {
        if (this.folders.has(folder)) break;
        this.folders.add(folder);
        if (folder === '') break;
      }
    }
    const roots = new Set<string>();
    for (const folder of this.folders) {
      if (folder !== '' && !folder.includes('/') && CONVENTIONAL_ROOTS.has(folder) && !this.files.has(`${folder}/__init__.py`)) roots.add(folder);
    }
    for (const path of this.files) {
      if (!path.endsWith('/__init__.py')) continue;
      const holder = parentOf(parentOf(path));
      if (holder !== '' && !this.files.has(`${holder}/__init__.py`)) roots.add(holder);
    }
    this.roots = ['', ...[...roots].sort(compareText)];
  }

  /** The module or package at a folder plus dotted segments: a regular package first, then a module file, then a namespace package. */
  at(base: string, segments: readonly string[]): ModuleRef | undefined {
    const key = base === '' ? segments.join('/') : segments.length === 0 ? base : `${base}/${segments.join('/')}`;
    let found = this.found.get(key);
    if (found === undefined) this.found.set(key, (found = segments.every((segment) => IDENTIFIER.test(segment)) ? this.lookUp(key) ?? null : null));
    return found ?? undefined;
  }

  private lookUp(key: string): ModuleRef | undefined {
    const init = key === '' ? '__init__.py' : `${key}/__init__.py`;
    if (this.files.has(init)) return { key, file: init, isPackage: true };
    if (key !== '' && this.files.has(`${key}.py`)) return { key, file: `${key}.py`, isPackage: false };
    if (this.folders.has(key)) return { key, isPackage: true };
    return undefined;
  }

  /** A submodule of a package (`pkg.sub`), as an attribute of the package reaches it. */
  submodule(module: ModuleRef, name: string): ModuleRef | undefined {
    return module.isPackage ? this.at(module.key, [name]) : undefined;
  }

  /**
   * The module an import names, from the importing file: relative to its package, or absolute
   * under the import roots. Python takes a namespace package only when no installed package has
   * the name, so an absolute import that finds only a folder without `__init__.py` counts as the
   * repository's only when it reaches a file through it: a name it imports from it (`through`,
   * dotted: `from tools import shell`, `import tools.shell`), or a regular package above it.
   */
  resolve(spec: ModuleSpec, importer: string, through: readonly string[] = []): ModuleRef | undefined {
    const segments = spec.name === '' ? [] : spec.name.split('.');
    if (spec.level > 0) {
      let folder = parentOf(importer);
      for (let level = 1; level < spec.level; level += 1) {
        if (folder === '') return undefined;
        folder = parentOf(folder);
      }
      return this.at(folder, segments);
    }
    for (const base of this.basesFor(importer)) {
      const found = this.at(base, segments);
      if (!found) continue;
      if (found.file || (segments.length > 1 && this.at(base, segments.slice(0, 1))?.file)) return found;
      if (through.some((name) => this.at(found.key, name.split('.'))?.file)) return found;
    }
    return undefined;
  }

  /** Whether an absolute name's first segment is a module or regular package of the repository: an import under it that resolves to nothing is broken, not external. */
  isRepositoryName(name: string, importer: string): boolean {
    const first = name.split('.')[0]!;
    return this.basesFor(importer).some((base) => this.at(base, [first])?.file !== undefined);
  }

  private basesFor(importer: string): string[] {
    const folder = parentOf(importer);
    const isPackage = this.files.has(folder === '' ? '__init__.py' : `${folder}/__init__.py`);
    return isPackage || this.roots.includes(folder) ? this.roots : [folder, ...this.roots];
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
