import type { Unit } from '../../graph/model.js';
import { compareText } from '../../graph/order.js';
import type { ExtractedFile } from '../front-end.js';
import { ClassHierarchy, type ResolvedBases } from './class-hierarchy.js';
import { ModuleIndex, type ModuleRef } from './module-paths.js';
import { BUILTIN_NAMES, BUILTIN_TYPES, TYPING_CONTAINERS, TYPING_MODULES } from './python-builtins.js';
import type { ClassFact, GlobalBinding, ModuleSpec, NamePath, PythonFacts, Root, ValueFact } from './python-facts.js';
import { Memo } from '../syntax/memo.js';
import { bestValue, BUILTIN, DYNAMIC, UNKNOWN, type Landing, type Value } from './python-values.js';

/** A path's landing at each step: the root (0), then each attribute. */
export type StepListener = (landing: Landing, step: number) => void;

/**
 * Every Python file of the repository at once, for resolving names across them: modules and what
 * they bind (through imports, `__init__` re-exports and star imports, any chain of them), classes
 * with their MRO, and what names, fields and calls hold. Each answer is computed once per
 * resolution and kept; a question that comes round to itself (`a = b`, `b = a`; a class among its
 * own bases) is answered `dynamic` rather than followed.
 */
export class PythonProgram {
  readonly modules: ModuleIndex;
  readonly units = new Map<string, Unit>();
  readonly hierarchy: ClassHierarchy;
  readonly paths: string[];
  private readonly facts = new Map<string, PythonFacts>();
  /** Each class's facts and file by the class's id. */
  private readonly classes = new Map<string, { file: string; fact: ClassFact }>();
  private readonly members = new Memo<Landing>({ value: DYNAMIC });
  private readonly moduleNames = new Memo<Landing | undefined>(undefined);
  private readonly localLandings = new Memo<Landing>({ value: DYNAMIC });
  private readonly classMembers = new Memo<Landing>({ value: DYNAMIC });
  private readonly superMembers = new Memo<Landing>({ value: DYNAMIC });
  private readonly values = new Memo<Value>(DYNAMIC);
  private readonly bases = new Memo<ResolvedBases>({ repository: [] });
  private readonly overrides = new Memo<readonly string[]>([]);
  private readonly unitLandings = new Map<string, Landing>();

  constructor(files: ReadonlyMap<string, ExtractedFile<PythonFacts>>) {
    this.paths = [...files.keys()].sort(compareText);
    for (const path of this.paths) {
      const extracted = files.get(path)!;
      this.facts.set(path, extracted.facts);
      for (const unit of extracted.units) this.units.set(unit.id, unit);
      for (const [symbol, fact] of Object.entries(extracted.facts.classes)) this.classes.set(`${path}#${symbol}`, { file: path, fact });
    }
    this.modules = new ModuleIndex(this.paths);
    const classIds = [...this.units.values()].filter((unit) => unit.kind === 'class').map((unit) => unit.id);
    this.hierarchy = new ClassHierarchy(classIds, (classId) => this.basesOf(classId));
  }

  factsOf(file: string): PythonFacts | undefined {
    return this.facts.get(file);
  }

  classFact(classId: string): ClassFact | undefined {
    return this.classes.get(classId)?.fact;
  }

  /** Every class with its facts, by id. */
  get classFacts(): ReadonlyMap<string, { file: string; fact: ClassFact }> {
    return this.classes;
  }

  /** The package an absolute import outside the repository names (its first segment); undefined for the repository's own or a relative one. */
  externalPackage(file: string, spec: ModuleSpec): string | undefined {
    if (spec.level > 0 || spec.name === '' || this.modules.isRepositoryName(spec.name, file)) return undefined;
    return spec.name.split('.')[0];
  }

  evalPath(file: string, path: NamePath, onStep?: StepListener): Landing {
    let landing = this.rootLanding(file, path.root);
    onStep?.(landing, 0);
    for (let index = 0; index < path.attributes.length; index += 1) {
      landing = this.step(landing.value, path.attributes[index]!);
      onStep?.(landing, index + 1);
    }
    return landing;
  }

