import type { Unit } from '../../graph/model.js';
import { compareText } from '../../graph/order.js';
import type { ExtractedFile } from '../front-end.js';
import { Memo } from '../syntax/memo.js';
import { CrateIndex, fileOfKey } from './crate-index.js';
import type { RustFacts } from './rust-facts.js';
import { PRELUDE_NAMES, STD_CRATES } from './rust-std.js';
import { DYNAMIC, UNKNOWN, type Landing, type Value } from './rust-values.js';

/**
 * The module namespaces of every Rust file of the repository: crates and their module trees,
 * what each module binds (items, `mod` files, `use` imports and globs, re-exports through any
 * chain of them), and what a path reaches through them. What a type's path reaches (associated
 * fns, a trait's methods) and what a value is are the subclass's (RustProgram). Each answer is
 * computed once per resolution; two globs importing each other are answered `unknown`, not followed.
 */
export abstract class RustModules {
  readonly paths: string[];
  readonly units = new Map<string, Unit>();
  readonly crates: CrateIndex;
  /** `macro_rules!` units, by id. */
  readonly macroIds = new Set<string>();
  private readonly facts = new Map<string, RustFacts>();
  private readonly inlineModules = new Set<string>();
  private readonly moduleItems = new Memo<Landing>({ value: UNKNOWN });
  private readonly externalGlobs = new Memo<string | undefined>(undefined);

  constructor(files: ReadonlyMap<string, ExtractedFile<RustFacts>>) {
    this.paths = [...files.keys()].sort(compareText);
    for (const path of this.paths) {
      const extracted = files.get(path)!;
      this.facts.set(path, extracted.facts);
      for (const unit of extracted.units) this.units.set(unit.id, unit);
      for (const symbol of extracted.facts.inlineModules) this.inlineModules.add(`${path}#${symbol}`);
      for (const macro of extracted.facts.macros) this.macroIds.add(`${path}#${macro.symbol}`);
    }
    this.crates = new CrateIndex(this.paths, (file) => this.facts.get(file)?.modules ?? []);
  }

  /**
   * Takes in new extractions of files whose surface is what the namespaces were built from: the
   * crates, module trees and every answer about names stand (they carry no positions); the facts
   * and units, which do, are replaced.
   */
  protected patchFiles(changed: ReadonlyMap<string, ExtractedFile<RustFacts>>): void {
    for (const [path, extracted] of changed) {
      this.facts.set(path, extracted.facts);
      for (const unit of extracted.units) this.units.set(unit.id, unit);
    }
  }

  /** What a const or static holds. */
  protected abstract staticValue(id: string): Value;

  /** An associated item (fn, const, variant) of the type or trait a unit names, or a trait's method. */
  protected abstract associatedItem(unitId: string, name: string): Landing;

  factsOf(file: string): RustFacts | undefined {
    return this.facts.get(file);
  }

  /** The key of a module scope of a file: the file for its own module, `file#a.b` for an inline one (the inline module's unit id). */
  moduleKey(file: string, scope: string): string {
    return scope === '' ? file : `${file}#${scope}`;
  }

  /**
   * A path from a module: `crate::`, `self::`, `super::`, a leading `::`, or a name the module
   * binds, else a crate (a library of the repository, std, an outside crate), else a name of the
   * std prelude. Then each segment, through modules and the associated items of types.
   * `following` is the segment a longer path goes on with, for a prefix resolved alone.
   */
  resolvePath(key: string, segments: readonly string[], following?: string): Landing {
    let [first, ...rest] = segments;
    if (first === undefined) return { value: DYNAMIC };
    let landing: Landing;
    if (first === '::') {
      [first, ...rest] = rest;
      if (first === undefined) return { value: DYNAMIC };
      landing = this.crateNamed(first, rest[0]) ?? { value: { kind: 'external', crate: first } };
    } else if (first === 'crate') {
      landing = { value: { kind: 'module', key: this.crates.crateOf(key)?.root ?? fileOfKey(key) } };
    } else if (first === 'self') landing = { value: { kind: 'module', key } };
    else if (first === 'super') {
      let module: string | undefined = this.crates.parentOf(key);
      while (rest[0] === 'super' && module !== undefined) {
        rest = rest.slice(1);
        module = this.crates.parentOf(module);
      }
      if (module === undefined) return { value: UNKNOWN };
      landing = { value: { kind: 'module', key: module } };
    } else landing = this.nameInScope(key, first, rest[0] ?? following);
    for (const segment of rest) landing = this.step(landing.value, segment);
    return landing;
  }

  /** A name as the first segment of a path: the module's own, then a crate's, then the prelude's. */
  private nameInScope(key: string, name: string, next: string | undefined): Landing {
    const own = this.moduleItem(key, name);
    if (own.value.kind !== 'unknown') return own;
    const crate = this.crateNamed(name, next);
    if (crate) return crate;
    if (STD_CRATES.has(name)) return { value: { kind: 'external', crate: name } };
    if (PRELUDE_NAMES.has(name)) return { value: { kind: 'std', wrapper: name } };
    const glob = this.externalGlob(key);
    if (glob !== undefined) return { value: { kind: 'external', crate: glob } };
    // A lowercase first segment no module binds names a crate from outside (`serde_json::to_string`).
    if (next !== undefined && /^[a-z_][a-z0-9_]*$/.test(name)) return { value: { kind: 'external', crate: name } };
    return { value: UNKNOWN };
  }

