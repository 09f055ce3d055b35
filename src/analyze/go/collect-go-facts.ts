import { clip, collapseWhitespace } from '../../text/clip.js';
import type { Unit } from '../../graph/model.js';
import { fieldNames, receiverTypeName, type TopLevelUnits, topLevel } from './collect-go-units.js';
import type { GoBodyReader } from './go-body-facts.js';
import { nameRecord, type FieldFact, type GoFacts, type GoImport, type TypeFact, type TypeRef, type VariableFact } from './go-facts.js';
import { childByField, childrenByField, type GoNode, type LineOf, namedChildren, textOf } from './go-syntax.js';
import { resultTypes, shapeOf, typeParameterNames, typeRefOf } from './go-type-refs.js';

const TYPE_TEXT_LIMIT = 120;

/** The package clause's name and the imports: all a test file keeps. */
export function collectImportFacts(root: GoNode, source: string, lineOf: LineOf): Pick<GoFacts, 'package' | 'imports'> {
  let packageName = '';
  const imports: GoImport[] = [];
  for (const { node } of topLevel(root)) {
    if (node.type === 'package_clause') {
      const name = namedChildren(node)[0];
      if (name && packageName === '') packageName = textOf(name, source);
    }
    if (node.type !== 'import_declaration') continue;
    const specs = node.children.flatMap((child) => (child.type === 'import_spec_list' ? child.children : [child])).filter((child) => child.type === 'import_spec');
    for (const spec of specs) {
      const path = childByField(spec, 'path');
      if (!path) continue;
      const content = path.children.find((child) => child.type === 'interpreted_string_literal_content' || child.type === 'raw_string_literal_content');
      const value = content ? textOf(content, source) : '';
      if (value === '') continue;
      const name = childByField(spec, 'name');
      const fact: GoImport = { path: value, line: lineOf(spec.start) };
      if (name) fact.alias = textOf(name, source);
      imports.push(fact);
    }
  }
  return { package: packageName, imports };
}

/**
 * The names a file declares at package level → their unit's symbol (the first, for a name declared
 * twice): funcs, types, vars and consts, not methods or fields.
 */
export function declaredNames(units: readonly Unit[]): Record<string, string> {
  const declarations = nameRecord<string>();
  for (const unit of units) {
    if (unit.kind === 'file' || unit.kind === 'property' || unit.kind === 'method') continue;
    const name = unit.symbol.replace(/~\d+$/, '');
    declarations[name] ??= unit.symbol;
  }
  return declarations;
}

/**
 * The facts one top-level declaration adds to its file's: its named types with their fields,
 * embedded types and (for an interface) methods; its func's or method's shape and result types;
 * its package-level variables' types and initializers; and the uses in its body or initializers,
 * with the locals they bind, appended to the file's.
 */
export function readTopLevelFacts(declaration: GoNode, units: TopLevelUnits, source: string, lineOf: LineOf, facts: GoFacts, reader: GoBodyReader): void {
  for (const { unit, node } of units.declarations) {
    if (unit.kind === 'class' || unit.kind === 'interface' || unit.kind === 'type') facts.types[unit.symbol] = typeFact(node, source, lineOf);
  }
  switch (declaration.type) {
    case 'function_declaration':
    case 'method_declaration': {
      const symbol = units.symbolOf.get(declaration);
      if (symbol === undefined) break;
      const typeParameters = declaration.type === 'method_declaration' ? receiverTypeParameters(declaration, source) : typeParameterNames(childByField(declaration, 'type_parameters'), source);
      const receiver = declaration.type === 'method_declaration' ? receiverTypeName(declaration, source) : undefined;
      const result = childByField(declaration, 'result');
      facts.functions[symbol] = { ...shapeOf(childByField(declaration, 'parameters'), result), resultTypes: resultTypes(result, source, typeParameters), ...(receiver !== undefined ? { receiver } : {}) };
      reader.readFunction(declaration, symbol, reader.newScope(typeParameters));
      break;
    }
    case 'var_declaration':
    case 'const_declaration':
      readVariables(declaration, source, units, facts, reader);
      break;
  }
}

/** Each var or const spec → its names → the symbol of each name's unit (the first, for a name given twice). */
function specUnitsOf(units: TopLevelUnits): Map<GoNode, Map<string, string>> {
  const specUnits = new Map<GoNode, Map<string, string>>();
  for (const { unit, node } of units.declarations) {
    if (unit.kind !== 'variable') continue;
    const names = specUnits.get(node) ?? new Map<string, string>();
    const name = unit.symbol.replace(/~\d+$/, '');
    if (!names.has(name)) names.set(name, unit.symbol);
    specUnits.set(node, names);
  }
  return specUnits;
}

