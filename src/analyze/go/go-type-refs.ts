import { childByField, childrenByField, type GoNode, namedChildren, textOf } from './go-syntax.js';
import type { Shape, TypeRef } from './go-facts.js';

const OPAQUE: TypeRef = { kind: 'opaque' };

/**
 * A type node as a TypeRef. Reads the type forms and the expression forms a type takes where
 * the grammar cannot tell a type from a value (`new(pkg.T)`, `(*T).Method`). `typeParameters`
 * are the names a generic declaration binds: they stand for any type.
 */
export function typeRefOf(node: GoNode | undefined, source: string, typeParameters: ReadonlySet<string> = NO_NAMES): TypeRef {
  for (let depth = 0; node && depth < 64; depth += 1) {
    switch (node.type) {
      case 'type_identifier':
      case 'identifier': {
        const name = textOf(node, source);
        return typeParameters.has(name) ? OPAQUE : { kind: 'named', name };
      }
      case 'qualified_type':
      case 'selector_expression': {
        const qualifier = childByField(node, node.type === 'qualified_type' ? 'package' : 'operand');
        const name = childByField(node, node.type === 'qualified_type' ? 'name' : 'field');
        if (!qualifier || !name || qualifier.type !== 'package_identifier' && qualifier.type !== 'identifier') return OPAQUE;
        return { kind: 'named', name: textOf(name, source), qualifier: textOf(qualifier, source) };
      }
      case 'generic_type':
        node = childByField(node, 'type');
        continue;
      case 'pointer_type':
      case 'parenthesized_type':
      case 'parenthesized_expression':
      case 'type_elem':
      case 'type_constraint':
        node = namedChildren(node).at(-1);
        continue;
      case 'unary_expression':
        // `*T` in an expression position is a pointer type where a type is expected.
        node = childByField(node, 'operand');
        continue;
      case 'slice_type':
      case 'array_type':
      case 'implicit_length_array_type':
        return { kind: 'container', element: typeRefOf(childByField(node, 'element'), source, typeParameters) };
      case 'map_type':
        return { kind: 'container', element: typeRefOf(childByField(node, 'value'), source, typeParameters), key: typeRefOf(childByField(node, 'key'), source, typeParameters) };
      case 'channel_type':
        return { kind: 'container', element: typeRefOf(childByField(node, 'value'), source, typeParameters), channel: true };
      case 'function_type':
        return { kind: 'func', results: resultTypes(childByField(node, 'result'), source, typeParameters) };
      default:
        return OPAQUE;
    }
  }
  return OPAQUE;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** The types a func's `result` gives, one per value: `(int, error)` two, `(a, b int)` two, `error` one. */
export function resultTypes(result: GoNode | undefined, source: string, typeParameters: ReadonlySet<string> = NO_NAMES): TypeRef[] {
  if (!result) return [];
  if (result.type !== 'parameter_list') return [typeRefOf(result, source, typeParameters)];
  const types: TypeRef[] = [];
  for (const parameter of namedChildren(result)) {
    const type = typeRefOf(childByField(parameter, 'type'), source, typeParameters);
    const names = childrenByField(parameter, 'name').length;
    for (let index = 0; index < Math.max(1, names); index += 1) types.push(type);
  }
  return types;
}

/** How many parameters a parameter list declares (`a, b int` two, `int, string` two, `xs ...T` one, variadic). */
export function shapeOf(parameters: GoNode | undefined, result: GoNode | undefined): Shape {
  let count = 0;
  let variadic = false;
  for (const parameter of parameters ? namedChildren(parameters) : []) {
    if (parameter.type === 'variadic_parameter_declaration') {
      variadic = true;
      count += 1;
    } else if (parameter.type === 'parameter_declaration') count += Math.max(1, childrenByField(parameter, 'name').length);
  }
  return { parameters: count, results: resultCount(result), variadic };
}

/** How many values a func's `result` gives. */
function resultCount(result: GoNode | undefined): number {
  if (!result) return 0;
  if (result.type !== 'parameter_list') return 1;
  return namedChildren(result).reduce((sum, parameter) => sum + Math.max(1, childrenByField(parameter, 'name').length), 0);
}

/** The names a `[T any, U comparable]` list binds. */
export function typeParameterNames(list: GoNode | undefined, source: string): Set<string> {
  const names = new Set<string>();
  for (const declaration of list ? namedChildren(list) : []) for (const name of childrenByField(declaration, 'name')) names.add(textOf(name, source));
  return names;
}

/** The name a type is known by as an embedded field: `Base` for `*pkg.Base[T]`. */
export function embeddedName(type: TypeRef): string | undefined {
  return type.kind === 'named' ? type.name : undefined;
}
