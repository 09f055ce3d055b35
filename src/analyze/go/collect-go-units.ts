import type { Unit, UnitKind } from '../../graph/model.js';
import { commentsAbove, fieldSignature, functionSignature, specSignature, trailingComment, typeSignature } from './go-declaration-text.js';
import { childByField, childrenByField, type GoNode, isExportedName, type LineOf, namedChildren, textOf } from './go-syntax.js';
import { embeddedName, typeRefOf } from './go-type-refs.js';
import type { DuplicateSymbols } from '../syntax/kept-declarations.js';

/** A unit and the nodes it is made of. */
export interface GoDeclaration {
  unit: Unit;
  /** The declaring node: a func or method declaration, a type spec, a var or const spec, a field declaration. */
  node: GoNode;
  /** The node whose span is the unit's: a lone spec's whole declaration (`type X struct{…}`), a grouped spec alone. */
  span: GoNode;
}

/** What reading one top-level declaration's units takes from the rest of the file. */
export interface GoUnitContext {
  file: string;
  source: string;
  lineOf: LineOf;
  /** The symbols taken by the declarations before this one. */
  symbols: DuplicateSymbols;
  /** The named types the file declares (see localTypeNames). */
  localTypes: ReadonlySet<string>;
  /** A unit's hash by its span. */
  hashUnit: (span: GoNode) => string;
}

/** The units one top-level declaration declares, in source order. */
export interface TopLevelUnits {
  declarations: GoDeclaration[];
  /** Each unit's path, its symbol before a duplicate's suffix. */
  paths: string[];
  /** Each declaring node → the symbol of its unit (the first, for `var a, b = …`). */
  symbolOf: Map<GoNode, string>;
}

/** Names that declare nothing: `_` is thrown away. */
const BLANK = '_';

/**
 * The names of the types a file declares at its top: a method's parent is its receiver type when
 * this file declares it, else the file (a method may sit in another file of the package than its
 * type, and extraction sees one file).
 */
export function localTypeNames(declarations: readonly TopLevel[], source: string): Set<string> {
  const localTypes = new Set<string>();
  for (const { node: declaration } of declarations) {
    if (declaration.type !== 'type_declaration') continue;
    for (const spec of namedChildren(declaration)) {
      const name = childByField(spec, 'name');
      if (name) localTypes.add(textOf(name, source));
    }
  }
  return localTypes;
}

/** The doc comment above a top-level declaration (a func's, a group's): read from its siblings, outside its node. */
export function topLevelDoc(top: TopLevel, lineOf: LineOf, source: string): string {
  return DECLARATIONS.has(top.node.type) ? commentsAbove(top.siblings, top.index, lineOf, source) : '';
}

const DECLARATIONS = new Set(['function_declaration', 'method_declaration', 'type_declaration', 'const_declaration', 'var_declaration']);

/** A method's parent: its receiver type's unit when the file declares the type, else the file. */
export function methodParent(file: string, owner: string | undefined, localTypes: ReadonlySet<string>): string {
  return owner !== undefined && localTypes.has(owner) ? `${file}#${owner}` : file;
}

/**
 * The units of one top-level declaration of a Go file: a func; a method, named by its receiver's
 * type (`Server.Handle` for `func (s *Server) Handle`, a pointer receiver or not); named types (a
 * struct is a `class`, an interface an `interface`, any other a `type`); a struct's fields
 * (`property`, an embedded field named by its type); package-level vars and consts (`variable`).
 * Types declared inside a func are no units: no method can be declared on them, and their code
 * is the func's. `doc` is the comment above the declaration (topLevelDoc).
 */
