import type { Unit } from '../../graph/model.js';
import { compareText } from '../../graph/order.js';
import type { ExtractedFile } from '../front-end.js';
import { Memo } from '../syntax/memo.js';
import type { ExprPath, FunctionFact, GoFacts, Root, Step, TypeFact, TypeRef, ValuePath } from './go-facts.js';
import { GoPackages, type ImportTarget, qualifierOf } from './go-packages.js';
import { isGoTestPath } from './go-test-paths.js';
import { BUILTIN, DYNAMIC, type GoLanding, type GoValue, PREDECLARED_FUNCS, PREDECLARED_TYPES, UNKNOWN } from './go-values.js';
import { MemberIndex } from './go-method-sets.js';

/** A path's landing at each step: the root (0), then each step. */
export type StepListener = (landing: GoLanding, step: number) => void;

export interface TypeEntry {
  id: string;
  file: string;
  fact: TypeFact;
}

interface FileScope {
  packageKey?: string;
  /** Import qualifiers → what they name. */
  qualifiers: Map<string, ImportTarget>;
  /** Dot imports, whose names the file uses unqualified. */
  dots: ImportTarget[];
}

/**
 * Every Go file of the repository at once, for resolving names across them: packages and what
 * they declare (in any of their files), imports, named types with their fields and methods, and
 * what names, fields and calls hold by their declared types. Each answer is computed once per
 * resolution; a question that comes round to itself (`var a = b`, `var b = a`) is answered
 * `dynamic` rather than followed.
 */
export class GoProgram {
  readonly paths: string[];
  readonly units = new Map<string, Unit>();
  readonly packages: GoPackages;
  readonly types = new Map<string, TypeEntry>();
  readonly members: MemberIndex;
  private readonly facts = new Map<string, GoFacts>();
  private readonly scopes = new Map<string, FileScope>();
  /** Package key → name → unit id. */
  private readonly packageNames = new Map<string, Map<string, string>>();
  /** Type id → method name → method unit id, from every file of the type's package. */
  private readonly methods = new Map<string, Map<string, string>>();
  private readonly functions = new Map<string, { file: string; fact: FunctionFact }>();
  private readonly localValues = new Memo<GoValue>(DYNAMIC);
  private readonly variableValues = new Memo<GoValue>(DYNAMIC);

