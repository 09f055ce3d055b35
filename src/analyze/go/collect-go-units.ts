import type { Unit, UnitKind } from '../../graph/model.js';
import { commentsAbove, fieldSignature, functionSignature, specSignature, trailingComment, typeSignature } from './go-declaration-text.js';
import { childByField, childrenByField, type GoNode, isExportedName, type LineOf, namedChildren, textOf } from './go-syntax.js';
import { embeddedName, typeRefOf } from './go-type-refs.js';

/** A unit and the nodes it is made of. */
export interface GoDeclaration {
  unit: Unit;
  /** The declaring node: a func or method declaration, a type spec, a var or const spec, a field declaration. */
  node: GoNode;
  /** The node whose span is the unit's: a lone spec's whole declaration (`type X struct{…}`), a grouped spec alone. */
  span: GoNode;
}

export interface CollectedGoUnits {
  /** The file unit first, then every declaration, in source order. */
  units: Unit[];
  declarations: GoDeclaration[];
  /** Each declaring node → the symbol of its unit (the first, for `var a, b = …`). */
  symbolOf: Map<GoNode, string>;
}

/** Names that declare nothing: `_` is thrown away. */
const BLANK = '_';

/**
 * The units of one Go file, from its top-level declarations: funcs; methods, named by their
 * receiver's type (`Server.Handle` for `func (s *Server) Handle`, a pointer receiver or not);
 * named types (a struct is a `class`, an interface an `interface`, any other a `type`); a
 * struct's fields (`property`, an embedded field named by its type); package-level vars and
 * consts (`variable`). Types declared inside a func are no units: no method can be declared on
 * them, and their code is the func's.
 *
 * A method's parent is its receiver type when this file declares it, else the file: a method may
 * sit in another file of the package than its type, and extraction sees one file.
 */
export function collectGoUnits(root: GoNode, file: string, fileHash: string, lines: number, source: string, lineOf: LineOf, hashUnit: (span: GoNode) => string): CollectedGoUnits {
  const fileUnit: Unit = { id: file, kind: 'file', file, symbol: '', startLine: 1, endLine: Math.max(1, lines), signature: file, doc: '', exported: false, hash: fileHash, literals: '', words: '' };
  const collected: CollectedGoUnits = { units: [fileUnit], declarations: [], symbolOf: new Map() };
  const taken = new Map<string, number>();
  const localTypes = new Set<string>();
  const declarations = topLevel(root);
  for (const { node: declaration } of declarations) {
    if (declaration.type !== 'type_declaration') continue;
    for (const spec of namedChildren(declaration)) {
      const name = childByField(spec, 'name');
      if (name) localTypes.add(textOf(name, source));
    }
  }

  const addUnit = (kind: UnitKind, path: string, owner: string | undefined, node: GoNode, span: GoNode, signature: string, doc: string): GoDeclaration => {
    const seen = taken.get(path) ?? 0;
    taken.set(path, seen + 1);
    // A second declaration of a name (`init`, or a broken file's) keeps both, told apart as the TypeScript front end does.
    const symbol = seen === 0 ? path : `${path}~${seen + 1}`;
    const name = path.slice(path.lastIndexOf('.') + 1);
    const unit: Unit = {
      id: `${file}#${symbol}`,
      kind,
      file,
      symbol,
      startLine: lineOf(span.start),
      endLine: lineOf(Math.max(span.start, span.end - 1)),
      signature,
      doc,
      exported: isExportedName(name) && (owner === undefined || isExportedName(owner)),
      hash: hashUnit(span),
      literals: '',
      words: '',
      parent: owner !== undefined && localTypes.has(owner) ? `${file}#${owner}` : file,
    };
    const declaration: GoDeclaration = { unit, node, span };
    collected.units.push(unit);
    collected.declarations.push(declaration);
    if (!collected.symbolOf.has(node)) collected.symbolOf.set(node, symbol);
    return declaration;
  };

  const visitType = (spec: GoNode, span: GoNode, doc: string): void => {
    const nameNode = childByField(spec, 'name');
    if (!nameNode) return;
    const name = textOf(nameNode, source);
    const type = childByField(spec, 'type');
    const kind: UnitKind = spec.type === 'type_spec' && type?.type === 'struct_type' ? 'class' : spec.type === 'type_spec' && type?.type === 'interface_type' ? 'interface' : 'type';
    const declaration = addUnit(kind, name, undefined, spec, span, typeSignature(spec, source), doc);
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

  const visitSpecs = ({ node: declaration, siblings, index }: TopLevel): void => {
    const keyword = declaration.type === 'const_declaration' ? 'const' : declaration.type === 'var_declaration' ? 'var' : 'type';
    const holder = declaration.children.find((child) => child.type === 'var_spec_list') ?? declaration;
    const specs = holder.children.filter((child) => child.type === 'const_spec' || child.type === 'var_spec' || child.type === 'type_spec' || child.type === 'type_alias');
    const grouped = holder.children.some((child) => child.type === '(');
    const groupDoc = commentsAbove(siblings, index, lineOf, source);
    for (const spec of specs) {
      const span = grouped ? spec : declaration;
      // A spec's own comment documents it; in a group without one, the group's comment does (as godoc shows it).
      const doc = (grouped ? commentsAbove(holder.children, holder.children.indexOf(spec), lineOf, source) : '') || groupDoc;
      if (keyword === 'type') {
        visitType(spec, span, doc);
        continue;
      }
      const signature = specSignature(keyword, spec, source);
      for (const nameNode of childrenByField(spec, 'name')) {
        const name = textOf(nameNode, source);
        if (name === BLANK) continue;
        addUnit('variable', name, undefined, spec, span, signature, doc);
      }
    }
  };

  for (const top of declarations) {
    const declaration = top.node;
    switch (declaration.type) {
      case 'function_declaration':
      case 'method_declaration': {
        const nameNode = childByField(declaration, 'name');
        if (!nameNode) break;
        const name = textOf(nameNode, source);
        const receiver = declaration.type === 'method_declaration' ? receiverTypeName(declaration, source) : undefined;
        if (declaration.type === 'method_declaration' && receiver === undefined) break;
        const doc = commentsAbove(top.siblings, top.index, lineOf, source);
        addUnit(receiver === undefined ? 'function' : 'method', receiver === undefined ? name : `${receiver}.${name}`, receiver, declaration, declaration, functionSignature(declaration, source), doc);
        break;
      }
      case 'type_declaration':
      case 'const_declaration':
      case 'var_declaration':
        visitSpecs(top);
        break;
    }
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
