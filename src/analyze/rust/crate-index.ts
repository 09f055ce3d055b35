import { compareText } from '../../graph/order.js';
import type { ModuleDeclaration } from './rust-facts.js';
import { STD_CRATES } from './rust-std.js';

/** A crate of the repository: its root file, the package folder that holds it, and the name other crates use it by. */
export interface Crate {
  root: string;
  folder: string;
  /** A library's name (its folder's name, `-` read as `_`); binaries, tests and examples are used by no other crate. */
  name?: string;
  library: boolean;
}

interface ModuleInfo {
  crate: Crate;
  /** The module whose `mod x;` declares this file (a file or an inline module's key); none for a crate root. */
  parent?: string;
}

/**
 * The crates of the repository and the module tree of each, from file paths and `mod`
 * declarations alone (no Cargo.toml reaches a front end):
 * - a crate root is `src/lib.rs` (a library), `src/main.rs`, `src/bin/*.rs` or `src/bin/* /main.rs`,
 *   `build.rs`, and each file directly in a package's `tests/`, `benches/` or `examples/`;
 * - a library is known to every other crate by its package folder's name, `-` read as `_`
 *   (`crates/harness-core/src/lib.rs` is `harness_core`); a name that is no folder's, `<prefix>_<folder>`,
 *   also reaches the folder's library when the path goes on into it (`harness_core::agent` for
 *   `crates/core`, Cargo's common `name = "harness-core"` in a folder named `core`): see RustModules;
 * - `mod x;` in a crate root or a `mod.rs` names `x.rs` or `x/mod.rs` beside it; in any other
 *   file `f.rs` it names `f/x.rs` or `f/x/mod.rs` (Rust 2018); inline modules add their names as
 *   folders; `#[path = "..."]` names the file from the declaring file's folder;
 * - a file no declaration reaches belongs to the crate whose `src/` holds it, under the module its
 *   path spells (`src/a/b.rs` is `b` of `src/a.rs` or `src/a/mod.rs`, else of the crate root), as if
 *   declared there (a `mod` behind a `cfg_attr` or made by a macro is still the crate's); outside
 *   any crate it is a crate of its own.
 * Where two crates declare one file, the first root in path order keeps it.
 */
export class CrateIndex {
  readonly crates: Crate[] = [];
  private readonly files: ReadonlySet<string>;
  private readonly modules = new Map<string, ModuleInfo>();
  /** Module key → name → file of the module `mod name;` there declares. */
  private readonly children = new Map<string, Map<string, string>>();
  /** Libraries by name; one named as a toolchain crate (`core` for `crates/core`) is reached only by the suffix rule. */
  private readonly libraries = new Map<string, Crate>();
  private readonly allLibraries: Crate[] = [];