export function collectTopLevelUnits(top: TopLevel, doc: string, context: GoUnitContext): TopLevelUnits {
  const { file, source, lineOf } = context;
  const collected: TopLevelUnits = { declarations: [], paths: [], symbolOf: new Map() };

  const addUnit = (kind: UnitKind, path: string, owner: string | undefined, node: GoNode, span: GoNode, signature: string, unitDoc: string): GoDeclaration => {
    // A second declaration of a name (`init`, or a broken file's) keeps both, told apart as the TypeScript front end does.
    const symbol = context.symbols.take(path);
    const name = path.slice(path.lastIndexOf('.') + 1);
    const unit: Unit = {
      id: `${file}#${symbol}`,
      kind,
      file,
      symbol,
      startLine: lineOf(span.start),
      endLine: lineOf(Math.max(span.start, span.end - 1)),
      signature,
      doc: unitDoc,
      exported: isExportedName(name) && (owner === undefined || isExportedName(owner)),
      hash: context.hashUnit(span),
      literals: '',
      words: '',
      parent: methodParent(file, owner, context.localTypes),
    };
    const declaration: GoDeclaration = { unit, node, span };
    collected.declarations.push(declaration);
    collected.paths.push(path);
    if (!collected.symbolOf.has(node)) collected.symbolOf.set(node, symbol);
    return declaration;
  };

  const visitType = (spec: GoNode, span: GoNode, typeDoc: string): void => {
    const nameNode = childByField(spec, 'name');
    if (!nameNode) return;
    const name = textOf(nameNode, source);
    const type = childByField(spec, 'type');
    const kind: UnitKind = spec.type === 'type_spec' && type?.type === 'struct_type' ? 'class' : spec.type === 'type_spec' && type?.type === 'interface_type' ? 'interface' : 'type';
    const declaration = addUnit(kind, name, undefined, spec, span, typeSignature(spec, source), typeDoc);
    if (kind !== 'class' || !type) return;
    const list = type.children.find((child) => child.type === 'field_declaration_list');
    if (!list) return;
    list.children.forEach((field, index) => {
      if (field.type !== 'field_declaration') return;
      const fieldDoc = commentsAbove(list.children, index, lineOf, source) || trailingComment(list.children, index, lineOf, source);
      for (const fieldName of fieldNames(field, source)) {
        const unit = addUnit('property', `${declaration.unit.symbol}.${fieldName}`, name, field, field, fieldSignature(field, source), fieldDoc).unit;
        // A field's parent is its struct, even a struct declared twice (`X~2`).
        unit.parent = declaration.unit.id;
        unit.exported = isExportedName(fieldName) && declaration.unit.exported;
      }
    });
  };

  const visitSpecs = (declaration: GoNode): void => {
    const keyword = declaration.type === 'const_declaration' ? 'const' : declaration.type === 'var_declaration' ? 'var' : 'type';
    const holder = declaration.children.find((child) => child.type === 'var_spec_list') ?? declaration;
    const specs = holder.children.filter((child) => child.type === 'const_spec' || child.type === 'var_spec' || child.type === 'type_spec' || child.type === 'type_alias');
    const grouped = holder.children.some((child) => child.type === '(');
    for (const spec of specs) {
      const span = grouped ? spec : declaration;
      // A spec's own comment documents it; in a group without one, the group's comment does (as godoc shows it).
      const specDoc = (grouped ? commentsAbove(holder.children, holder.children.indexOf(spec), lineOf, source) : '') || doc;
      if (keyword === 'type') {
        visitType(spec, span, specDoc);
        continue;
      }
      const signature = specSignature(keyword, spec, source);
      for (const nameNode of childrenByField(spec, 'name')) {
        const name = textOf(nameNode, source);
        if (name === BLANK) continue;
        addUnit('variable', name, undefined, spec, span, signature, specDoc);
      }
    }
  };

  const declaration = top.node;
  switch (declaration.type) {
    case 'function_declaration':
    case 'method_declaration': {
      const nameNode = childByField(declaration, 'name');
      if (!nameNode) break;
      const name = textOf(nameNode, source);
      const receiver = declaration.type === 'method_declaration' ? receiverTypeName(declaration, source) : undefined;
      if (declaration.type === 'method_declaration' && receiver === undefined) break;
      addUnit(receiver === undefined ? 'function' : 'method', receiver === undefined ? name : `${receiver}.${name}`, receiver, declaration, declaration, functionSignature(declaration, source), doc);
      break;
    }
    case 'type_declaration':
    case 'const_declaration':
    case 'var_declaration':
      visitSpecs(declaration);
      break;
  }
  return collected;
}

/** A top-level declaration and the list it stands in (the file's, or an ERROR node's), for the comments above it. */
export interface TopLevel {
  node: GoNode;
  siblings: readonly GoNode[];
  index: number;
}

/** The file's top-level declarations, also those a syntax error left inside an ERROR node. */
export function topLevel(root: GoNode): TopLevel[] {
  const found: TopLevel[] = [];
  const visit = (siblings: readonly GoNode[]): void => {
    siblings.forEach((node, index) => {
      // ERROR nodes nest only as deep as the parser's recovery does: a few levels.
      if (node.type === 'ERROR') visit(node.children);
      else found.push({ node, siblings, index });
    });
  };
  visit(root.children);
  return found;
}

/** The type a method is declared on: `Server` for `(s *Server)`, `List` for `(l *List[T])`. */
export function receiverTypeName(method: GoNode, source: string): string | undefined {
  const receiver = childByField(method, 'receiver');
  const parameter = receiver ? namedChildren(receiver)[0] : undefined;
  const type = parameter ? typeRefOf(childByField(parameter, 'type'), source) : undefined;
  return type?.kind === 'named' && type.qualifier === undefined ? type.name : undefined;
}

/** The names a field declaration declares: `a, b int` both, an embedded `*pkg.Base` `Base`; `_` none. */
export function fieldNames(field: GoNode, source: string): string[] {
  const names = childrenByField(field, 'name').map((name) => textOf(name, source));
  if (names.length === 0) {
    const embedded = embeddedName(typeRefOf(childByField(field, 'type'), source));
    return embedded === undefined ? [] : [embedded];
  }
  return names.filter((name) => name !== BLANK);
}
