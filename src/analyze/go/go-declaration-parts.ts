import type { Unit } from '../../graph/model.js';
import type { FileInput } from '../front-end.js';
import { DuplicateSymbols, KeptDeclarations, type KeptParts, movedLines } from '../syntax/kept-declarations.js';
import type { ParsedFile } from '../syntax/read-syntax-file.js';
import { declaredNames, readTopLevelFacts } from './collect-go-facts.js';
import { collectTopLevelUnits, type GoUnitContext, localTypeNames, methodParent, type TopLevel, topLevel, topLevelDoc } from './collect-go-units.js';
import { GoBodyReader } from './go-body-facts.js';
import { type ExprPath, type FunctionFact, type GoFacts, type LocalFact, nameRecord, type TypeFact, type UseFact, type ValuePath, type VariableFact } from './go-facts.js';
import type { GoNode } from './go-syntax.js';
import { goFileTokens, goUnitHasher } from './go-unit-tokens.js';
import { collectGoVocabulary } from './go-unit-vocabulary.js';

/**
 * What was read of one top-level declaration of a Go file: its units and the facts it adds, as
 * read where it stood then. The next extraction of the file reuses it for the same node (lent by
 * the next tree's copy, see KeptDeclarations) when what it took from outside its node is the same:
 * the doc comment above it, and the symbols its paths get after the declarations before it. The
 * rest it took from outside moves or is set again on reuse: lines move by what the node moved, the
 * locals its paths name are numbered after the locals before it, and a method's parent is its
 * receiver type's unit when the file (now) declares that type.
 */
export interface GoDeclarationPart {
  /** The line the node started on. */
  line: number;
  /** The doc comment above the node: its units' docs and first words. */
  doc: string;
  /** Each unit's path, its symbol before a duplicate's suffix. */
  paths: string[];
  units: Unit[];
  types: Array<[string, TypeFact]>;
  functions: Array<[string, FunctionFact]>;
  variables: Array<[string, VariableFact]>;
  uses: UseFact[];
  locals: LocalFact[];
  /** The index of its first local among the file's: paths name locals by index. */
  localBase: number;
}

const keptParts = new KeptDeclarations<GoDeclarationPart>();

/**
 * The units (after the file unit) and facts of a Go file's top-level declarations, read one by one
 * into `facts`. In a warm session, a declaration the edit left alone is not read again: its part
 * from the last extraction is reused, which gives what reading it gives (the property test
 * test/analyze/syntax/kept-declarations.test.ts compares the two after random edits). A tree with
 * a syntax error is read whole and keeps nothing: its declarations can sit in ERROR nodes, and
 * its tokens run across them.
 */
export function readGoDeclarations(root: GoNode, parsed: ParsedFile, file: FileInput, facts: GoFacts): Unit[] {
  const source = file.text;
  const { lineOf } = parsed;
  const tops = topLevel(root);
  const clean = parsed.errors.count === 0;
  const kept = clean && file.recentTrees ? keptParts.of(file.recentTrees) : undefined;
  // In a clean tree no token crosses from one top-level node to the next (see goFileTokens): each node's tokens alone hash its units.
  const fileHasher = clean ? undefined : goUnitHasher(goFileTokens(root, source));
  // hashUnit is set for each declaration read.
  const context: GoUnitContext = { file: file.path, source, lineOf, symbols: new DuplicateSymbols(), localTypes: localTypeNames(tops, source), hashUnit: () => '' };
  const reader = new GoBodyReader(facts, source, lineOf);
  const units: Unit[] = [];
  for (const top of tops) {
    const doc = topLevelDoc(top, lineOf, source);
    const line = lineOf(top.node.start);
    const earlier = kept?.earlier(top.node, parsed.movedFrom);
    if (earlier && earlier.doc === doc && context.symbols.wouldGive(earlier.paths, earlier.units.map((unit) => unit.symbol))) {
      context.symbols.takeAll(earlier.paths);
      const part = movedPart(earlier, line - earlier.line, facts.locals.length, context.localTypes);
      addPart(part, facts, units);
      kept!.keep(top.node, part);
      continue;
    }
    context.hashUnit = fileHasher ?? nodeHasher(top.node, source);
    const part = readPart(top, doc, line, context, facts, reader);
    for (const unit of part.units) units.push(unit);
    keepPart(kept, top.node, part);
  }
  facts.declarations = declaredNames(units);
  return units;
}

/** A hasher over one node's tokens, made at its first use: most top-level nodes (comments, imports) hash nothing. */
function nodeHasher(node: GoNode, source: string): (span: GoNode) => string {
  let hasher: ((span: GoNode) => string) | undefined;
  return (span) => (hasher ??= goUnitHasher(goFileTokens(node, source)))(span);
}

