import type { Unit, UnitKind } from '../../graph/model.js';
import { DuplicateSymbols } from '../syntax/kept-declarations.js';
import { headSignature, valueSignature, wholeSignature } from './declaration-text.js';
import { lazyStatics } from './lazy-statics.js';
import {
  attributedItems, childByField, docText, hasAttribute, isInnerDoc, isPublic, isTestOnly, nameOf, type AttributedItem, type RustNode,
} from './rust-syntax.js';

/** A unit and the span it was hashed over, for the words of its own code. */
export interface Declaration {
  unit: Unit;
  node: RustNode;
  start: number;
  end: number;
  /** Where its words start: its doc comments are its own words, not the enclosing unit's. */
  wordsStart: number;
  /** Its symbol before a duplicate's suffix. */
  path: string;
}

export interface CollectedUnits {
  /** The file unit first, then every declaration, in source order. */
  units: Unit[];
  declarations: Declaration[];
  /** Each node that declares a unit → that unit's symbol: items, fields, a lazy static's `static` token. */
  symbolOf: Map<RustNode, string>;
  /** Items left out as test code (`#[cfg(test)]`, `#[test]`): no units, no facts. */
  testOnly: Set<RustNode>;
}

export interface Container {
  /** The enclosing unit's symbol plus a dot, or '' at the file's top. */
  prefix: string;
  parent: string;
  /** A module's items, a function body's, a trait's, or an impl's members. */
  kind: 'module' | 'block' | 'trait' | 'impl';
  /** Whether what the container holds is visible outside it: `pub` items of an exported module are. */
  exported: boolean;
  /** An impl of a trait: its members are as visible as the trait and the type, with no `pub` of their own. */
  traitImpl?: boolean;
}

/** The kinds of units a type's name can be: an impl's members are put under that unit when the same scope declares it. */
const TYPE_KINDS = new Set<UnitKind>(['class', 'enum', 'interface', 'type']);

/** Where a file's top-level items stand. */
export function topContainer(file: string): Container {
  return { prefix: '', parent: file, kind: 'module', exported: true };
}

/** An impl block being read member by member: what its members are read in, and what its end fixes up. */
export interface ImplHead {
  members: Container;
  typeSymbol: string;
  container: Container;
  /** The number of units before its members. */
  before: number;
}

/**
 * The units of one file, found by walking its items: at the top, in inline modules, in trait and
 * impl bodies, and inside function bodies (an item in a body is named under its function). Test
 * code is left out. Hashes, signatures and docs are set here; words and literals by
 * collectVocabulary. Items are handed in one by one (visitItem, or implHead, members, implEnd for
 * an impl read member by member), so that a reader can reuse what it read of some (addKept) and
 * hash each with the tokens of its own nodes (`hash` is set before each item); finish sets the
 * parents of impl members last, when every type of the file is known.
 */
