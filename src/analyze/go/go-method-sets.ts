import type { Edge } from '../../graph/model.js';
import { compareText } from '../../graph/order.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import type { Shape } from './go-facts.js';
import type { GoProgram } from './go-program.js';
import type { GoValue } from './go-values.js';

/** What a selector on a value of a repository type reaches. */
export type Member =
  | { kind: 'field'; slot: string; type: GoValue }
  | { kind: 'method'; id: string }
  /** A method of an interface: the type's own, or one a struct embeds. */
  | { kind: 'interface-method'; interfaceId: string }
  /** Found nowhere in the repository, and the type embeds one from outside it, whose members these may be. */
  | { kind: 'external'; package: string };

export interface MethodSet {
  methods: Map<string, Shape>;
  /** False when the type embeds a type from outside the repository, whose methods the graph does not know. */
  complete: boolean;
}

/**
 * Members, method sets and the interfaces types satisfy, by Go's rules as far as names tell:
 *
 * - A selector finds the shallowest member of the name: the type's own fields and methods (value
 *   and pointer receivers alike), then those of the types it embeds, then theirs (promotion).
 * - A type's method set is its own methods and every promoted one, value and pointer receivers
 *   alike: a struct used through a pointer, as most are, has them all.
 * - A type implements an interface of the repository when its method set has every method of the
 *   interface's (its own and its embedded interfaces'), each with as many parameters and results,
 *   variadic or not; parameter types are not compared (resolution `name`). An interface embedding
 *   one from outside the repository has methods the graph does not know: no type is said to
 *   implement it, though a call through it still reaches every type with the methods it does know.
 * - A struct embedding a struct, and an interface embedding an interface, extends it (`scope`).
 */
export class MemberIndex {
  private readonly found = new Map<string, Map<string, Member | null>>();
  private readonly sets = new Map<string, MethodSet>();
  private readonly implementing = new Map<string, string[]>();

  constructor(private readonly program: GoProgram) {}

  memberOf(typeId: string, name: string): Member | undefined {
    let byName = this.found.get(typeId);
    if (!byName) this.found.set(typeId, (byName = new Map()));
    let member = byName.get(name);
    if (member === undefined) byName.set(name, (member = this.lookUp(typeId, name) ?? null));
    return member ?? undefined;
  }

  private lookUp(typeId: string, name: string): Member | undefined {
    let external: string | undefined;
    for (const level of this.levels(typeId, (outside) => (external ??= outside))) {
      for (const id of level) {
        const method = this.program.ownMethods(id).get(name);
        if (method !== undefined) return { kind: 'method', id: method };
        const entry = this.program.types.get(id)!;
        if (entry.fact.kind === 'interface' && entry.fact.methods[name]) return { kind: 'interface-method', interfaceId: id };
        const field = entry.fact.fields[name];
        if (field) return { kind: 'field', slot: `${id}.${name}`, type: this.program.typeValue(entry.file, field.type) };
      }
    }
    return external === undefined ? undefined : { kind: 'external', package: external };
  }

  /** The type, then the types it embeds, level by level, each type once. */
  private *levels(typeId: string, onExternal: (name: string) => void): Generator<string[]> {
    const seen = new Set([typeId]);
    let level = [typeId];
    while (level.length > 0) {
      yield level;
      const next: string[] = [];
      for (const id of level) {
        for (const embedded of this.embeddedOf(id, onExternal)) {
          if (seen.has(embedded.id)) continue;
          seen.add(embedded.id);
          next.push(embedded.id);
        }
      }
      level = next;
    }
  }

  /** The repository types a struct or interface embeds, with the line of each; each outside one reported. */
  embeddedOf(typeId: string, onExternal: (name: string) => void = () => undefined): Array<{ id: string; line: number }> {
    const entry = this.program.types.get(typeId);
    if (!entry) return [];
    const found: Array<{ id: string; line: number }> = [];
    for (const embedded of entry.fact.embedded) {
      const value = this.program.typeValue(entry.file, embedded.type);
      if (value.kind === 'instance' && this.program.types.has(value.id)) found.push({ id: value.id, line: embedded.line });
      else if (value.kind === 'external') onExternal(value.package);
      else if (value.kind !== 'builtin') onExternal('');
    }
    return found;
  }

  methodSet(typeId: string): MethodSet {
    let set = this.sets.get(typeId);
    if (set) return set;
    set = { methods: new Map(), complete: true };
    const onExternal = (): void => {
      set!.complete = false;
    };
    for (const level of this.levels(typeId, onExternal)) {
      for (const id of level) {
        for (const [name, method] of this.program.ownMethods(id)) {
          const shape = this.program.functionFact(method);
          if (shape && !set.methods.has(name)) set.methods.set(name, shape);
        }
        const entry = this.program.types.get(id)!;
        if (entry.fact.kind !== 'interface') continue;
        for (const [name, shape] of Object.entries(entry.fact.methods)) if (!set.methods.has(name)) set.methods.set(name, shape);
      }
    }
    this.sets.set(typeId, set);
    return set;
  }

  /** The types whose method sets cover an interface's known methods, sorted: what a call through the interface may run. */
  implementersOf(interfaceId: string): readonly string[] {
    let found = this.implementing.get(interfaceId);
    if (found) return found;
    const wanted = this.methodSet(interfaceId).methods;
    found = wanted.size === 0 ? [] : this.concreteTypes().filter((typeId) => covers(this.methodSet(typeId).methods, wanted));
    this.implementing.set(interfaceId, found);
    return found;
  }

  private concrete: string[] | undefined;

  private concreteTypes(): string[] {
    this.concrete ??= [...this.program.types.values()].filter((entry) => entry.fact.kind !== 'interface').map((entry) => entry.id).sort(compareText);
    return this.concrete;
  }

  /** `extends` and `implements` edges of every type of the repository. */
  heritage(): Edge[] {
    const sink = new EdgeSink();
    const ids = [...this.program.types.keys()].sort(compareText);
    for (const id of ids) {
      const kind = this.program.types.get(id)!.fact.kind;
      for (const embedded of this.embeddedOf(id)) {
        if (this.program.types.get(embedded.id)!.fact.kind === kind && kind !== 'other') sink.add('extends', id, embedded.id, embedded.line);
      }
    }
    for (const id of ids) {
      if (this.program.types.get(id)!.fact.kind !== 'interface' || !this.methodSet(id).complete) continue;
      for (const typeId of this.implementersOf(id)) sink.add('implements', typeId, id, this.program.units.get(typeId)?.startLine ?? 1, { resolution: 'name' });
    }
    return sink.list();
  }
}

function covers(methods: ReadonlyMap<string, Shape>, wanted: ReadonlyMap<string, Shape>): boolean {
  for (const [name, shape] of wanted) {
    const method = methods.get(name);
    if (!method || method.parameters !== shape.parameters || method.results !== shape.results || method.variadic !== shape.variadic) return false;
  }
  return true;
}
