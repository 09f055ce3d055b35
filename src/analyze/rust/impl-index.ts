import type { RustFacts, TraitFact, TypeFact } from './rust-facts.js';
import type { Callees } from './rust-values.js';

/** An `impl Trait for Type` block as it resolved: the trait (a repository trait, or the crate of an outside one) and the members it defines. */
interface TraitImpl {
  typeId: string;
  traitId?: string;
  external?: string;
  /** Member name → unit id. */
  members: Record<string, string>;
}

/** What the index needs of the program: the files' facts and how a type or trait path resolves. */
export interface ImplSource {
  readonly paths: readonly string[];
  factsOf(file: string): RustFacts | undefined;
  /** The repository type (struct, enum, union, trait) a type names, aliases followed. */
  typeUnit(file: string, type: TypeFact): string | undefined;
  /** The repository trait a trait path names, or the crate an outside trait comes from. */
  traitOf(file: string, type: TypeFact): { id?: string; external?: string };
}

/** A method a call through a trait runs: the trait's default and each implementor's own, and the return type the trait declares. */
export interface TraitCall {
  callees: Callees;
  returns?: { file: string; type: TypeFact };
}

/**
 * Every `impl` block of the repository, by the type and trait it resolved to: which methods a
 * type has (its inherent impls, its trait impls, its traits' defaults), and which types implement
 * a trait. An impl for a type the repository does not declare (`impl Display for Vec<T>`) or a
 * blanket impl (`impl<T: A> B for T`) belongs to no type here.
 */
export class ImplIndex {
  /** `implements` edges (type → trait) and `extends` edges (trait → supertrait), with their lines. */
  readonly heritage: Array<{ kind: 'implements' | 'extends'; from: string; to: string; line: number }> = [];
  private readonly inherent = new Map<string, Map<string, string>>();
  private readonly byType = new Map<string, TraitImpl[]>();
  private readonly byTrait = new Map<string, TraitImpl[]>();
  private readonly traits = new Map<string, { file: string; fact: TraitFact; supertraits: string[] }>();
  /** Trait method names → the traits that declare them, for calls tied by name. */
  readonly traitsByMethod = new Map<string, string[]>();
  /** Where each heritage edge's line is read from: its file, and the line in that file's facts. */
  private readonly heritageLines: Array<{ file: string; line: (facts: RustFacts) => number | undefined }> = [];

  constructor(source: ImplSource) {
    for (const file of source.paths) {
      const facts = source.factsOf(file)!;
      for (const [symbol, fact] of Object.entries(facts.traits)) {
        const id = `${file}#${symbol}`;
        this.traits.set(id, { file, fact, supertraits: [] });
        for (const name of Object.keys(fact.methods)) {
          const declaring = this.traitsByMethod.get(name);
          if (declaring) declaring.push(id);
          else this.traitsByMethod.set(name, [id]);
        }
      }
    }
    for (const [id, trait] of this.traits) {
      const symbol = id.slice(trait.file.length + 1);
      trait.fact.supertraits.forEach((supertrait, position) => {
        const resolved = source.traitOf(trait.file, supertrait.type).id;
        if (resolved === undefined || resolved === id) return;
        trait.supertraits.push(resolved);
        this.heritage.push({ kind: 'extends', from: id, to: resolved, line: supertrait.line });
        this.heritageLines.push({ file: trait.file, line: (facts) => facts.traits[symbol]?.supertraits[position]?.line });
      });
    }
    for (const file of source.paths) {
      for (const [position, impl] of source.factsOf(file)!.impls.entries()) {
        const typeId = source.typeUnit(file, impl.selfType);
        if (typeId === undefined) continue;
        const members: Record<string, string> = Object.create(null);
        for (const [name, symbol] of Object.entries(impl.members)) members[name] = `${file}#${symbol}`;
        if (!impl.trait) {
          let methods = this.inherent.get(typeId);
          if (!methods) this.inherent.set(typeId, (methods = new Map()));
          for (const [name, id] of Object.entries(members)) if (!methods.has(name)) methods.set(name, id);
          continue;
        }
        const trait = source.traitOf(file, impl.trait);
        const entry: TraitImpl = { typeId, members, ...(trait.id !== undefined ? { traitId: trait.id } : {}), ...(trait.external !== undefined ? { external: trait.external } : {}) };
        push(this.byType, typeId, entry);
        if (trait.id !== undefined) {
          push(this.byTrait, trait.id, entry);
          this.heritage.push({ kind: 'implements', from: typeId, to: trait.id, line: impl.line });
          this.heritageLines.push({ file, line: (facts) => facts.impls[position]?.line });
        }
      }
    }
  }

  /**
   * Takes in new facts of files whose surface is what the index was built from (the same traits,
   * supertraits and impls, in the same order): what resolved stands, and only what carries
   * positions is replaced, the traits' facts and the heritage edges' lines.
   */
  patch(changed: ReadonlyMap<string, RustFacts>): void {
    for (const [id, trait] of this.traits) {
      const facts = changed.get(trait.file);
      if (facts) trait.fact = facts.traits[id.slice(trait.file.length + 1)] ?? trait.fact;
    }
    this.heritageLines.forEach((source, position) => {
      const facts = changed.get(source.file);
      const line = facts && source.line(facts);
      if (line !== undefined) this.heritage[position]!.line = line;
    });
  }

  /** The method or associated fn a type has by a name: its own impls' first, then its trait impls', then its traits' defaults. */
  methodOf(typeId: string, name: string): string | undefined {
    const own = this.inherent.get(typeId)?.get(name);
    if (own !== undefined) return own;
    const impls = this.byType.get(typeId) ?? [];
    for (const impl of impls) if (impl.members[name] !== undefined) return impl.members[name];
    for (const impl of impls) {
      for (const traitId of impl.traitId === undefined ? [] : this.withSupertraits([impl.traitId])) {
        const symbol = this.traits.get(traitId)?.fact.methods[name]?.symbol;
        if (symbol !== undefined) return `${this.traits.get(traitId)!.file}#${symbol}`;
      }
    }
    return undefined;
  }

  /** An outside trait the type implements (its methods are that crate's), if any. */
  externalTraitOf(typeId: string): string | undefined {
    return this.byType.get(typeId)?.find((impl) => impl.external !== undefined)?.external;
  }

  /**
   * A call of a trait's method on a value known only by its traits: the first of them (or of their
   * supertraits) that declares the method runs its default, or an implementor's own.
   */
  traitCall(traitIds: readonly string[], name: string): TraitCall | undefined {
    for (const traitId of this.withSupertraits(traitIds)) {
      const trait = this.traits.get(traitId);
      const method = trait?.fact.methods[name];
      if (!trait || !method) continue;
      const direct = method.symbol === undefined ? [] : [`${trait.file}#${method.symbol}`];
      const dispatch = (this.byTrait.get(traitId) ?? []).flatMap((impl) => (impl.members[name] === undefined ? [] : [impl.members[name]!]));
      return { callees: { direct, dispatch: [...new Set(dispatch)].sort() }, ...(method.returns ? { returns: { file: trait.file, type: method.returns } } : {}) };
    }
    return undefined;
  }

  isTrait(id: string): boolean {
    return this.traits.has(id);
  }

  /** The traits and, breadth first, their supertraits, each once. */
  private withSupertraits(traitIds: readonly string[]): string[] {
    const seen = new Set<string>();
    const queue = [...traitIds];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(this.traits.get(next)?.supertraits ?? []));
    }
    return [...seen];
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