  private rootLanding(file: string, root: Root): Landing {
    switch (root.kind) {
      case 'global':
        return this.globalName(file, root.name);
      case 'local':
        return this.localLanding(file, root.local);
      case 'super':
        return { value: { kind: 'super', classId: `${file}#${root.classSymbol}` } };
      case 'call':
        return { value: this.callResult(this.evalPath(file, root.callee).value) };
      case 'builtin':
        return { value: BUILTIN };
      default:
        return { value: DYNAMIC };
    }
  }

  /** A module-level name of a file, or a builtin; else, in a file that star-imports a package, a name of that package. */
  globalName(file: string, name: string): Landing {
    const found = this.nameInModule(file, name);
    if (found) return found;
    if (BUILTIN_NAMES.has(name)) return { value: BUILTIN_TYPES.has(name) ? { kind: 'builtin', isType: true } : BUILTIN };
    for (const star of this.facts.get(file)?.starImports ?? []) {
      const external = this.externalPackage(file, star);
      if (external !== undefined) return { value: { kind: 'external', package: external } };
    }
    return { value: UNKNOWN };
  }

  /** An attribute of a module: a name it binds, else a submodule. */
  moduleMember(module: ModuleRef, name: string): Landing {
    return this.members.get(module.key, name, () => {
      const found = module.file ? this.nameInModule(module.file, name) : undefined;
      if (found) return found;
      const submodule = this.modules.submodule(module, name);
      return submodule ? { value: { kind: 'module', module: submodule } } : { value: UNKNOWN };
    });
  }

  /** A name a module binds itself or brings in by a star import. */
  private nameInModule(file: string, name: string): Landing | undefined {
    return this.moduleNames.get(file, name, () => {
      const facts = this.facts.get(file);
      if (!facts) return undefined;
      const binding = facts.names[name];
      if (binding) return this.bindingLanding(file, binding);
      for (const star of facts.starImports) {
        const module = this.modules.resolve(star, file);
        if (!module?.file || !this.exportsByStar(module.file, name)) continue;
        // `__all__` may list a submodule the package never imports itself.
        const found = this.moduleMember(module, name);
        if (found.value.kind !== 'unknown') return found;
      }
      return undefined;
    });
  }

  /** Whether `from m import *` brings a name: listed in `__all__`, or else public and bound in m. */
  private exportsByStar(file: string, name: string): boolean {
    const all = this.facts.get(file)?.all;
    if (all) return all.includes(name);
    return !name.startsWith('_') && this.nameInModule(file, name) !== undefined;
  }

  bindingLanding(file: string, binding: GlobalBinding): Landing {
    switch (binding.kind) {
      case 'unit':
        return this.unitLanding(`${file}#${binding.symbol}`);
      case 'module': {
        const rest = binding.imported?.slice(binding.module.name.length + 1);
        const module = this.modules.resolve(binding.module, file, rest ? [rest] : []);
        return module ? { value: { kind: 'module', module } } : this.outside(file, binding.module);
      }
      case 'from': {
        const module = this.modules.resolve(binding.module, file, [binding.name]);
        return module ? this.moduleMember(module, binding.name) : this.outside(file, binding.module);
      }
      default:
        return { value: DYNAMIC };
    }
  }

  private outside(file: string, spec: ModuleSpec): Landing {
    const external = this.externalPackage(file, spec);
    return { value: external === undefined ? UNKNOWN : { kind: 'external', package: external } };
  }

  unitLanding(id: string): Landing {
    let landing = this.unitLandings.get(id);
    if (!landing) this.unitLandings.set(id, (landing = this.landingOfUnit(id)));
    return landing;
  }

  private landingOfUnit(id: string): Landing {
    const unit = this.units.get(id);
    if (!unit) return { value: UNKNOWN };
    switch (unit.kind) {
      case 'variable':
        return { unit: id, value: this.variableValue(id) };
      case 'accessor':
        return { unit: id, value: this.returnsOf(id) };
      case 'class':
      case 'function':
      case 'method':
      case 'constructor':
        return { unit: id, value: { kind: 'unit', id } };
      default:
        return { unit: id, value: DYNAMIC };
    }
  }

