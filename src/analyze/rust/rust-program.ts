import type { ExtractedFile } from '../front-end.js';
import { Memo } from '../syntax/memo.js';
import { ImplIndex } from './impl-index.js';
import type { Expression, Root, RustFacts, Step, TypeFact } from './rust-facts.js';
import { RustModules } from './rust-modules.js';
import { MAP_TYPES, STD_CRATES, TRANSPARENT_TYPES, WRAPPER_TYPES } from './rust-std.js';
import { DYNAMIC, originOf, STD, UNKNOWN, withOrigin, type Landing, type Value } from './rust-values.js';
import { elementOf, stdMethodResult, throughOption, tryOf } from './std-values.js';

/** A landing at each step of an expression: the root (0), then each step. */
export type StepListener = (landing: Landing, step: number) => void;

const TYPE_KINDS = new Set(['class', 'enum', 'interface']);

/**
 * Every Rust file of the repository at once, for resolving what code reaches across them: on
 * top of the module namespaces (RustModules), the impls, and what types, fields, locals and calls
 * hold. Each answer is computed once per resolution and kept; a question that comes round to
 * itself (an alias of itself, a local bound to itself) is answered `dynamic` rather than followed.
 */
export class RustProgram extends RustModules {
  readonly impls: ImplIndex;
  private readonly typeValues = new Memo<Value>(DYNAMIC);
  /** Each type fact's value, by the fact itself: facts are read again on every resolution, and never changed by one. */
  private readonly typeCache = new WeakMap<TypeFact, Value | null>();
  private readonly locals = new Memo<Value>(DYNAMIC);
  private readonly returns = new Memo<Value>(DYNAMIC);
  private readonly typeUnits = new Memo<string | undefined>(undefined);

  constructor(files: ReadonlyMap<string, ExtractedFile<RustFacts>>) {
    super(files);
    this.impls = new ImplIndex(this);
  }

  /**
   * Takes in new extractions of some files whose surface (every fact but uses and locals, without
   * positions) is what this program was built from. What was answered about names, types and
   * returns stands: it carries no positions and follows from surfaces alone, and it stays as a cold
   * build answers it (the impls are indexed in a mode of their own, so indexing them again would
   * not). Facts, units and the impls' lines are replaced, and the changed files' locals forgotten.
   */
  patch(changed: ReadonlyMap<string, ExtractedFile<RustFacts>>): void {
    this.patchFiles(changed);
    this.impls.patch(new Map([...changed].map(([path, extracted]) => [path, extracted.facts])));
    this.locals.forget((file) => changed.has(file));
  }

  /** An associated item of the type or trait a unit names: a variant, an impl's fn or const, a trait's method (dispatched). */
  protected associatedItem(unitId: string, name: string): Landing {
    const target = this.typeUnitOfUnit(unitId);
    if (target === undefined) return { value: DYNAMIC };
    const variants = this.typeFact(target)?.variants ?? [];
    if (variants.includes(name)) return { unit: target, value: { kind: 'variant', enumId: target } };
    // While the impls are being indexed (their types resolved), only variants are reachable: a `use` reaches nothing else of a type.
    if ((this.impls as ImplIndex | undefined) === undefined) return { value: DYNAMIC };
    if (this.impls.isTrait(target)) return this.traitLanding([target], name);
    const member = this.impls.methodOf(target, name);
    return member === undefined ? { value: DYNAMIC, missing: true } : this.memberLanding(member);
  }

  private memberLanding(id: string): Landing {
    const landing = this.unitLanding(id);
    return this.units.get(id)?.kind === 'method' || this.units.get(id)?.kind === 'function' ? { ...landing, callees: { direct: [id], dispatch: [] } } : landing;
  }

  private traitLanding(traitIds: readonly string[], name: string, origin?: string): Landing {
    const call = this.impls.traitCall(traitIds, name);
    if (!call) return { value: DYNAMIC, missing: true };
    const value = call.returns ? this.typeValue(call.returns.file, call.returns.type) : DYNAMIC;
    return { ...(call.callees.direct[0] !== undefined ? { unit: call.callees.direct[0] } : {}), value: withOrigin(value, origin), callees: call.callees };
  }

