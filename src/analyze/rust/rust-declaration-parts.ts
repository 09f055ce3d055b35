import type { Unit } from '../../graph/model.js';
import type { FileInput } from '../front-end.js';
import { KeptDeclarations } from '../syntax/kept-declarations.js';
import type { ParsedFile } from '../syntax/read-syntax-file.js';
import { factCollector, type FactCollector, type ImplReading, TOP_CONTEXT } from './collect-facts.js';
import { type CollectedUnits, type Container, type ImplHead, topContainer, unitCollector, type UnitCollector } from './collect-units.js';
import { movedFunctionPart, type RustFunctionPart } from './rust-function-parts.js';
import { nameRecord, type RustFacts } from './rust-facts.js';
import { attributedItems, type AttributedItem, childByField, isTestOnly, nameOf, type RustNode } from './rust-syntax.js';
import { fileTokens, unitHasher } from './unit-tokens.js';
import { collectVocabulary } from './unit-vocabulary.js';

const keptParts = new KeptDeclarations<RustFunctionPart>();

/** What reading a file's items gives: its units (the file unit first) with their declarations, and its facts. */
export interface ReadDeclarations {
  collected: CollectedUnits;
  facts: RustFacts;
}

/** Where an item is read: among which siblings, in which container, under which impl head (its text, for reuse). */
interface Place {
  siblings: readonly RustNode[];
  container: Container;
  /** The text of the impl head around a member, '' at the file's top: a member's part takes its prefix, generics and `Self` from it. */
  head: string;
  impl?: { units: ImplHead; facts: ImplReading };
}

/**
 * The units and facts of a Rust file's items, read one by one: each top-level item, and each
 * member of a top-level impl (a large file is often one impl of many methods). In a warm session a
 * fn the edit left alone is not read again: its part from the last extraction is reused, which
 * gives what reading it gives (the property test test/analyze/syntax/kept-declarations.test.ts
 * compares the two after random edits). A tree with a syntax error is read whole and keeps
 * nothing: its items can sit in ERROR nodes, and its tokens run across them.
 */
export function readRustDeclarations(root: RustNode, parsed: ParsedFile, file: FileInput, fileUnit: Unit): ReadDeclarations {
  const source = file.text;
  const { lineOf } = parsed;
  const clean = parsed.errors.count === 0;
  const kept = clean && file.recentTrees ? keptParts.of(file.recentTrees) : undefined;
  // In a clean tree no token crosses from one item's nodes to the next: the tokens of its own nodes alone hash its units.
  const fileHasher = clean ? undefined : unitHasher(fileTokens(root, source));
  const units = unitCollector(file.path, fileUnit, source, lineOf);
  const facts = factCollector(source, lineOf, units.collected);
  /** The parts this extraction keeps, read or reused. */
  const keptNow: RustFunctionPart[] = [];
  const read = (item: AttributedItem, place: Place): void => {
    const earlier = kept?.earlier(item.node, parsed.movedFrom);
    const lead = leadOf(item, place.siblings, source);
    if (earlier && canReuse(earlier, lead, place.head, units, facts)) {
      const part = movedFunctionPart(earlier, lineOf(item.node.start), facts.facts.locals.length, facts.reader.opaqueLocal);
      addPart(part, item.node, place, units, facts);
      kept!.keep(item.node, part);
      keptNow.push(part);
      return;
    }
    const part = readItem(item, lead, place, fileHasher, units, facts, source, lineOf);
    if (part && kept) {
      kept.keep(item.node, part);
      keptNow.push(part);
    }
  };

  const top = topContainer(file.path);
  for (const item of attributedItems(root.children, source, lineOf)) {
    const body = item.node.type === 'impl_item' ? childByField(item.node, 'body') : undefined;
    if (!body || isTestOnly(item.attributes, source)) {
      read(item, { siblings: root.children, container: top, head: '' });
      continue;
    }
    const impl = { units: units.implHead(item.node, top), facts: facts.implHead(item.node, TOP_CONTEXT) };
    const place: Place = { siblings: body.children, container: impl.units.members, head: source.slice(item.start, body.start), impl };
    for (const member of attributedItems(body.children, source, lineOf)) read(member, place);
    units.implEnd(impl.units);
    facts.implEnd(impl.facts);
  }
  const copies = units.finish();
  // A part keeps its fn's unit as this extraction gives it, so that the next one copies it only if its parent changes again
  // (the part is this front end's own record, changed in place; the units it holds never are).
  for (const part of keptNow) if (copies.has(part.units[0]!)) part.units = [copies.get(part.units[0]!)!, ...part.units.slice(1)];
  if (!clean) collectVocabulary(root, units.collected.declarations, source);
  return { collected: units.collected, facts: facts.facts };
}

/**
 * The text an item takes from before its node: its attributes and doc comments (its hash, doc and
 * words), and the blank lines and comments since the sibling before, which tell which comments are
 * its doc. The text from the end of the last sibling that ends a run of attributes and comments
 * (see attributedItems) to the node.
 */
function leadOf(item: AttributedItem, siblings: readonly RustNode[], source: string): string {
  let index = siblings.indexOf(item.node);
  let from = siblings[0]?.start ?? item.node.start;
  while (index > 0) {
    const sibling = siblings[index - 1]!;
    if (!inRun(sibling)) {
      from = sibling.end;
      break;
    }
    index -= 1;
  }
  return source.slice(from, item.node.start);
}

function inRun(node: RustNode): boolean {
  return node.type === 'attribute_item' || node.type === 'line_comment' || node.type === 'block_comment' || (!node.named && node.type !== ';');
}