/**
 * Package-level vars and consts: each name's declared type and the initializer it takes, read as
 * the variable unit's code. A const without type or value repeats the spec before it (`iota`).
 */
function readVariables(declaration: GoNode, source: string, units: TopLevelUnits, facts: GoFacts, reader: GoBodyReader): void {
  const specUnits = specUnitsOf(units);
  const constant = declaration.type === 'const_declaration';
  const holder = declaration.children.find((child) => child.type === 'var_spec_list') ?? declaration;
  let previous: { type?: TypeRef; value?: VariableFact['value'] } = {};
  for (const spec of holder.children) {
    if (spec.type !== 'var_spec' && spec.type !== 'const_spec') continue;
    const symbol = units.symbolOf.get(spec);
    const names = childrenByField(spec, 'name').map((name) => textOf(name, source));
    const typeNode = childByField(spec, 'type');
    const valueList = childByField(spec, 'value');
    const values = valueList ? namedChildren(valueList) : [];
    const scope = reader.newScope();
    const paths = values.map((value) => reader.readInitializer(value, symbol ?? '', scope));
    const type = typeNode ? typeRefOf(typeNode, source) : constant && values.length === 0 ? previous.type : undefined;
    names.forEach((name, index) => {
      if (name === '_') return;
      const unitSymbol = specUnits.get(spec)?.get(name);
      if (unitSymbol === undefined) return;
      const fact: VariableFact = { constant };
      if (type && type.kind !== 'opaque') fact.type = type;
      const path = paths.length === names.length ? paths[index] : paths.length === 1 ? paths[0] : undefined;
      if (path && path.root.kind !== 'opaque') fact.value = paths.length === names.length ? { path } : { path, result: index };
      else if (constant && values.length === 0 && previous.value) fact.value = previous.value;
      facts.variables[unitSymbol] = fact;
      if (index === 0) previous = { ...(fact.type ? { type: fact.type } : {}), ...(fact.value ? { value: fact.value } : {}) };
    });
  }
}

function typeFact(spec: GoNode, source: string, lineOf: LineOf): TypeFact {
  const typeParameters = typeParameterNames(childByField(spec, 'type_parameters'), source);
  const type = childByField(spec, 'type');
  const fact: TypeFact = { kind: 'other', line: lineOf(spec.start), fields: nameRecord(), embedded: [], methods: nameRecord() };
  if (spec.type === 'type_spec' && type?.type === 'struct_type') {
    fact.kind = 'struct';
    const list = type.children.find((child) => child.type === 'field_declaration_list');
    for (const field of list ? list.children : []) {
      if (field.type !== 'field_declaration') continue;
      const typeNode = childByField(field, 'type');
      const typeRef = typeRefOf(typeNode, source, typeParameters);
      const line = lineOf(field.start);
      const declared: FieldFact = { line, type: typeRef, typeText: typeNode ? clip(collapseWhitespace(textOf(typeNode, source)), TYPE_TEXT_LIMIT) : '' };
      if (childrenByField(field, 'name').length === 0) fact.embedded.push({ type: typeRef, line });
      for (const name of fieldNames(field, source)) fact.fields[name] ??= declared;
    }
  } else if (spec.type === 'type_spec' && type?.type === 'interface_type') {
    fact.kind = 'interface';
    for (const element of namedChildren(type)) {
      if (element.type === 'method_elem') {
        const name = childByField(element, 'name');
        const result = childByField(element, 'result');
        if (name) fact.methods[textOf(name, source)] = { ...shapeOf(childByField(element, 'parameters'), result), resultTypes: resultTypes(result, source, typeParameters) };
      } else if (element.type === 'type_elem') {
        // `io.Reader` embeds an interface; `~int | string` is a constraint's type set, which adds no method.
        const types = namedChildren(element);
        if (types.length === 1) fact.embedded.push({ type: typeRefOf(types[0], source, typeParameters), line: lineOf(element.start) });
      }
    }
  } else {
    fact.underlying = typeRefOf(type, source, typeParameters);
    if (spec.type === 'type_alias') fact.alias = true;
  }
  return fact;
}

/** The names a method's receiver binds as type parameters: `T` in `(l *List[T])`. */
function receiverTypeParameters(method: GoNode, source: string): Set<string> {
  const names = new Set<string>();
  const receiver = childByField(method, 'receiver');
  const stack = receiver ? [receiver] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'type_arguments') for (const argument of namedChildren(node)) names.add(textOf(argument, source));
    else stack.push(...node.children);
  }
  return names;
}