  /** The type a unit names as a path root: a struct, enum or trait itself, an alias's target. */
  private typeUnitOfUnit(id: string): string | undefined {
    const unit = this.units.get(id);
    if (!unit) return undefined;
    if (TYPE_KINDS.has(unit.kind)) return id;
    const alias = unit.kind === 'type' ? this.typeFact(id)?.alias : undefined;
    return alias ? this.typeUnit(unit.file, alias) : undefined;
  }

  /** The repository type a type fact names (struct, enum, union, trait), aliases followed. */
  typeUnit(file: string, type: TypeFact): string | undefined {
    if (type.kind === 'traits') return type.traits.map((trait) => this.typeUnit(file, trait)).find((id) => id !== undefined);
    const landing = type.kind === 'path' ? this.resolvePath(this.moduleKey(file, type.scope), type.segments) : type.kind === 'item' ? this.unitLanding(`${file}#${type.symbol}`) : undefined;
    if (landing?.value.kind !== 'unit') return undefined;
    const id = landing.value.id;
    return this.typeUnits.get(id, 0, () => this.typeUnitOfUnit(id));
  }

  /** The repository trait a trait path names, or the crate an outside one comes from. */
  traitOf(file: string, type: TypeFact): { id?: string; external?: string } {
    if (type.kind !== 'path' && type.kind !== 'item') return {};
    const landing = type.kind === 'path' ? this.resolvePath(this.moduleKey(file, type.scope), type.segments) : this.unitLanding(`${file}#${type.symbol}`);
    const value = landing.value;
    if (value.kind === 'unit' && this.units.get(value.id)?.kind === 'interface') return { id: value.id };
    if (value.kind === 'external') return { external: value.crate };
    if (value.kind === 'std') return { external: 'std' };
    return {};
  }

  /** What a value of a type is: an instance of a repository type, of traits, of std's containers, of an outside crate's type. */
  typeValue(file: string, type: TypeFact, parameters?: ReadonlyArray<{ file: string; type: TypeFact }>): Value {
    if (parameters !== undefined || type.kind === 'parameter') return this.computeTypeValue(file, type, parameters);
    const known = this.typeCache.get(type);
    // null marks a type being computed: an alias that comes round to itself is dynamic.
    if (known !== undefined) return known ?? DYNAMIC;
    this.typeCache.set(type, null);
    const value = this.computeTypeValue(file, type);
    this.typeCache.set(type, value);
    return value;
  }

  private computeTypeValue(file: string, type: TypeFact, parameters?: ReadonlyArray<{ file: string; type: TypeFact }>): Value {
    switch (type.kind) {
      case 'primitive':
        return STD;
      case 'slice':
        return { kind: 'std', wrapper: 'Vec', element: this.typeValue(file, type.element, parameters) };
      case 'parameter': {
        const given = parameters?.[type.index];
        return given ? this.typeValue(given.file, given.type) : DYNAMIC;
      }
      case 'traits': {
        const traitIds = type.traits.map((trait) => this.traitOf(file, trait).id).filter((id): id is string => id !== undefined);
        return traitIds.length > 0 ? { kind: 'traits', traitIds } : DYNAMIC;
      }
      case 'path':
      case 'item': {
        const landing = type.kind === 'path' ? this.resolvePath(this.moduleKey(file, type.scope), type.segments) : this.unitLanding(`${file}#${type.symbol}`);
        const args = type.args.map((arg) => ({ file, type: arg }));
        const name = type.kind === 'path' ? type.segments[type.segments.length - 1]! : '';
        return this.valueOfTypeLanding(landing, name, args, parameters);
      }
      default:
        return DYNAMIC;
    }
  }