  /** A library of the repository by the name other crates use, checked against the segment the path goes on with. */
  private crateNamed(name: string, next: string | undefined): Landing | undefined {
    const { exact, suffixed } = this.crates.librariesNamed(name);
    if (exact) return { value: { kind: 'module', key: exact.root } };
    // `harness_core` for the library in `crates/core`: only where the path goes on to something that library has.
    const fits = suffixed.filter((crate) => next === undefined || this.moduleItem(crate.root, next).value.kind !== 'unknown');
    return fits.length === 1 ? { value: { kind: 'module', key: fits[0]!.root } } : undefined;
  }

  /** What a module binds to a name: its items, its `mod` files, its imports, and (for a crate root) the crate's exported macros, then its globs. */
  moduleItem(key: string, name: string): Landing {
    return this.moduleItems.get(key, name, () => {
      const file = fileOfKey(key);
      const facts = this.facts.get(file);
      if (!facts) return { value: UNKNOWN };
      const scope = key === file ? '' : key.slice(file.length + 1);
      const symbol = facts.items[scope]?.[name];
      if (symbol !== undefined) return this.unitLanding(`${file}#${symbol}`);
      const child = this.crates.childFile(key, name);
      if (child !== undefined) return { value: { kind: 'module', key: child } };
      for (const fact of facts.imports) {
        if (fact.scope !== scope || fact.local || fact.glob || fact.name !== name) continue;
        const found = this.resolvePath(key, fact.segments);
        if (found.value.kind !== 'unknown') return found;
      }
      if (this.crates.crateOf(key)?.root === key) {
        const macro = this.exportedMacro(key, name);
        if (macro !== undefined) return this.unitLanding(macro);
      }
      for (const fact of facts.imports) {
        if (fact.scope !== scope || fact.local || !fact.glob) continue;
        const target = this.resolvePath(key, fact.segments).value;
        if (target.kind === 'module') {
          const found = this.moduleItem(target.key, name);
          if (found.value.kind !== 'unknown') return found;
        } else if (target.kind === 'unit' && this.units.get(target.id)?.kind === 'enum') {
          if (this.typeFact(target.id)?.variants.includes(name)) return { unit: target.id, value: { kind: 'variant', enumId: target.id } };
        }
      }
      return { value: UNKNOWN };
    });
  }

  /** The outside crate a module's glob imports bring names from, if any: a name bound nowhere else may come from it. */
  private externalGlob(key: string): string | undefined {
    return this.externalGlobs.get(key, 0, () => {
      const file = fileOfKey(key);
      const scope = key === file ? '' : key.slice(file.length + 1);
      for (const fact of this.facts.get(file)?.imports ?? []) {
        if (fact.scope !== scope || !fact.glob) continue;
        const target = this.resolvePath(key, fact.segments).value;
        if (target.kind === 'external') return target.crate;
      }
      return undefined;
    });
  }

  /** A `#[macro_export]` macro of a crate, which stands at the crate's root. */
  private exportedMacro(root: string, name: string): string | undefined {
    const crate = this.crates.crateOf(root);
    for (const path of this.paths) {
      if (this.crates.crateOf(path) !== crate) continue;
      const macro = this.facts.get(path)!.macros.find((candidate) => candidate.exported && candidate.name === name);
      if (macro) return `${path}#${macro.symbol}`;
    }
    return undefined;
  }

  /** A macro a bare `name!` reaches: one the file defines, else one of its crate (in path order). */
  macroNamed(file: string, name: string): string | undefined {
    const own = this.facts.get(file)?.macros.find((macro) => macro.name === name);
    if (own) return `${file}#${own.symbol}`;
    const crate = this.crates.crateOf(file);
    for (const path of this.paths) {
      if (path === file || this.crates.crateOf(path) !== crate) continue;
      const macro = this.facts.get(path)!.macros.find((candidate) => candidate.name === name);
      if (macro) return `${path}#${macro.symbol}`;
    }
    return undefined;
  }

  unitLanding(id: string): Landing {
    if (this.inlineModules.has(id)) return { value: { kind: 'module', key: id } };
    const unit = this.units.get(id);
    if (!unit) return { value: UNKNOWN };
    if (unit.kind === 'variable') return { unit: id, value: this.staticValue(id) };
    return { unit: id, value: { kind: 'unit', id } };
  }

  /** A path's next segment: a module's item, a type's associated item or variant, a trait's method. */
  step(value: Value, name: string): Landing {
    switch (value.kind) {
      case 'module':
        return this.moduleItem(value.key, name);
      case 'unit':
        return this.associatedItem(value.id, name);
      case 'std':
      case 'external':
      case 'unknown':
        return { value };
      default:
        return { value: DYNAMIC };
    }
  }

  typeFact(id: string): RustFacts['types'][string] | undefined {
    const hash = id.lastIndexOf('#');
    return this.facts.get(id.slice(0, hash))?.types[id.slice(hash + 1)];
  }
}
