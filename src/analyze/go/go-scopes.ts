import type { LocalFact, TypeRef } from './go-facts.js';

/**
 * A Go block scope: the names declared in it, each bound to a local of the file's facts. Every
 * block, `if`, `for`, `switch` and case opens one, as the language does; a name not bound in any
 * is a package-level name, an import or a predeclared one, which the resolver looks up.
 */
export class GoScope {
  private readonly names = new Map<string, number>();

  constructor(
    private readonly locals: LocalFact[],
    readonly parent: GoScope | undefined,
    /** Type parameters in scope (`[T any]`): names that stand for any type. */
    readonly typeParameters: ReadonlySet<string>,
  ) {}

  child(typeParameters: ReadonlySet<string> = this.typeParameters): GoScope {
    return new GoScope(this.locals, this, typeParameters);
  }

  lookUp(name: string): number | undefined {
    for (let scope: GoScope | undefined = this; scope; scope = scope.parent) {
      const local = scope.names.get(name);
      if (local !== undefined) return local;
    }
    return undefined;
  }

  /** Whether this scope itself (not an outer one) binds the name: `a, err := …` then assigns err rather than declaring it. */
  hasOwn(name: string): boolean {
    return this.names.has(name);
  }

  /** Binds a name to a new local; `_` binds nothing. */
  declare(name: string, type?: TypeRef): number | undefined {
    if (name === '_') return undefined;
    const fact: LocalFact = { values: [] };
    if (type && type.kind !== 'opaque') fact.type = type;
    this.locals.push(fact);
    const index = this.locals.length - 1;
    this.names.set(name, index);
    return index;
  }
}
