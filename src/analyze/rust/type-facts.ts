import type { TypeFact } from './rust-facts.js';
import { childByField, pathSegments, type RustNode } from './rust-syntax.js';

/** What a type is read against: the module its paths resolve from, the type parameters in scope, `Self`, and types declared in enclosing blocks. */
export interface TypeContext {
  scope: string;
  /** Type parameters by name: their bounds as traits, or (inside a type alias) their position. */
  generics: ReadonlyMap<string, TypeFact>;
  /** What `Self` stands for: an impl's type, a trait's own implementors. */
  selfType?: TypeFact;
  /** Names bound in the enclosing function bodies: a type item's symbol, or the path a `use` there binds the name to. */
  blockTypes: { get(name: string): string | readonly string[] | undefined };
}

const OPAQUE: TypeFact = { kind: 'opaque' };

/** Types nested deeper than this say nothing more (generated code nests them thousands deep): the reader must not exhaust the stack. */
const MAX_DEPTH = 64;
const PRIMITIVE: TypeFact = { kind: 'primitive' };

/** Reads a type node. `&T`, `&mut T`, `*const T` are T: method calls see through references. */
export function readType(node: RustNode | undefined, context: TypeContext, source: string, depth = 0): TypeFact {
  if (!node || depth >= MAX_DEPTH) return OPAQUE;
  switch (node.type) {
    case 'type_identifier':
    case 'identifier':
    case 'scoped_type_identifier':
    case 'scoped_identifier':
      return pathType(node, [], context, source);
    case 'generic_type': {
      const base = childByField(node, 'type');
      const argumentList = childByField(node, 'type_arguments');
      const args = (argumentList?.children ?? []).filter(isTypeArgument).map((argument) => readType(argument, context, source, depth + 1));
      return base ? pathType(base, args, context, source) : OPAQUE;
    }
    case 'reference_type':
    case 'pointer_type':
    case 'parenthesized_type':
      return readType(childByField(node, 'type') ?? node.children.find(isTypeArgument), context, source, depth + 1);
    case 'dynamic_type':
    case 'abstract_type':
      return traitsOf([childByField(node, 'trait')], context, source, depth + 1);
    case 'bounded_type':
      return traitsOf(node.children, context, source, depth + 1);
    case 'array_type':
      return { kind: 'slice', element: readType(childByField(node, 'element'), context, source, depth + 1) };
    case 'primitive_type':
    case 'tuple_type':
    case 'unit_type':
    case 'never_type':
      return PRIMITIVE;
    default:
      return OPAQUE;
  }
}

function isTypeArgument(node: RustNode): boolean {
  return node.named && node.type !== 'lifetime' && node.type !== 'type_binding' && node.type !== 'line_comment' && node.type !== 'block_comment';
}

function pathType(node: RustNode, args: TypeFact[], context: TypeContext, source: string): TypeFact {
  const segments = pathSegments(node, source);
  if (!segments || segments.length === 0) return OPAQUE;
  const first = segments[0]!;
  if (segments.length === 1) {
    if (first === 'Self') return context.selfType ?? OPAQUE;
    const generic = context.generics.get(first);
    if (generic) return generic;
  }
  // `Self::Output`, `T::Item`: an associated type, which names no type of its own here.
  if (first === 'Self' || context.generics.has(first)) return OPAQUE;
  const bound = context.blockTypes.get(first);
  if (typeof bound === 'string') return segments.length === 1 ? { kind: 'item', symbol: bound, args } : OPAQUE;
  if (bound !== undefined) return { kind: 'path', scope: context.scope, segments: [...bound, ...segments.slice(1)], args };
  return { kind: 'path', scope: context.scope, segments, args };
}

/** The traits of `dyn A + B + 'a`, `impl A`, a bound list: only those a path names (`Fn(x) -> y`, lifetimes and `?Sized` say nothing of methods). */
export function traitsOf(nodes: ReadonlyArray<RustNode | undefined>, context: TypeContext, source: string, depth = 0): TypeFact {
  const traits: TypeFact[] = [];
  for (const node of nodes) {
    if (!node) continue;
    if (node.type === 'dynamic_type' || node.type === 'abstract_type') {
      const inner = traitsOf([childByField(node, 'trait')], context, source, depth + 1);
      if (inner.kind === 'traits') traits.push(...inner.traits);
      continue;
    }
    if (node.type === 'type_identifier' || node.type === 'scoped_type_identifier' || node.type === 'generic_type') {
      const trait = readType(node, { ...context, generics: new Map() }, source, depth + 1);
      if (trait.kind === 'path' || trait.kind === 'item') traits.push(trait);
    }
  }
  return traits.length > 0 ? { kind: 'traits', traits } : OPAQUE;
}

/**
 * The type parameters a `<...>` list and a `where` clause declare, each bound to its trait
 * bounds (a parameter without bounds says nothing: opaque), added to those already in scope.
 */
export function genericsOf(holder: RustNode, outer: ReadonlyMap<string, TypeFact>, context: TypeContext, source: string): Map<string, TypeFact> {
  const generics = new Map(outer);
  const bounds = new Map<string, RustNode[]>();
  const parameters = childByField(holder, 'type_parameters');
  for (const parameter of parameters?.children ?? []) {
    if (!parameter.named || parameter.type === 'lifetime' || parameter.type === 'lifetime_parameter' || parameter.type === 'const_parameter') continue;
    const name = childByField(parameter, 'name') ?? childByField(parameter, 'left') ?? (parameter.type === 'type_identifier' ? parameter : undefined);
    if (!name) continue;
    const text = source.slice(name.start, name.end);
    const list = bounds.get(text) ?? [];
    const parameterBounds = childByField(parameter, 'bounds') ?? parameter.children.find((child) => child.type === 'trait_bounds');
    if (parameterBounds) list.push(...parameterBounds.children);
    bounds.set(text, list);
  }
  const where = holder.children.find((child) => child.type === 'where_clause');
  for (const predicate of where?.children ?? []) {
    if (predicate.type !== 'where_predicate') continue;
    const left = childByField(predicate, 'left');
    const predicateBounds = childByField(predicate, 'bounds');
    if (left?.type !== 'type_identifier' || !predicateBounds) continue;
    const text = source.slice(left.start, left.end);
    if (!bounds.has(text) && !generics.has(text)) continue;
    bounds.set(text, [...(bounds.get(text) ?? []), ...predicateBounds.children]);
  }
  for (const [name, nodes] of bounds) generics.set(name, traitsOf(nodes, context, source));
  return generics;
}

/** A type alias's own parameters, by position: `type Result<T> = std::result::Result<T, Error>` fills T from each use. */
export function aliasParameters(holder: RustNode, outer: ReadonlyMap<string, TypeFact>, source: string): Map<string, TypeFact> {
  const generics = new Map(outer);
  let index = 0;
  for (const parameter of childByField(holder, 'type_parameters')?.children ?? []) {
    if (!parameter.named || parameter.type === 'lifetime' || parameter.type === 'lifetime_parameter' || parameter.type === 'const_parameter') continue;
    const name = childByField(parameter, 'name') ?? childByField(parameter, 'left') ?? (parameter.type === 'type_identifier' ? parameter : undefined);
    if (name) generics.set(source.slice(name.start, name.end), { kind: 'parameter', index });
    index += 1;
  }
  return generics;
}
