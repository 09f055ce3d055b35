import type { Unit } from '../../graph/model.js';
import type { Expression, FunctionFact, ImplFact, ImportFact, LocalFact, RustFacts, StaticFact, TraitFact, TypeDeclarationFact, UseFact } from './rust-facts.js';

/**
 * What was read of one fn of a Rust file (at its top, or a member of a top-level impl): its units
 * (its own, then those of the items in its body) and every fact its read adds, as read where it
 * stood then. What its body declares is named under the fn and seen only inside it.
 * The next extraction of the file reuses it for the same node (lent by the next tree's copy, see
 * KeptDeclarations) when what it took from outside its node is the same: the text before it
 * (attributes, doc comments, blank lines), its impl's head, the symbols its paths get after the
 * items before it, and whether the file's one opaque local was made before it. The rest moves or
 * is set again on reuse: lines move by what the node moved, its locals are numbered after the
 * locals before it (and the opaque local it named is the file's now), and a member's parent is set
 * again when the file's types are all known (see unitCollector's finish).
 */
export interface RustFunctionPart {
  /** The line the node started on. */
  line: number;
  /** The text from the sibling before to the node: its attributes and doc comments. */
  lead: string;
  /** The text of the head of the impl it is a member of; '' at the file's top. */
  head: string;
  /** Each unit's path, its symbol before a duplicate's suffix. */
  paths: string[];
  name: string;
  /** Its own unit first, then those its body declares. */
  units: Unit[];
  functions: Array<[string, FunctionFact]>;
  types: Array<[string, TypeDeclarationFact]>;
  traits: Array<[string, TraitFact]>;
  statics: Array<[string, StaticFact]>;
  impls: ImplFact[];
  inlineModules: string[];
  macros: RustFacts['macros'];
  uses: UseFact[];
  locals: LocalFact[];
  /** The `use` declarations in its body, which bind names there. */
  imports: ImportFact[];
  /** The index of its first local among the file's: uses name locals by index. */
  localBase: number;
  /** The file's opaque local before it, if there was one: its bindings of nothing known name it. */
  opaqueBefore: number | undefined;
  /** The opaque local it made, when there was none before it. */
  opaqueOwn?: number;
}

/**
 * A kept part as it reads where its node stands now: on `line`, its locals numbered from
 * `localBase`, naming `opaque` for the file's opaque local. The very part when nothing moved; else
 * a new one, kept in its place, so that the next edit finds it where it is.
 */
export function movedFunctionPart(part: RustFunctionPart, line: number, localBase: number, opaque: number | undefined): RustFunctionPart {
  const lines = line - part.line;
  const by = localBase - part.localBase;
  if (lines === 0 && by === 0 && opaque === part.opaqueBefore) return part;
  const renumber = localRenumbering(part.localBase, by, part.opaqueBefore, opaque);
  return {
    ...part,
    line,
    units: lines === 0 ? part.units : part.units.map((unit) => ({ ...unit, startLine: unit.startLine + lines, endLine: unit.endLine + lines })),
    types: lines === 0 ? part.types : part.types.map(([symbol, fact]) => [symbol, movedType(fact, lines)]),
    traits: lines === 0 ? part.traits : part.traits.map(([symbol, fact]) => [symbol, { ...fact, supertraits: fact.supertraits.map((bound) => ({ ...bound, line: bound.line + lines })) }]),
    impls: lines === 0 ? part.impls : part.impls.map((fact) => ({ ...fact, line: fact.line + lines })),
    uses: part.uses.map((use) => {
      const expression = renumber(use.expression);
      return lines === 0 && expression === use.expression ? use : { ...use, line: use.line + lines, expression };
    }),
    imports: lines === 0 ? part.imports : part.imports.map((fact) => ({ ...fact, line: fact.line + lines })),
    locals: part.locals.map((local) => (local.value === undefined ? local : { ...local, value: renumber(local.value) })),
    localBase,
    opaqueBefore: opaque,
    ...(part.opaqueOwn !== undefined ? { opaqueOwn: part.opaqueOwn + by } : {}),
  };
}

function movedType(fact: TypeDeclarationFact, lines: number): TypeDeclarationFact {
  const fields: TypeDeclarationFact['fields'] = Object.create(null);
  for (const [name, field] of Object.entries(fact.fields)) fields[name] = { ...field, line: field.line + lines };
  return { ...fact, fields };
}

/**
 * Expressions rooted at a local numbered again: the part's own locals move `by`, the opaque local
 * it found made before it becomes the file's one now. Each expression once, so expressions the
 * part shared stay shared.
 */
function localRenumbering(base: number, by: number, oldOpaque: number | undefined, newOpaque: number | undefined): (expression: Expression) => Expression {
  const done = new Map<Expression, Expression>();
  return (old) => {
    if (old.root.kind !== 'local') return old;
    const local = old.root.local;
    const now = local >= base ? local + by : local === oldOpaque ? newOpaque! : local;
    if (now === local) return old;
    let moved = done.get(old);
    if (moved === undefined) done.set(old, (moved = { ...old, root: { kind: 'local', local: now } }));
    return moved;
  };
}