  private localLanding(file: string, index: number): Landing {
    return this.localLandings.get(file, index, () => {
      const local = this.facts.get(file)?.locals[index];
      if (!local) return { value: DYNAMIC };
      if (local.self !== undefined) {
        const classId = `${file}#${local.self}`;
        return { value: local.classObject ? { kind: 'unit', id: classId } : { kind: 'instance', classId } };
      }
      if (local.unit !== undefined) return this.unitLanding(`${file}#${local.unit}`);
      if (local.binding) return this.bindingLanding(file, local.binding);
      return { value: this.declaredValue(file, local) };
    });
  }

  /** What reading attribute `name` of a value gives. */
  step(value: Value, name: string): Landing {
    switch (value.kind) {
      case 'module':
        return this.moduleMember(value.module, name);
      case 'unit':
        return this.units.get(value.id)?.kind === 'class' ? this.classMember(value.id, name, false) : { value: DYNAMIC };
      case 'instance':
        return this.classMember(value.classId, name, false);
      case 'super':
        return this.classMember(value.classId, name, true);
      case 'builtin':
        return { value: BUILTIN };
      default:
        return { value };
    }
  }

  /**
   * A member of a class through its MRO (after the class itself for `super()`): a method,
   * accessor or nested class of the first class that has one; else a field, whose slot is the
   * one of the class nearest the root that declares it (one attribute of the instance, whichever
   * class assigns it).
   */
  classMember(classId: string, name: string, after: boolean): Landing {
    return (after ? this.superMembers : this.classMembers).get(classId, name, () => this.lookUpMember(classId, name, after));
  }

  private lookUpMember(classId: string, name: string, after: boolean): Landing {
    const order = this.hierarchy.mro(classId).slice(after ? 1 : 0);
    for (const [at, ancestor] of order.entries()) {
      const fact = this.classFact(ancestor);
      const member = fact?.members[name];
      if (member !== undefined) {
        const landing = this.unitLanding(`${this.classes.get(ancestor)!.file}#${member}`);
        return after ? landing : { ...landing, receiver: classId };
      }
      if (fact?.fields[name]) {
        const declaring = order.slice(at).filter((candidate) => this.classFact(candidate)?.fields[name] !== undefined);
        const value = bestValue(declaring.map((candidate) => this.fieldValue(candidate, name)));
        return { slot: `${declaring[declaring.length - 1]}.${name}`, value };
      }
    }
    // `__class__`, `__dict__`, `object.__init__`: Python's own.
    if (name.startsWith('__') && name.endsWith('__')) return { value: BUILTIN };
    const external = this.hierarchy.externalBase(classId);
    if (external !== undefined) return { value: { kind: 'external', package: external } };
    return { value: DYNAMIC, missing: classId };
  }

  /** The methods of a name that classes below `classId` define, nearest first: what a call through the class may run instead. */
  overridesBelow(classId: string, name: string): readonly string[] {
    return this.overrides.get(classId, name, () =>
      this.hierarchy.descendantsOf(classId).flatMap((descendant) => {
        const known = this.classes.get(descendant);
        const member = known?.fact.members[name];
        return known === undefined || member === undefined ? [] : [`${known.file}#${member}`];
      }),
    );
  }

  private basesOf(classId: string): ResolvedBases {
    return this.bases.get(classId, 0, () => {
      const known = this.classes.get(classId);
      const bases: ResolvedBases = { repository: [] };
      for (const base of known?.fact.bases ?? []) {
        const value = this.evalPath(known!.file, base.path).value;
        if (value.kind === 'unit' && this.units.get(value.id)?.kind === 'class') bases.repository.push({ id: value.id, line: base.line });
        else if (value.kind === 'external') bases.external ??= value.package;
      }
      return bases;
    });
  }

  /** The repository classes a class extends, with the line of each base. */
  baseClassesOf(classId: string): ResolvedBases['repository'] {
    return this.basesOf(classId).repository;
  }

