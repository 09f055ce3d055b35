import type { Expression, LocalFact, RustFacts, TypeFact } from './rust-facts.js';
import { childByField, type RustNode } from './rust-syntax.js';

/** What a name bound inside a function body stands for. */
export type Binding =
  | { kind: 'local'; local: number }
  /** An item declared in a block (a nested fn, struct, const). */
  | { kind: 'item'; symbol: string }
  /** A `use` inside a block: the path the name stands for. */
  | { kind: 'import'; segments: readonly string[] };

/**
 * A lexical scope of a function body: a block, a closure, a match arm, the function's own
 * parameters. Rust binds in order (`let x = x.trim()` reads the old x), so a binding is added when
 * the reader reaches it. A function's own scope is a boundary: a nested fn sees the items of the
 * blocks around it, never their locals.
 */
export class Scope {
  private readonly values = new Map<string, Binding>();
  private readonly types = new Map<string, Binding>();

  constructor(
    readonly parent: Scope | undefined,
    private readonly boundary: boolean,
  ) {}

  bindValue(name: string, binding: Binding): void {
    this.values.set(name, binding);
  }

  bindType(name: string, binding: Binding): void {
    this.types.set(name, binding);
  }

  value(name: string): Binding | undefined {
    let crossed = false;
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const binding = scope.values.get(name);
      if (binding && !(crossed && binding.kind === 'local')) return binding;
      if (scope.boundary) crossed = true;
    }
    return undefined;
  }

  type(name: string): Binding | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const binding = scope.types.get(name);
      if (binding) return binding;
    }
    return undefined;
  }

  /** A type name as a type reader takes it: an item's symbol, or the path a `use` binds it to. */
  get(name: string): string | readonly string[] | undefined {
    const binding = this.type(name);
    return binding?.kind === 'item' ? binding.symbol : binding?.kind === 'import' ? binding.segments : undefined;
  }
}

/** Binds the names of patterns to facts of the file: one opaque fact serves every binding nothing is known of. */
export class PatternBinder {
  private opaque: number | undefined;

  constructor(
    private readonly facts: RustFacts,
    private readonly source: string,
  ) {}

  /** The file's opaque local, if a binding made it yet: a reader that reuses what it read of a fn (see RustFunctionPart) sets it as that read would have. */
  get opaqueLocal(): number | undefined {
    return this.opaque;
  }

  set opaqueLocal(local: number | undefined) {
    this.opaque = local;
  }

  private text(node: RustNode): string {
    return this.source.slice(node.start, node.end);
  }

  bindName(scope: Scope, name: string, fact: LocalFact): void {
    let local: number;
    if (fact.type === undefined && fact.value === undefined) local = this.opaque ??= this.facts.locals.push({}) - 1;
    else local = this.facts.locals.push(fact) - 1;
    scope.bindValue(name, { kind: 'local', local });
  }

  /**
   * Binds what a pattern names. A name takes the whole value; `Some(x)` and `Ok(x)` take what the
   * value holds; `(i, x)` over `.enumerate()` takes an element for x; anything else binds its
   * names to nothing known, so that they shadow what the same names mean outside.
   */
  bind(pattern: RustNode | undefined, scope: Scope, from: { type?: TypeFact; value?: Expression }): void {
    if (!pattern) return;
    switch (pattern.type) {
      case 'identifier': {
        const name = this.text(pattern);
        // A capitalized name in a pattern is a constant or a unit variant (`None`), not a binding.
        if (!/^[A-Z]/.test(name)) this.bindName(scope, name, withoutEmpty(from));
        return;
      }
      case 'mut_pattern':
      case 'ref_pattern':
      case 'reference_pattern':
        this.bind(pattern.children.find((child) => child.named && child.type !== 'mutable_specifier'), scope, from);
        return;
      case 'captured_pattern': {
        const [name, ...rest] = pattern.children.filter((child) => child.named);
        this.bind(name, scope, from);
        for (const part of rest) this.bindNothing(part, scope);
        return;
      }
      case 'tuple_struct_pattern': {
        const type = childByField(pattern, 'type');
        const variant = type ? this.text(type).split('::').pop()!.trim() : '';
        const parts = pattern.children.filter((child) => child.named && child !== type);
        parts.forEach((part, index) => {
          const holds = (variant === 'Some' || variant === 'Ok') && index === 0 && from.value;
          this.bind(part, scope, holds ? { value: { root: from.value!.root, steps: [...from.value!.steps, { kind: 'try' }] } } : {});
        });
        return;
      }
      case 'tuple_pattern': {
        const parts = pattern.children.filter((child) => child.named);
        const steps = from.value?.steps ?? [];
        const last = steps[steps.length - 1];
        const enumerated = parts.length === 2 && last?.kind === 'method' && last.name === 'enumerate';
        parts.forEach((part, index) => {
          if (enumerated && index === 1) this.bind(part, scope, { value: { root: from.value!.root, steps: [...steps.slice(0, -1), { kind: 'index' }] } });
          else this.bind(part, scope, {});
        });
        return;
      }
      default:
        this.bindNothing(pattern, scope);
    }
  }

  /** Binds every name a pattern declares to nothing known: struct patterns' fields, slices, alternatives. */
  bindNothing(pattern: RustNode, scope: Scope): void {
    const stack: RustNode[] = [pattern];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'identifier' || node.type === 'shorthand_field_identifier') {
        if (!/^[A-Z]/.test(this.text(node))) this.bindName(scope, this.text(node), {});
        continue;
      }
      // The type a struct or tuple-struct pattern names, and a path (`Kind::A`), bind nothing.
      if (node.type === 'scoped_identifier' || node.type === 'scoped_type_identifier' || node.type === 'type_identifier') continue;
      for (const child of node.children) {
        if (child.field === 'type' && (node.type === 'tuple_struct_pattern' || node.type === 'struct_pattern')) continue;
        if (child.field === 'name' && node.type === 'field_pattern' && childByField(node, 'pattern')) continue;
        stack.push(child);
      }
    }
  }
}

function withoutEmpty(from: { type?: TypeFact; value?: Expression }): LocalFact {
  const fact: LocalFact = {};
  if (from.type && from.type.kind !== 'opaque') fact.type = from.type;
  if (from.value && from.value.root.kind !== 'opaque') fact.value = from.value;
  return fact;
}