  private valueOfTypeLanding(landing: Landing, name: string, args: ReadonlyArray<{ file: string; type: TypeFact }>, parameters?: ReadonlyArray<{ file: string; type: TypeFact }>): Value {
    const value = landing.value;
    const argument = (index: number): Value => {
      const given = args[index];
      return given ? this.typeValue(given.file, given.type, given.type.kind === 'parameter' ? parameters : undefined) : STD;
    };
    if (value.kind === 'unit') {
      const unit = this.units.get(value.id);
      if (unit?.kind === 'class' || unit?.kind === 'enum') return { kind: 'instance', typeId: value.id };
      if (unit?.kind === 'interface') return { kind: 'traits', traitIds: [value.id] };
      const alias = unit?.kind === 'type' ? this.typeFact(value.id)?.alias : undefined;
      // An alias's own parameters are filled from where it is used: `Result<Session>` of `type Result<T> = std::result::Result<T, Error>`.
      if (alias) return this.typeValues.get(value.id, JSON.stringify(args), () => this.typeValue(unit!.file, alias, args.map((arg) => (arg.type.kind === 'parameter' && parameters ? parameters[arg.type.index] ?? arg : arg))));
      return DYNAMIC;
    }
    // Wrappers keep their meaning wherever they come from: `tokio::sync::Mutex` locks as std's does.
    if (value.kind === 'std' || value.kind === 'external' || value.kind === 'unknown') {
      if (TRANSPARENT_TYPES.has(name)) return args.length > 0 ? argument(0) : STD;
      if (WRAPPER_TYPES.has(name)) return { kind: 'std', wrapper: name, element: argument(MAP_TYPES.has(name) ? 1 : 0) };
      if (value.kind === 'external' && !STD_CRATES.has(value.crate)) return value;
      return value.kind === 'unknown' ? DYNAMIC : STD;
    }
    return DYNAMIC;
  }

  /** What a const or static holds. */
  protected staticValue(id: string): Value {
    const hash = id.lastIndexOf('#');
    const file = id.slice(0, hash);
    const type = this.factsOf(file)?.statics[id.slice(hash + 1)]?.type;
    return type ? this.typeValue(file, type) : DYNAMIC;
  }

  fieldValue(typeId: string, name: string): Value | undefined {
    const field = this.typeFact(typeId)?.fields[name];
    if (!field) return undefined;
    return this.typeValue(typeId.slice(0, typeId.lastIndexOf('#')), field.fact);
  }

  returnsOf(id: string): Value {
    return this.returns.get(id, 0, () => {
      const hash = id.lastIndexOf('#');
      const file = id.slice(0, hash);
      const returns = this.factsOf(file)?.functions[id.slice(hash + 1)]?.returns;
      return returns ? this.typeValue(file, returns) : DYNAMIC;
    });
  }

  mutatesSelf(id: string): boolean {
    const hash = id.lastIndexOf('#');
    return this.factsOf(id.slice(0, hash))?.functions[id.slice(hash + 1)]?.mutatesSelf ?? false;
  }

  private localValue(file: string, index: number): Value {
    return this.locals.get(file, index, () => {
      const local = this.factsOf(file)?.locals[index];
      if (!local) return DYNAMIC;
      if (local.type) {
        const typed = this.typeValue(file, local.type);
        if (typed.kind !== 'dynamic' || !local.value) return typed;
      }
      return local.value ? this.evalExpression(file, local.value).value : DYNAMIC;
    });
  }

  /** Walks an expression step by step; `onStep` hears each landing, the root's first. */
  evalExpression(file: string, expression: Expression, onStep?: StepListener): Landing {
    let landing = this.rootLanding(file, expression.root);
    onStep?.(landing, 0);
    expression.steps.forEach((step, index) => {
      landing = this.stepLanding(landing, step);
      onStep?.(landing, index + 1);
    });
    return landing;
  }

  private rootLanding(file: string, root: Root): Landing {
    switch (root.kind) {
      case 'path':
        return this.resolvePath(this.moduleKey(file, root.scope), root.segments);
      case 'local':
        return { value: this.localValue(file, root.local) };
      case 'item':
        return root.segments.reduce((landing, segment) => this.step(landing.value, segment), this.unitLanding(`${file}#${root.symbol}`));
      case 'type': {
        const value = this.typeValue(file, root.type);
        const start: Landing =
          value.kind === 'instance' ? { value: { kind: 'unit', id: value.typeId } }
          : value.kind === 'traits' ? { value: { kind: 'unit', id: value.traitIds[0]! } }
          : { value };
        return root.segments.reduce((landing, segment) => this.step(landing.value, segment), start);
      }
      case 'struct': {
        if (root.type.kind !== 'path') return { value: this.typeValue(file, root.type) };
        const landing = this.resolvePath(this.moduleKey(file, root.type.scope), root.type.segments);
        if (landing.value.kind === 'variant') return { value: { kind: 'instance', typeId: landing.value.enumId } };
        return { value: this.typeValue(file, root.type) };
      }
      case 'primitive':
        return { value: STD };
      default:
        return { value: DYNAMIC };
    }
  }