  constructor(files: ReadonlyMap<string, ExtractedFile<GoFacts>>) {
    this.paths = [...files.keys()].sort(compareText);
    const described: Array<{ path: string; packageName: string; test: boolean }> = [];
    const imports: string[] = [];
    for (const path of this.paths) {
      const extracted = files.get(path)!;
      this.facts.set(path, extracted.facts);
      for (const unit of extracted.units) this.units.set(unit.id, unit);
      described.push({ path, packageName: extracted.facts.package, test: isGoTestPath(path) });
      for (const fact of extracted.facts.imports) imports.push(fact.path);
    }
    this.packages = new GoPackages(described, imports);
    for (const found of this.packages.byKey.values()) {
      const names = new Map<string, string>();
      for (const file of found.files) for (const [name, symbol] of Object.entries(this.facts.get(file)!.declarations)) if (!names.has(name)) names.set(name, `${file}#${symbol}`);
      this.packageNames.set(found.key, names);
    }
    for (const path of this.paths) {
      const facts = this.facts.get(path)!;
      const found = this.packages.packageOf(path, facts.package);
      const scope: FileScope = { qualifiers: new Map(), dots: [] };
      if (found && found.files.includes(path)) scope.packageKey = found.key;
      for (const fact of facts.imports) {
        // cgo's `C` is no package, but what `C.f()` calls is code from outside the repository all the same.
        const target: ImportTarget = GoPackages.isPackagePath(fact.path) ? this.packages.resolve(fact.path) : { kind: 'external', name: fact.path };
        if (fact.alias === '.') scope.dots.push(target);
        const qualifier = qualifierOf(fact, target);
        if (qualifier !== undefined && !scope.qualifiers.has(qualifier)) scope.qualifiers.set(qualifier, target);
      }
      this.scopes.set(path, scope);
      if (scope.packageKey === undefined) continue;
      for (const [symbol, fact] of Object.entries(facts.types)) this.types.set(`${path}#${symbol}`, { id: `${path}#${symbol}`, file: path, fact });
      for (const [symbol, fact] of Object.entries(facts.functions)) this.functions.set(`${path}#${symbol}`, { file: path, fact });
    }
    // Methods in id order, so that the first of two with one name (`~2`) is the same in any file order.
    for (const [id, { file, fact }] of [...this.functions].filter(([, { fact }]) => fact.receiver !== undefined).sort(([a], [b]) => compareText(a, b))) {
      const typeId = this.packageNames.get(this.scopes.get(file)!.packageKey!)?.get(fact.receiver!);
      if (typeId === undefined || !this.types.has(typeId)) continue;
      const symbol = id.slice(id.lastIndexOf('#') + 1);
      const name = symbol.slice(symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
      const methods = this.methods.get(typeId) ?? new Map<string, string>();
      if (!methods.has(name)) methods.set(name, id);
      this.methods.set(typeId, methods);
    }
    this.members = new MemberIndex(this);
  }

  /**
   * Takes in new extractions of some files whose surface (see resolve-go-files.ts: package,
   * imports, declarations, types, functions, variables, units, all without positions) is what
   * this program was built from: the tables derived from surfaces stand, and the answers it
   * memoized are position-free, so only what carries positions is replaced (facts, units, type and
   * function entries) and what the files' own locals and variables answered is forgotten. A
   * rebuild of the whole program for a body edit is most of a sync's resolution otherwise.
   */
  patch(changed: ReadonlyMap<string, ExtractedFile<GoFacts>>): void {
    for (const [path, extracted] of changed) {
      this.facts.set(path, extracted.facts);
      for (const unit of extracted.units) this.units.set(unit.id, unit);
      for (const [symbol, fact] of Object.entries(extracted.facts.types)) {
        const id = `${path}#${symbol}`;
        if (this.types.has(id)) this.types.set(id, { id, file: path, fact });
      }
      for (const [symbol, fact] of Object.entries(extracted.facts.functions)) {
        const id = `${path}#${symbol}`;
        if (this.functions.has(id)) this.functions.set(id, { file: path, fact });
      }
    }
    this.localValues.forget((file) => changed.has(file));
    this.variableValues.forget((id) => changed.has(id.slice(0, id.lastIndexOf('#'))));
  }

  factsOf(file: string): GoFacts | undefined {
    return this.facts.get(file);
  }

  functionFact(id: string): FunctionFact | undefined {
    return this.functions.get(id)?.fact;
  }

  /** The methods declared on a type (value or pointer receivers), by name. */
  ownMethods(typeId: string): ReadonlyMap<string, string> {
    return this.methods.get(typeId) ?? NO_METHODS;
  }

  evalPath(file: string, path: ExprPath, onStep?: StepListener): GoLanding {
    let landing = this.rootLanding(file, path.root);
    onStep?.(landing, 0);
    for (let index = 0; index < path.steps.length; index += 1) {
      landing = this.step(file, landing.value, path.steps[index]!);
      onStep?.(landing, index + 1);
    }
    return landing;
  }

  private rootLanding(file: string, root: Root): GoLanding {
    switch (root.kind) {
      case 'name':
        return this.globalName(file, root.name);
      case 'local':
        return { value: this.localValue(file, root.local) };
      case 'typed':
        return { value: this.typeValue(file, root.type) };
      default:
        return { value: DYNAMIC };
    }
  }

  /** A name not bound locally: the package's own, an import qualifier, a dot import's, a predeclared one. */
  globalName(file: string, name: string): GoLanding {
    const scope = this.scopes.get(file);
    const own = scope?.packageKey === undefined ? undefined : this.packageNames.get(scope.packageKey)?.get(name);
    if (own !== undefined) return this.unitLanding(own);
    const target = scope?.qualifiers.get(name);
    if (target) return { value: this.targetValue(target) };
    for (const dot of scope?.dots ?? []) {
      if (dot.kind === 'external') return { value: { kind: 'external', package: dot.name } };
      const found = dot.kind === 'package' ? this.packageNames.get(dot.package.key)?.get(name) : undefined;
      if (found !== undefined) return this.unitLanding(found);
    }
    if (PREDECLARED_TYPES.has(name) || PREDECLARED_FUNCS.has(name)) return { value: BUILTIN };
    return { value: UNKNOWN };
  }

  private targetValue(target: ImportTarget): GoValue {
    if (target.kind === 'package') return { kind: 'package', key: target.package.key };
    return target.kind === 'external' ? { kind: 'external', package: target.name } : UNKNOWN;
  }

  unitLanding(id: string): GoLanding {
    const unit = this.units.get(id);
    switch (unit?.kind) {
      case 'function':
      case 'method':
        return { unit: id, value: { kind: 'function', id } };
      case 'class':
      case 'interface':
      case 'type':
        return { unit: id, value: { kind: 'type', id } };
      case 'variable':
        return { unit: id, value: this.variableValue(id) };
      default:
        return { value: UNKNOWN };
    }
  }

  /** What one step from a value gives. */
  step(file: string, value: GoValue, step: Step): GoLanding {
    switch (step.kind) {
      case 'select':
        return this.select(value, step.name);
      case 'call':
        return { value: this.results(value)[0] ?? (value.kind === 'external' || value.kind === 'builtin' || value.kind === 'unknown' ? value : DYNAMIC) };
      case 'index':
        return { value: this.element(value, 'element') };
      case 'assert':
        return { value: this.typeValue(file, step.type) };
    }
  }

  private select(value: GoValue, name: string): GoLanding {
    switch (value.kind) {
      case 'package': {
        const id = this.packageNames.get(value.key)?.get(name);
        return id === undefined ? { value: UNKNOWN } : this.unitLanding(id);
      }
      case 'instance':
      case 'type': {
        const member = this.members.memberOf(value.id, name);
        if (!member) return { value: DYNAMIC, missing: name };
        switch (member.kind) {
          case 'field':
            return value.kind === 'instance' ? { slot: member.slot, value: member.type } : { value: DYNAMIC };
          case 'method':
            return { unit: member.id, value: { kind: 'function', id: member.id } };
          case 'interface-method':
            return { value: { kind: 'interface-method', interfaceId: member.interfaceId, name } };
          default:
            return { value: { kind: 'external', package: member.package } };
        }
      }
      case 'builtin':
      case 'external':
      case 'unknown':
        return { value };
      default:
        return { value: DYNAMIC, missing: name };
    }
  }

  /** What calling a value returns, each result: a func's declared results, a conversion's type. */
  results(value: GoValue): GoValue[] {
    switch (value.kind) {
      case 'function': {
        const known = this.functions.get(value.id);
        return known ? known.fact.resultTypes.map((type) => this.typeValue(known.file, type)) : [];
      }
      case 'type':
        return [{ kind: 'instance', id: value.id }];
      case 'func':
        return value.results;
      case 'interface-method': {
        const entry = this.types.get(value.interfaceId);
        const method = entry?.fact.methods[value.name];
        return entry && method ? method.resultTypes.map((type) => this.typeValue(entry.file, type)) : [];
      }
      case 'instance': {
        const underlying = this.underlying(value.id);
        return underlying?.kind === 'func' ? underlying.results : [];
      }
      default:
        return [];
    }
  }

  /** What indexing, receiving from or ranging over a value gives: its elements, or its keys. */
  element(value: GoValue, part: 'key' | 'element'): GoValue {
    const container = value.kind === 'instance' ? this.underlying(value.id) ?? DYNAMIC : value;
    if (container.kind === 'container') {
      if (part === 'element' || container.channel) return container.element;
      return container.key ?? BUILTIN;
    }
    return container.kind === 'builtin' || container.kind === 'external' ? container : DYNAMIC;
  }

  /** What a type that is neither struct nor interface is built on (`map[string]Handler`), alias or not. */
  underlying(typeId: string): GoValue | undefined {
    const entry = this.types.get(typeId);
    return entry?.fact.underlying ? this.typeValue(entry.file, entry.fact.underlying) : undefined;
  }

  /** A value of a type as a file writes it. */
  typeValue(file: string, type: TypeRef): GoValue {
    switch (type.kind) {
      case 'named': {
        const named = this.namedType(file, type);
        if (named.kind !== 'type') return named;
        // An alias is its target: `type A = B` has B's methods.
        const entry = this.types.get(named.id);
        if (entry?.fact.alias && entry.fact.underlying?.kind === 'named') {
          const target = this.namedType(entry.file, entry.fact.underlying);
          if (target.kind === 'type') return { kind: 'instance', id: target.id };
        }
        return { kind: 'instance', id: named.id };
      }
      case 'container': {
        const container: GoValue = { kind: 'container', element: this.typeValue(file, type.element) };
        if (type.key) container.key = this.typeValue(file, type.key);
        if (type.channel) container.channel = true;
        return container;
      }
      case 'func':
        return { kind: 'func', results: type.results.map((result) => this.typeValue(file, result)) };
      default:
        return DYNAMIC;
    }
  }

  /** The type a name in a file names: `type` with its id, or builtin, external, dynamic (a name nothing declares may be a local type). */
  namedType(file: string, type: Extract<TypeRef, { kind: 'named' }>): GoValue {
    const landing = type.qualifier === undefined ? this.globalName(file, type.name) : this.select(this.globalName(file, type.qualifier).value, type.name);
    if (landing.value.kind === 'type' || landing.value.kind === 'builtin' || landing.value.kind === 'external') return landing.value;
    return DYNAMIC;
  }

  private localValue(file: string, index: number): GoValue {
    return this.localValues.get(file, index, () => {
      const local = this.facts.get(file)?.locals[index];
      if (!local) return DYNAMIC;
      if (local.type) {
        const declared = this.typeValue(file, local.type);
        if (declared.kind !== 'dynamic') return declared;
      }
      for (const value of local.values) {
        const found = this.valueOf(file, value);
        if (found.kind !== 'dynamic' && found.kind !== 'unknown') return found;
      }
      return DYNAMIC;
    });
  }

  variableValue(id: string): GoValue {
    return this.variableValues.get(id, 0, () => {
      const hash = id.lastIndexOf('#');
      const file = id.slice(0, hash);
      const variable = this.facts.get(file)?.variables[id.slice(hash + 1)];
      if (!variable) return DYNAMIC;
      const declared = variable.type ? this.typeValue(file, variable.type) : DYNAMIC;
      if (declared.kind !== 'dynamic' || !variable.value) return declared;
      return this.valueOf(file, variable.value);
    });
  }

  /** A binding's value: one result of a multi-value call, or what ranging over the path gives. */
  valueOf(file: string, value: ValuePath): GoValue {
    const steps = value.path.steps;
    if (value.result !== undefined && value.result > 0) {
      // `v, ok := m[k]`, `<-ch`, `x.(T)`: the second value is a bool.
      if (steps.at(-1)?.kind !== 'call') return BUILTIN;
      const callee = this.evalPath(file, { root: value.path.root, steps: steps.slice(0, -1) }).value;
      if (callee.kind === 'external') return callee;
      return this.results(callee)[value.result] ?? DYNAMIC;
    }
    const found = this.evalPath(file, value.path).value;
    return value.range === undefined ? found : this.element(found, value.range);
  }
}

const NO_METHODS: ReadonlyMap<string, string> = new Map();