function keepPart(kept: KeptParts<GoDeclarationPart> | undefined, node: GoNode, part: GoDeclarationPart): void {
  // A node that declares nothing (the package clause, an import, a comment) has nothing to reuse.
  if (kept && (part.units.length > 0 || part.uses.length > 0 || part.locals.length > 0)) kept.keep(node, part);
}

function readPart(top: TopLevel, doc: string, line: number, context: GoUnitContext, facts: GoFacts, reader: GoBodyReader): GoDeclarationPart {
  const usesBefore = facts.uses.length;
  const localBase = facts.locals.length;
  const collected = collectTopLevelUnits(top, doc, context);
  collectGoVocabulary(collected.declarations, context.source);
  readTopLevelFacts(top.node, collected, context.source, context.lineOf, facts, reader);
  const units = collected.declarations.map((declaration) => declaration.unit);
  const entries = <T>(record: Record<string, T>): Array<[string, T]> => units.flatMap((unit) => (record[unit.symbol] !== undefined ? [[unit.symbol, record[unit.symbol]!] as [string, T]] : []));
  return {
    line,
    doc,
    paths: collected.paths,
    units,
    types: entries(facts.types),
    functions: entries(facts.functions),
    variables: entries(facts.variables),
    uses: facts.uses.slice(usesBefore),
    locals: facts.locals.slice(localBase),
    localBase,
  };
}

/**
 * A kept part as it reads where its node stands now: moved by `lines`, its locals numbered from
 * `localBase`, its methods' parents as the file's types give them. The very part when nothing
 * changed; else a new one, kept in its place, so that the next edit finds it where it is.
 */
function movedPart(part: GoDeclarationPart, lines: number, localBase: number, localTypes: ReadonlySet<string>): GoDeclarationPart {
  const parents = part.units.map((unit, index) => (unit.kind === 'method' ? methodParent(unit.file, receiverOf(part.paths[index]!), localTypes) : unit.parent));
  const renumber = localRenumbering(localBase - part.localBase);
  if (lines === 0 && localBase === part.localBase && parents.every((parent, index) => parent === part.units[index]!.parent)) return part;
  return {
    ...part,
    line: part.line + lines,
    units: part.units.map((unit, index) => {
      const parent = parents[index];
      return lines === 0 && parent === unit.parent ? unit : { ...unit, startLine: unit.startLine + lines, endLine: unit.endLine + lines, ...(parent !== undefined ? { parent } : {}) };
    }),
    types: part.types.map(([symbol, fact]) => [symbol, movedType(fact, lines)]),
    variables: part.variables.map(([symbol, fact]) => [symbol, fact.value ? { ...fact, value: renumber.value(fact.value) } : fact]),
    locals: part.locals.map((local) => (local.values.length === 0 ? local : { ...local, values: local.values.map(renumber.value) })),
    uses: part.uses.map((use) => {
      const path = renumber.path(use.path);
      return lines === 0 && path === use.path ? use : { ...use, line: use.line + lines, path };
    }),
    localBase,
  };
}

/** A method's receiver type, from its path (`Server.Handle`). */
function receiverOf(path: string): string {
  return path.slice(0, path.indexOf('.'));
}

/** A part's units and facts added to the file's, in source order. */
function addPart(part: GoDeclarationPart, facts: GoFacts, units: Unit[]): void {
  // One by one: a generated func can hold more uses than a spread's arguments may number.
  for (const unit of part.units) units.push(unit);
  for (const [symbol, fact] of part.types) facts.types[symbol] = fact;
  for (const [symbol, fact] of part.functions) facts.functions[symbol] = fact;
  for (const [symbol, fact] of part.variables) facts.variables[symbol] = fact;
  for (const local of part.locals) facts.locals.push(local);
  for (const use of part.uses) facts.uses.push(use);
}

function movedType(fact: TypeFact, lines: number): TypeFact {
  if (lines === 0) return fact;
  const fields = nameRecord<TypeFact['fields'][string]>();
  for (const [name, field] of Object.entries(fact.fields)) fields[name] = movedLines(field, lines);
  return { ...fact, line: fact.line + lines, fields, embedded: fact.embedded.map((embedded) => movedLines(embedded, lines)) };
}

/** Paths whose root is a local, numbered `by` further; every other path as it is. Each path once, so paths the file shared stay shared. */
function localRenumbering(by: number): { path: (path: ExprPath) => ExprPath; value: (value: ValuePath) => ValuePath } {
  const done = new Map<ExprPath, ExprPath>();
  const path = (old: ExprPath): ExprPath => {
    if (by === 0 || old.root.kind !== 'local') return old;
    let moved = done.get(old);
    if (moved === undefined) done.set(old, (moved = { ...old, root: { kind: 'local', local: old.root.local + by } }));
    return moved;
  };
  return { path, value: (value) => (by === 0 || value.path.root.kind !== 'local' ? value : { ...value, path: path(value.path) }) };
}