export function unitCollector(file: string, fileUnit: Unit, source: string, lineOf: (offset: number) => number) {
  const collected: CollectedUnits = { units: [fileUnit], declarations: [], symbolOf: new Map(), testOnly: new Set() };
  const symbols = new DuplicateSymbols();
  const bySymbol = new Map<string, Unit>();
  let hash: (start: number, end: number) => string = () => '';
  /** Units reused from an earlier read, and whether each is an impl's member: finish copies those rather than change them, and leaves the units nested in them as they were read. */
  const reused = new Map<Unit, boolean>();

  const addUnit = (kind: UnitKind, name: string, container: Container, node: RustNode, start: number, end: number, signature: string, doc: string, exported: boolean, docs: readonly RustNode[] = []): Unit => {
    // A second item of one name keeps both, told apart as the TypeScript front end does.
    const path = `${container.prefix}${name}`;
    const symbol = symbols.take(path);
    const unit: Unit = {
      id: `${file}#${symbol}`, kind, file, symbol, startLine: lineOf(start), endLine: lineOf(Math.max(start, end - 1)), signature, doc,
      exported, hash: hash(start, end), literals: '', words: '', parent: container.parent,
    };
    collected.units.push(unit);
    collected.declarations.push({ unit, node, start, end, wordsStart: Math.min(start, docs[0]?.start ?? start), path });
    collected.symbolOf.set(node, symbol);
    bySymbol.set(symbol, unit);
    return unit;
  };

  const visitItem = (item: AttributedItem, container: Container): void => {
    const { node } = item;
    if (isTestOnly(item.attributes, source)) {
      collected.testOnly.add(node);
      return;
    }
    const name = nameOf(node, source);
    const doc = docText(item.docs, source);
    // A trait's items and a trait impl's members have no `pub` of their own: they are as visible as what holds them.
    const exported = container.kind === 'trait' || container.traitImpl ? container.exported : container.kind !== 'block' && container.exported && isPublic(node);
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item': {
        // A trait's fn without a body is no code of its own: each impl's is.
        if (!name || (node.type === 'function_signature_item' && container.kind === 'trait')) return;
        const kind = container.kind === 'impl' || container.kind === 'trait' ? 'method' : 'function';
        const unit = addUnit(kind, name, container, node, item.start, node.end, headSignature(node, source), doc, exported, item.docs);
        const body = childByField(node, 'body');
        if (body) visitBody(body, { prefix: `${unit.symbol}.`, parent: unit.id, kind: 'block', exported: false });
        return;
      }
      case 'struct_item':
      case 'union_item': {
        if (!name) return;
        const unit = addUnit('class', name, container, node, item.start, node.end, headSignature(node, source), doc, exported, item.docs);
        const body = childByField(node, 'body');
        if (body?.type === 'field_declaration_list') visitFields(body, { prefix: `${unit.symbol}.`, parent: unit.id, kind: 'block', exported: unit.exported });
        return;
      }
      case 'enum_item':
        if (name) addUnit('enum', name, container, node, item.start, node.end, headSignature(node, source), doc, exported, item.docs);
        return;
      case 'trait_item': {
        if (!name) return;
        const unit = addUnit('interface', name, container, node, item.start, node.end, headSignature(node, source), doc, exported, item.docs);
        const body = childByField(node, 'body');
        if (body) visitItems(body.children, { prefix: `${unit.symbol}.`, parent: unit.id, kind: 'trait', exported: unit.exported });
        return;
      }
      case 'impl_item':
        visitImpl(node, container);
        return;
      case 'const_item':
      case 'static_item':
        // `const _: () = ...;` checks something at compile time and names nothing.
        if (name && name !== '_' && (container.kind !== 'trait' || childByField(node, 'value'))) {
          addUnit('variable', name, container, node, item.start, node.end, valueSignature(node.start, node.end, source), doc, exported, item.docs);
        }
        return;
      case 'type_item':
        if (name && container.kind !== 'trait' && container.kind !== 'impl') addUnit('type', name, container, node, item.start, node.end, wholeSignature(node, source), doc, exported, item.docs);
        return;
      case 'mod_item': {
        const body = childByField(node, 'body');
        if (!name || !body) return;
        // An inline module is a unit of kind `type` (no kind says module); its items are named under it.
        const innerDoc = docText(body.children.filter(isInnerDoc), source);
        const unit = addUnit('type', name, container, node, item.start, node.end, headSignature(node, source), [doc, innerDoc].filter(Boolean).join(' '), exported, item.docs);
        visitItems(body.children, { prefix: `${unit.symbol}.`, parent: unit.id, kind: 'module', exported: unit.exported });
        return;
      }
      case 'macro_definition':
        if (name) addUnit('function', name, container, node, item.start, node.end, `macro_rules! ${name}`, doc, hasAttribute(item.attributes, source, 'macro_export'), item.docs);
        return;
      case 'foreign_mod_item': {
        const body = childByField(node, 'body');
        if (body) visitItems(body.children, container);
        return;
      }
      default: {
        const invocation = node.type === 'macro_invocation' ? node : node.children[0];
        for (const lazy of invocation ? lazyStatics(invocation, source) : []) {
          const unit = addUnit('variable', lazy.name, container, lazy.keyword, lazy.start, lazy.end, valueSignature(lazy.start, lazy.end, source), docText(lazy.docs, source) || doc, container.exported && lazy.public, lazy.docs);
          collected.symbolOf.set(lazy.keyword, unit.symbol);
        }
      }
    }
  };

  const implHead = (node: RustNode, container: Container): ImplHead => {
    const typeName = lastName(childByField(node, 'type'), source) ?? 'impl';
    const traitName = lastName(childByField(node, 'trait'), source);
    const prefix = traitName === undefined ? `${container.prefix}${typeName}` : `${container.prefix}${typeName}.${traitName}`;
    // The members sit under the type's unit when this scope declares it (found after the walk, wherever it stands), else under the scope.
    const exported = container.kind !== 'block' && container.exported;
    const members: Container = { prefix: `${prefix}.`, parent: container.parent, kind: 'impl', exported, traitImpl: traitName !== undefined };
    return { members, typeSymbol: `${container.prefix}${typeName}`, container, before: collected.units.length };
  };

  const implEnd = (head: ImplHead): void => {
    pendingParents.push({ units: collected.units.slice(head.before), typeSymbol: head.typeSymbol, container: head.container });
  };

  const visitImpl = (node: RustNode, container: Container): void => {
    const head = implHead(node, container);
    const body = childByField(node, 'body');
    if (body) visitItems(body.children, head.members);
    implEnd(head);
  };

  const visitFields = (list: RustNode, container: Container): void => {
    for (const item of attributedFields(list)) {
      if (isTestOnly(item.attributes, source)) continue;
      const name = nameOf(item.node, source);
      if (!name) continue;
      addUnit('property', name, container, item.node, item.start, item.node.end, wholeSignature(item.node, source), docText(item.docs, source), container.exported && isPublic(item.node), item.docs);
    }
  };

  const attributedFields = (list: RustNode): AttributedItem[] => {
    const found: AttributedItem[] = [];
    let run: RustNode[] = [];
    for (const child of list.children) {
      if (child.type === 'attribute_item' || child.type === 'line_comment' || child.type === 'block_comment') run.push(child);
      else if (child.type === 'field_declaration') {
        const attributes = run.filter((node) => node.type === 'attribute_item');
        found.push({ node: child, attributes, docs: run.filter((node) => node.type !== 'attribute_item' && !isInnerDoc(node)), start: attributes[0]?.start ?? child.start });
        run = [];
      } else if (child.named) run = [];
    }
    return found;
  };

  const visitItems = (children: readonly RustNode[], container: Container): void => {
    for (const item of attributedItems(children, source, lineOf)) visitItem(item, container);
  };

  /** Items declared anywhere inside a body, at any depth of blocks and expressions, but not inside another item: that one names its own. */
  const visitBody = (body: RustNode, container: Container): void => {
    const stack: RustNode[] = [body];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.children.length === 0 || node.type === 'token_tree' || node.type === 'macro_invocation') continue;
      const items = attributedItems(node.children, source, lineOf).filter((item) => item.node.type !== 'expression_statement' && item.node.type !== 'macro_invocation');
      for (const item of items) visitItem(item, container);
      const inside = new Set(items.map((item) => item.node));
      for (let index = node.children.length - 1; index >= 0; index -= 1) {
        const child = node.children[index]!;
        if (!inside.has(child)) stack.push(child);
      }
    }
  };

  const pendingParents: Array<{ units: Unit[]; typeSymbol: string; container: Container }> = [];

  /** A unit read earlier and reused as it is (a member's parent is set again by finish): its symbol is taken, and types found by it. */
  const addKept = (unit: Unit, path: string, node: RustNode, member: boolean): void => {
    symbols.take(path);
    collected.units.push(unit);
    collected.declarations.push({ unit, node, start: node.start, end: node.end, wordsStart: node.start, path });
    bySymbol.set(unit.symbol, unit);
    reused.set(unit, member);
  };

  /** Sets impl members' parents; a reused unit whose parent changes is copied. Returns the copies by the units they replace. */
  const finish = (): Map<Unit, Unit> => {
    const copies = new Map<Unit, Unit>();
    for (const { units, typeSymbol, container } of pendingParents) {
      const owner = bySymbol.get(typeSymbol);
      const parent = owner && TYPE_KINDS.has(owner.kind) && owner.parent === container.parent ? owner.id : container.parent;
      for (const unit of units) {
        // A reused member holds the parent it was given then; the units nested in its fn keep theirs, set within it.
        const member = reused.get(unit);
        if (member === true) {
          if (unit.parent !== parent) copies.set(unit, { ...unit, parent });
        } else if (member === undefined && unit.parent === container.parent) unit.parent = parent;
      }
    }
    if (copies.size > 0) {
      collected.units = collected.units.map((unit) => copies.get(unit) ?? unit);
      for (const declaration of collected.declarations) declaration.unit = copies.get(declaration.unit) ?? declaration.unit;
    }
    return copies;
  };

  return {
    collected,
    symbols: symbols as Pick<DuplicateSymbols, 'wouldGive'>,
    setHasher: (hasher: (start: number, end: number) => string): void => {
      hash = hasher;
    },
    visitItem,
    implHead,
    implEnd,
    addKept,
    finish,
  };
}

export type UnitCollector = ReturnType<typeof unitCollector>;

/** The name a type is known by in an impl's head: `Session` of `&'a mut Session<T>`, `Message` of `crate::model::Message`. */
function lastName(node: RustNode | undefined, source: string): string | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'type_identifier':
    case 'identifier':
    case 'primitive_type':
      return source.slice(node.start, node.end);
    case 'scoped_type_identifier':
      return lastName(childByField(node, 'name'), source);
    case 'generic_type':
      return lastName(childByField(node, 'type'), source);
    case 'reference_type':
    case 'pointer_type':
      return lastName(childByField(node, 'type'), source);
    case 'dynamic_type':
    case 'abstract_type':
      return lastName(childByField(node, 'trait'), source);
    default:
      return undefined;
  }
}