/** The item's node and the attributes and comments before it: all its units' tokens and words lie in them. */
function nodesOf(item: AttributedItem, siblings: readonly RustNode[]): RustNode[] {
  const end = siblings.indexOf(item.node);
  let start = end;
  while (start > 0 && inRun(siblings[start - 1]!)) start -= 1;
  return siblings.slice(start, end + 1);
}

/** A part is reused when what it took from outside its node is as it was: its lead, its impl's head, its symbols, whether the file's opaque local exists before it. */
function canReuse(part: RustFunctionPart, lead: string, head: string, units: UnitCollector, facts: FactCollector): boolean {
  return part.lead === lead && part.head === head && units.symbols.wouldGive(part.paths, part.units.map((unit) => unit.symbol)) && (facts.reader.opaqueLocal === undefined) === (part.opaqueBefore === undefined);
}

/** A reused part's units and facts added to the file's, as reading its fn adds them. */
function addPart(part: RustFunctionPart, node: RustNode, place: Place, units: UnitCollector, facts: FactCollector): void {
  part.units.forEach((unit, index) => units.addKept(unit, part.paths[index]!, node, index === 0));
  const { facts: fileFacts, reader } = facts;
  for (const [symbol, fact] of part.functions) fileFacts.functions[symbol] = fact;
  for (const [symbol, fact] of part.types) fileFacts.types[symbol] = fact;
  for (const [symbol, fact] of part.traits) fileFacts.traits[symbol] = fact;
  for (const [symbol, fact] of part.statics) fileFacts.statics[symbol] = fact;
  for (const fact of part.impls) fileFacts.impls.push(fact);
  for (const symbol of part.inlineModules) fileFacts.inlineModules.push(symbol);
  for (const macro of part.macros) fileFacts.macros.push(macro);
  for (const local of part.locals) fileFacts.locals.push(local);
  for (const fact of part.imports) fileFacts.imports.push(fact);
  // One by one: a long fn can hold more uses than a spread's arguments may number.
  for (const use of part.uses) fileFacts.uses.push(use);
  if (part.opaqueOwn !== undefined) reader.opaqueLocal = part.opaqueOwn;
  const symbol = part.units[0]!.symbol;
  if (place.impl) place.impl.facts.members[part.name] ??= symbol;
  else (fileFacts.items[''] ??= nameRecord())[part.name] ??= symbol;
}

/**
 * Reads one item afresh: its units, their words, its facts. Returns a part to keep when the item is
 * a fn; any other item is read again every time (types, impls, modules: short, or read member by member).
 */
function readItem(
  item: AttributedItem, lead: string, place: Place, fileHasher: ((start: number, end: number) => string) | undefined,
  units: UnitCollector, facts: FactCollector, source: string, lineOf: (offset: number) => number,
): RustFunctionPart | undefined {
  const { collected } = units;
  const fileFacts = facts.facts;
  const nodes = nodesOf(item, place.siblings);
  const holder: RustNode = { type: 'item', named: true, field: undefined, start: nodes[0]!.start, end: item.node.end, children: nodes };
  let hasher: ((start: number, end: number) => string) | undefined = fileHasher;
  units.setHasher((start, end) => (hasher ??= unitHasher(fileTokens(holder, source)))(start, end));
  const declarationsBefore = collected.declarations.length;
  units.visitItem(item, place.container);
  const declarations = collected.declarations.slice(declarationsBefore);
  if (fileHasher === undefined) collectVocabulary(holder, declarations, source);
  const before = {
    uses: fileFacts.uses.length, locals: fileFacts.locals.length, imports: fileFacts.imports.length, impls: fileFacts.impls.length,
    inlineModules: fileFacts.inlineModules.length, macros: fileFacts.macros.length, modules: fileFacts.modules.length, opaque: facts.reader.opaqueLocal,
  };
  if (place.impl) facts.implMember(item, place.impl.facts);
  else facts.visitItem(item, TOP_CONTEXT);
  const name = nameOf(item.node, source);
  // A fn's body adds no `mod x;` declaration (only a module's top does): were it to, the part could not say so.
  if (item.node.type !== 'function_item' || declarations[0]?.node !== item.node || name === undefined || fileFacts.modules.length !== before.modules) return undefined;
  const opaque = facts.reader.opaqueLocal;
  const symbols = declarations.map((declaration) => declaration.unit.symbol);
  // Every record entry a fn's read adds is keyed by one of its units' symbols.
  const entries = <T>(record: Record<string, T>): Array<[string, T]> => symbols.flatMap((symbol) => (record[symbol] !== undefined ? [[symbol, record[symbol]!] as [string, T]] : []));
  return {
    line: lineOf(item.node.start),
    lead,
    head: place.head,
    paths: declarations.map((declaration) => declaration.path),
    name,
    units: declarations.map((declaration) => declaration.unit),
    functions: entries(fileFacts.functions),
    types: entries(fileFacts.types),
    traits: entries(fileFacts.traits),
    statics: entries(fileFacts.statics),
    impls: fileFacts.impls.slice(before.impls),
    inlineModules: fileFacts.inlineModules.slice(before.inlineModules),
    macros: fileFacts.macros.slice(before.macros),
    uses: fileFacts.uses.slice(before.uses),
    locals: fileFacts.locals.slice(before.locals),
    imports: fileFacts.imports.slice(before.imports),
    localBase: before.locals,
    opaqueBefore: before.opaque,
    ...(before.opaque === undefined && opaque !== undefined ? { opaqueOwn: opaque } : {}),
  };
}