  /** What a field slot, a static or a handle the landing stands for is: whatever writing through it changes. */
  holderOf(landing: Landing | undefined): string | undefined {
    if (!landing) return undefined;
    if (landing.slot !== undefined) return landing.slot;
    if (landing.unit !== undefined && this.units.get(landing.unit)?.kind === 'variable') return landing.unit;
    return originOf(landing.value);
  }

  private stepLanding(landing: Landing, step: Step): Landing {
    const value = landing.value;
    switch (step.kind) {
      case 'field':
        return this.fieldLanding(value, step.name);
      case 'method':
        return this.methodLanding(landing, step.name);
      case 'call':
        return { value: this.callResult(value) };
      case 'try':
        return { value: tryOf(value) };
      case 'index':
        return { value: elementOf(value) };
      case 'borrow':
        return { value: withOrigin(value, this.holderOf(landing)) };
    }
  }

  private fieldLanding(value: Value, name: string): Landing {
    if (value.kind === 'variant') return { value: DYNAMIC };
    if (value.kind === 'instance') {
      const fieldValue = this.fieldValue(value.typeId, name);
      return fieldValue === undefined ? { value: DYNAMIC } : { slot: `${value.typeId}.${name}`, value: fieldValue };
    }
    const through = throughOption(value);
    return through ? this.fieldLanding(through, name) : { value: DYNAMIC };
  }

  /** A method called on the landing's value: a repository type's method, a trait's (dispatched), std's own, or one to tie by name later. */
  private methodLanding(receiver: Landing, name: string): Landing {
    const value = receiver.value;
    // A unit variant read as a value (`Role::Assistant`) is an instance of its enum.
    if (value.kind === 'variant') return this.methodLanding({ value: { kind: 'instance', typeId: value.enumId } }, name);
    switch (value.kind) {
      case 'instance': {
        const method = this.impls.methodOf(value.typeId, name);
        if (method !== undefined) return { unit: method, value: this.returnsOf(method), callees: { direct: [method], dispatch: [] } };
        // A method the type does not declare, named as std's `unwrap` or `clone`: the value itself, as through a lock's guard.
        if (name === 'clone' || name === 'to_owned') return { value: { kind: 'instance', typeId: value.typeId } };
        if (/^(unwrap|expect|unwrap_or_default|as_ref|as_mut|borrow|borrow_mut|deref|deref_mut)$/.test(name)) return { value };
        return { value: DYNAMIC, missing: true };
      }
      case 'traits':
        return this.traitLanding(value.traitIds, name, undefined);
      case 'std': {
        const through = throughOption(value);
        if (through && through.kind !== 'std' && !/^(unwrap|expect|unwrap_or|unwrap_or_else|unwrap_or_default|map|and_then|ok|err|is_ok|is_err|is_some|is_none|as_ref|as_mut|take|clone|ok_or|ok_or_else|map_err|unwrap_err|or_else|iter|cloned|copied|filter|flatten|get_or_insert_with|insert|replace|as_deref|as_deref_mut|expect_err|inspect)$/.test(name)) {
          return this.methodLanding({ value: through }, name);
        }
        return { value: stdMethodResult(value, name, this.holderOf(receiver)) };
      }
      case 'external':
        return { value };
      case 'unknown':
        return { value: UNKNOWN };
      default:
        return { value: DYNAMIC };
    }
  }

  /** What calling a value gives: a fn's return type, an instance for a tuple struct or a variant. */
  callResult(value: Value): Value {
    switch (value.kind) {
      case 'unit': {
        const unit = this.units.get(value.id);
        if (unit?.kind === 'class') return { kind: 'instance', typeId: value.id };
        return unit?.kind === 'function' || unit?.kind === 'method' ? this.returnsOf(value.id) : DYNAMIC;
      }
      case 'variant':
        return { kind: 'instance', typeId: value.enumId };
      case 'std':
        // `Vec::new()` makes a Vec; `Some(x)`, `String::from(s)` a value of std's.
        return value.wrapper !== undefined && WRAPPER_TYPES.has(value.wrapper) ? { kind: 'std', wrapper: value.wrapper } : STD;
      case 'external':
        // What a std fn gives is std's: its methods are std's own, as a prelude type's are.
        return STD_CRATES.has(value.crate) ? STD : value;
      case 'unknown':
        return value;
      default:
        return DYNAMIC;
    }
  }
}