  constructor(paths: readonly string[], declarationsOf: (file: string) => readonly ModuleDeclaration[]) {
    this.files = new Set(paths);
    const sorted = [...paths].sort(compareText);
    for (const path of sorted) {
      const crate = crateRootOf(path, this.files);
      if (!crate) continue;
      this.crates.push(crate);
      if (!crate.library || crate.name === undefined) continue;
      this.allLibraries.push(crate);
      if (!STD_CRATES.has(crate.name) && !this.libraries.has(crate.name)) this.libraries.set(crate.name, crate);
    }
    const roots = new Set(this.crates.map((crate) => crate.root));
    const walk = (start: string): void => {
      const queue = [start];
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const file = next;
        const info = this.modules.get(file)!;
        for (const declaration of declarationsOf(file)) {
          const target = this.moduleFile(file, declaration, roots.has(file));
          if (target === undefined) continue;
          const declaring = declaration.scope === '' ? file : `${file}#${declaration.scope}`;
          let named = this.children.get(declaring);
          if (!named) this.children.set(declaring, (named = new Map()));
          named.set(declaration.name, target);
          if (this.modules.has(target)) continue;
          this.modules.set(target, { crate: info.crate, parent: declaring });
          queue.push(target);
        }
      }
    };
    for (const crate of this.crates) {
      if (this.modules.has(crate.root)) continue;
      this.modules.set(crate.root, { crate });
      walk(crate.root);
    }
    for (const path of sorted) {
      if (this.modules.has(path)) continue;
      const info = this.orphanInfo(path);
      this.modules.set(path, info);
      // Reachable from the module its path spells, as if declared there: a `mod` behind a `cfg` or a macro is still the code's.
      if (info.parent !== undefined) {
        const name = path.endsWith('/mod.rs') ? parentOf(path).slice(parentOf(path).lastIndexOf('/') + 1) : path.slice(path.lastIndexOf('/') + 1).replace(/\.rs$/, '');
        let named = this.children.get(info.parent);
        if (!named) this.children.set(info.parent, (named = new Map()));
        if (!named.has(name)) named.set(name, path);
      }
      walk(path);
    }
  }

  /** The file a `mod` declaration names, if the repository holds it. */
  private moduleFile(file: string, declaration: ModuleDeclaration, isRoot: boolean): string | undefined {
    const folder = parentOf(file);
    const name = file.slice(folder.length === 0 ? 0 : folder.length + 1);
    const ownFolder = isRoot || name === 'mod.rs' ? folder : join(folder, name.replace(/\.rs$/, ''));
    const inline = declaration.scope === '' ? [] : declaration.scope.split('.').map((part) => part.replace(/~\d+$/, ''));
    if (declaration.path !== undefined) {
      const base = inline.length === 0 ? folder : join(ownFolder, ...inline);
      const target = normalize(join(base, declaration.path));
      return target !== undefined && this.files.has(target) ? target : undefined;
    }
    const base = join(ownFolder, ...inline);
    for (const candidate of [join(base, `${declaration.name}.rs`), join(base, declaration.name, 'mod.rs')]) if (this.files.has(candidate)) return candidate;
    return undefined;
  }

  /** A file no `mod` reaches: under the crate whose `src/` holds it, in the module its path spells. */
  private orphanInfo(path: string): ModuleInfo {
    const crate = this.crates
      .filter((candidate) => path.startsWith(candidate.folder === '' ? 'src/' : `${candidate.folder}/src/`))
      .sort((a, b) => b.folder.length - a.folder.length || Number(b.library) - Number(a.library) || compareText(a.root, b.root))[0];
    if (!crate) {
      const own: Crate = { root: path, folder: parentOf(path), library: false };
      return { crate: own };
    }
    const source = crate.folder === '' ? 'src' : `${crate.folder}/src`;
    const folder = parentOf(path);
    const moduleFolder = path.endsWith('/mod.rs') ? parentOf(folder) : folder;
    if (moduleFolder === source || moduleFolder.length < source.length) return { crate, parent: crate.root };
    const owner = [`${moduleFolder}.rs`, `${moduleFolder}/mod.rs`].find((candidate) => candidate !== path && this.files.has(candidate));
    return { crate, parent: owner ?? crate.root };
  }

  /** The crate a module (a file, or an inline module `file#a.b`) belongs to. */
  crateOf(key: string): Crate | undefined {
    return this.modules.get(fileOfKey(key))?.crate;
  }

  /** The module `super` names: an inline module's enclosing one, a file's declaring module. */
  parentOf(key: string): string | undefined {
    const hash = key.lastIndexOf('#');
    if (hash >= 0) {
      const symbol = key.slice(hash + 1);
      const dot = symbol.lastIndexOf('.');
      return dot < 0 ? key.slice(0, hash) : `${key.slice(0, hash)}#${symbol.slice(0, dot)}`;
    }
    return this.modules.get(key)?.parent;
  }

  /** The file module `mod name;` in a module declares. */
  childFile(key: string, name: string): string | undefined {
    return this.children.get(key)?.get(name);
  }

  /** The library a crate name reaches: by its exact name, else (for RustModules to check) every library whose name ends the given one after a `_`. */
  librariesNamed(name: string): { exact?: Crate; suffixed: Crate[] } {
    const exact = this.libraries.get(name);
    if (exact) return { exact, suffixed: [] };
    const suffixed = this.allLibraries.filter((crate) => name.length > crate.name!.length + 1 && name.endsWith(`_${crate.name}`));
    return { suffixed };
  }
}

/** The file of a module key: a file module's key is its path, an inline module's is `path#symbol`. */
export function fileOfKey(key: string): string {
  const hash = key.lastIndexOf('#');
  return hash < 0 ? key : key.slice(0, hash);
}

function crateRootOf(path: string, files: ReadonlySet<string>): Crate | undefined {
  let match = /^(?:(.*)\/)?src\/(lib|main)\.rs$/.exec(path);
  if (match) {
    const folder = match[1] ?? '';
    const library = match[2] === 'lib';
    const base = folder.slice(folder.lastIndexOf('/') + 1).replace(/-/g, '_');
    return { root: path, folder, library, ...(base !== '' ? { name: base } : {}) };
  }
  match = /^(?:(.*)\/)?src\/bin\/([^/]+?)(?:\.rs|\/main\.rs)$/.exec(path);
  if (match) return { root: path, folder: match[1] ?? '', library: false, name: match[2]!.replace(/-/g, '_') };
  // A package's own tests, benches and examples: not a `tests/` folder inside `src/`, which holds modules.
  match = /^(?:(.*)\/)?(?:tests|benches|examples)\/([^/]+?)(?:\.rs|\/main\.rs)$/.exec(path);
  if (match && !/(^|\/)src(\/|$)/.test(match[1] ?? '')) return { root: path, folder: match[1] ?? '', library: false, name: match[2]!.replace(/-/g, '_') };
  match = /^(?:(.*)\/)?build\.rs$/.exec(path);
  if (match) {
    const folder = match[1] ?? '';
    const prefix = folder === '' ? '' : `${folder}/`;
    if (files.has(`${prefix}src/lib.rs`) || files.has(`${prefix}src/main.rs`)) return { root: path, folder, library: false };
  }
  return undefined;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function join(...parts: string[]): string {
  return parts.filter((part) => part !== '').join('/');
}

/** A path with its `.` and `..` segments applied; undefined when it climbs out of the repository. */
function normalize(path: string): string | undefined {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return segments.join('/');
}