  private fieldValue(classId: string, name: string): Value {
    return this.values.get(`field\u0000${classId}`, name, () => {
      const known = this.classes.get(classId);
      const field = known?.fact.fields[name];
      return field ? this.declaredValue(known!.file, field) : DYNAMIC;
    });
  }

  private variableValue(id: string): Value {
    return this.values.get(id, 'variable', () => {
      const [file, symbol] = splitId(id);
      const variable = this.facts.get(file)?.variables[symbol];
      return variable ? this.declaredValue(file, variable) : DYNAMIC;
    });
  }

  returnsOf(id: string): Value {
    return this.values.get(id, 'returns', () => {
      const [file, symbol] = splitId(id);
      const fact = this.facts.get(file)?.functions[symbol];
      if (!fact) return DYNAMIC;
      return this.declaredValue(file, { ...(fact.returns ? { annotation: fact.returns } : {}), values: fact.returned ?? [] });
    });
  }

  /** A name's value: its annotation's where that resolves, else the most telling of its assigned values. */
  private declaredValue(file: string, declared: { annotation?: ValueFact; values: readonly ValueFact[] }): Value {
    const annotated = declared.annotation ? this.valueOfFact(file, declared.annotation) : DYNAMIC;
    return annotated.kind !== 'dynamic' ? annotated : bestValue(declared.values.map((value) => this.valueOfFact(file, value)));
  }

  valueOfFact(file: string, fact: ValueFact): Value {
    switch (fact.kind) {
      case 'path':
        return this.evalPath(file, fact.path).value;
      case 'call':
        return this.callResult(this.evalPath(file, fact.callee).value);
      case 'instance':
        return this.instanceOf(this.evalPath(file, fact.type).value, fact.element ? { file, path: fact.element } : undefined, lastName(fact.type));
      case 'element': {
        const container = this.valueOfFact(file, fact.of);
        return container.kind === 'builtin' && container.element ? this.instanceOf(this.evalPath(container.element.file, container.element.path).value) : DYNAMIC;
      }
      case 'builtin':
        return BUILTIN;
      default:
        return DYNAMIC;
    }
  }

  private instanceOf(type: Value, element?: { file: string; path: NamePath }, name?: string): Value {
    if (type.kind === 'unit' && this.units.get(type.id)?.kind === 'class') return { kind: 'instance', classId: type.id };
    // `List[Tool]` is a list of Tools; `Callable[..., str]` or `Any` says nothing of whose code runs.
    if (type.kind === 'external' && TYPING_MODULES.has(type.package)) {
      if (name === undefined || !TYPING_CONTAINERS.has(name)) return DYNAMIC;
      return element ? { kind: 'builtin', element } : BUILTIN;
    }
    if (type.kind === 'external') return type;
    if (type.kind === 'builtin') return element ? { kind: 'builtin', element } : BUILTIN;
    return DYNAMIC;
  }

  /** What calling a value returns: an instance of a class, a function's annotated return type. */
  callResult(value: Value): Value {
    switch (value.kind) {
      case 'unit': {
        const kind = this.units.get(value.id)?.kind;
        if (kind === 'class') return { kind: 'instance', classId: value.id };
        return kind === 'function' || kind === 'method' || kind === 'constructor' ? this.returnsOf(value.id) : DYNAMIC;
      }
      case 'instance': {
        const call = this.classMember(value.classId, '__call__', false);
        return call.unit ? this.returnsOf(call.unit) : DYNAMIC;
      }
      case 'builtin':
        return value.isType ? BUILTIN : DYNAMIC;
      case 'external':
      case 'unknown':
        return value;
      default:
        return DYNAMIC;
    }
  }
}

/** The name a path ends with (`typing.List` → List). */
function lastName(path: NamePath): string | undefined {
  if (path.attributes.length > 0) return path.attributes[path.attributes.length - 1];
  return path.root.kind === 'global' ? path.root.name : undefined;
}

/** A unit id's file and symbol. */
export function splitId(id: string): [string, string] {
  // A symbol never holds `#`; a path may.
  const hash = id.lastIndexOf('#');
  return hash < 0 ? [id, ''] : [id.slice(0, hash), id.slice(hash + 1)];
}
