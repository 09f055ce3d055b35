import { ts } from 'ts-morph';
import type { Edge, Slot, UnresolvedCall } from '../../graph/model.js';
import { mentionsAny } from './affected-files.js';
import type { UnitIndex } from './collect-units.js';
import type { FileResolution } from './resolve-edges.js';
import { isJavaScriptFile, lineOf, memberOfThis } from './unit-text.js';

/**
 * A modified file resolved again in part: when an edit lies inside one unit's body, only that
 * unit's declaration is walked with the checker, and every other record of the file's last
 * resolution is kept with its lines shifted past the edit. Anything this module cannot show to be
 * untouched by the edit makes it decline, and the caller resolves the whole file.
 */

/** One version of a modified file, as the session holds it. */
export interface FileVersion {
  path: string;
  text: string;
  index: UnitIndex;
  sourceFile: ts.SourceFile;
  resolution?: FileResolution;
}

/** The unit whose declaration holds the whole edit, in both versions. */
export interface PartialPlan {
  unitId: string;
  /** Its declaration in the new version: what gets resolved again. */
  declaration: ts.Node;
  /** First and last line of the declaration before the edit. */
  before: { start: number; end: number };
  after: { start: number; end: number };
  /** Lines the edit added (negative: removed): a kept record after the unit moves by this much. */
  delta: number;
  /** The new text outside the declaration: a changed name it mentions may resolve differently there. */
  keptText: string;
  /** The units declared inside it before the edit: the records they own are the ones replaced. */
  insideBefore: ReadonlySet<string>;
}

/** What the file keeps of its last resolution, shifted to the new lines. */
export interface KeptPart {
  edges: Edge[];
  unresolved: UnresolvedCall[];
  resolvedCallLines: number[];
  /** The slots the kept reads and writes reach, as last recorded. */
  slots: Slot[];
  externalImports: string[];
}

/**
 * Ancestors the whole-file walk descends through to a unit the same way, whatever the unit sits
 * in: a unit inside a call, a condition or a type is left to the whole-file walk.
 */
const TRANSPARENT_ANCESTORS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.SourceFile, ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.ClassExpression, ts.SyntaxKind.ObjectLiteralExpression,
  ts.SyntaxKind.PropertyAssignment, ts.SyntaxKind.PropertyDeclaration, ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.VariableDeclarationList,
  ts.SyntaxKind.VariableStatement, ts.SyntaxKind.ModuleDeclaration, ts.SyntaxKind.ModuleBlock, ts.SyntaxKind.Block,
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.ParenthesizedExpression, ts.SyntaxKind.AsExpression, ts.SyntaxKind.SatisfiesExpression,
]);

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** The identifiers an assignment target writes: a name, or the names inside a destructuring pattern. */
function targetNames(target: ts.Node, names: Set<string>): void {
  if (ts.isIdentifier(target)) names.add(target.text);
  else if (ts.isParenthesizedExpression(target)) targetNames(target.expression, names);
  else if (ts.isArrayLiteralExpression(target)) for (const element of target.elements) targetNames(ts.isSpreadElement(element) ? element.expression : element, names);
  else if (ts.isObjectLiteralExpression(target)) {
    for (const property of target.properties) {
      if (ts.isShorthandPropertyAssignment(property)) names.add(property.name.text);
      else if (ts.isPropertyAssignment(property)) targetNames(property.initializer, names);
      else if (ts.isSpreadAssignment(property)) targetNames(property.expression, names);
    }
  } else if (ts.isBinaryExpression(target) && target.operatorToken.kind === ts.SyntaxKind.EqualsToken) targetNames(target.left, names);
}

function boundNames(name: ts.BindingName, names: Set<string>): void {
  if (ts.isIdentifier(name)) names.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) boundNames(element.name, names);
}

/** `var` declarations and function declarations of a function body, hoisted to it: nested functions keep their own. */
function hoistedNames(body: ts.Node, names: Set<string>): void {
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && !(node.flags & ts.NodeFlags.BlockScoped)) for (const declaration of node.declarations) boundNames(declaration.name, names);
    if (ts.isFunctionDeclaration(node)) {
      if (node.name) names.add(node.name.text);
      return;
    }
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
}

/** The names a block, a loop head or a catch clause declares for itself: let, const, class and (in strict code) function declarations. */
function blockNames(node: ts.Node): Set<string> {
  const names = new Set<string>();
  const add = (list: ts.VariableDeclarationList): void => {
    if (list.flags & ts.NodeFlags.BlockScoped) for (const declaration of list.declarations) boundNames(declaration.name, names);
  };
  if (ts.isCatchClause(node) && node.variableDeclaration) boundNames(node.variableDeclaration.name, names);
  if ((ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) && node.initializer && ts.isVariableDeclarationList(node.initializer)) add(node.initializer);
  const statements = ts.isBlock(node) || ts.isModuleBlock(node) ? node.statements : ts.isCaseBlock(node) ? node.clauses.flatMap((clause) => [...clause.statements]) : [];
  for (const statement of statements) {
    if (ts.isVariableStatement(statement)) add(statement.declarationList);
    else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) names.add(statement.name.text);
  }
  return names;
}

/**
 * The variables from outside a declaration that it assigns, by name, sorted and joined: each
 * assignment target is looked up through the scopes inside the declaration (function parameters
 * and hoisted names, block-scoped names, catch and loop variables), and kept when none declares it.
 */
function outerAssignments(declaration: ts.Node): string {
  const outer = new Set<string>();
  const scopes: Array<ReadonlySet<string>> = [];
  const assign = (target: ts.Node): void => {
    const names = new Set<string>();
    targetNames(target, names);
    for (const name of names) if (!scopes.some((scope) => scope.has(name))) outer.add(name);
  };
  const visit = (node: ts.Node): void => {
    let scope: Set<string> | undefined;
    if (ts.isFunctionLike(node)) {
      scope = new Set<string>();
      for (const parameter of node.parameters) boundNames(parameter.name, scope);
      if ((ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.name) scope.add(node.name.text);
      if ('body' in node && node.body) hoistedNames(node.body, scope);
    } else if (ts.isClassLike(node) && node.name) scope = new Set([node.name.text]);
    else if (ts.isBlock(node) || ts.isModuleBlock(node) || ts.isCaseBlock(node) || ts.isCatchClause(node) || ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
      scope = blockNames(node);
    }
    if (scope) scopes.push(scope);
    if (ts.isBinaryExpression(node) && isAssignmentOperator(node.operatorToken.kind)) assign(node.left);
    else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) assign(node.operand);
    else if ((ts.isForInStatement(node) || ts.isForOfStatement(node)) && !ts.isVariableDeclarationList(node.initializer)) assign(node.initializer);
    ts.forEachChild(node, visit);
    if (scope) scopes.pop();
  };
  visit(declaration);
  return [...outer].sort().join(' ');
}

/**
 * Whether a declaration assigns a field whose type the assignments decide: in JavaScript every
 * `this.x =` does; in TypeScript, one to a field declared with neither type nor initializer.
 * A literal key (`this['x'] =`) assigns the field as the dot does, and the checker types it so.
 */
function assignsInferredField(declaration: ts.Node): boolean {
  const javaScript = isJavaScriptFile(declaration.getSourceFile().fileName);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    const name = ts.isBinaryExpression(node) && isAssignmentOperator(node.operatorToken.kind) ? memberOfThis(node.left) : undefined;
    if (name !== undefined) {
      const owner = ts.findAncestor(node, ts.isClassLike);
      found = javaScript || !owner || owner.members.some((member) => ts.isPropertyDeclaration(member) && !member.type && !member.initializer &&
        ts.isIdentifier(member.name) && member.name.text === name);
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

/** Lines shared at the start and at the end of two texts: the edit is what lies between. */
function commonLines(before: readonly string[], after: readonly string[]): { prefix: number; suffix: number } {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1;
  return { prefix, suffix };
}

interface Declared {
  id: string;
  node: ts.Node;
  start: number;
  end: number;
}

function declarationsOf(version: FileVersion): Declared[] {
  const found: Declared[] = [];
  for (const [node, id] of version.index.unitByDeclaration) {
    if (node === version.sourceFile || !version.index.units.has(id) || version.index.units.get(id)!.file !== version.path) continue;
    found.push({ id, node, start: node.getStart(version.sourceFile), end: node.getEnd() });
  }
  return found;
}

/** The units declared inside a declaration (itself included): the whole-file walk attributes everything in it to them. */
function unitsWithin(declarations: readonly Declared[], outer: Declared): Set<string> {
  return new Set(declarations.filter((inner) => inner.start >= outer.start && inner.end <= outer.end).map((inner) => inner.id));
}

/**
 * The innermost unit whose declaration holds the edit strictly inside its first and last lines,
 * in both versions, with every other unit of the file unchanged but for the shift.
 */
export function planPartialResolution(before: FileVersion, after: FileVersion): PartialPlan | undefined {
  const beforeLines = before.text.split('\n');
  const afterLines = after.text.split('\n');
  const { prefix, suffix } = commonLines(beforeLines, afterLines);
  if (prefix === beforeLines.length && prefix === afterLines.length) return undefined;
  const lastChanged = Math.max(prefix, afterLines.length - suffix);
  const afterDeclarations = declarationsOf(after);
  let holder: Declared | undefined;
  for (const declared of afterDeclarations) {
    const first = lineOf(after.sourceFile, declared.start);
    const last = lineOf(after.sourceFile, declared.end);
    if (first > prefix || last <= lastChanged) continue;
    if (!holder || declared.start > holder.start || (declared.start === holder.start && declared.end < holder.end)) holder = declared;
  }
  if (!holder) return undefined;
  const unitId = holder.id;
  if (afterDeclarations.some((declared) => declared.id === unitId && declared.node !== holder.node)) return undefined;
  for (let ancestor = holder.node.parent; ancestor; ancestor = ancestor.parent) if (!TRANSPARENT_ANCESTORS.has(ancestor.kind)) return undefined;

  const beforeDeclarations = declarationsOf(before);
  const previous = beforeDeclarations.filter((declared) => declared.id === unitId);
  if (previous.length !== 1) return undefined;
  const delta = afterLines.length - beforeLines.length;
  const beforeSpan = { start: lineOf(before.sourceFile, previous[0]!.start), end: lineOf(before.sourceFile, previous[0]!.end) };
  const afterSpan = { start: lineOf(after.sourceFile, holder.start), end: lineOf(after.sourceFile, holder.end) };
  if (beforeSpan.start !== afterSpan.start || beforeSpan.end + delta !== afterSpan.end) return undefined;

  // Every unit outside the edited one keeps its id, parent and span (shifted): the kept records name them.
  const shift = (line: number): number => (line > beforeSpan.end ? line + delta : line);
  const insideBefore = unitsWithin(beforeDeclarations, previous[0]!);
  const insideAfter = unitsWithin(afterDeclarations, holder);
  let outside = 0;
  for (const unit of after.index.units.values()) {
    if (insideAfter.has(unit.id)) continue;
    outside += 1;
    const old = before.index.units.get(unit.id);
    if (!old || insideBefore.has(unit.id) || old.parent !== unit.parent || shift(old.startLine) !== unit.startLine || shift(old.endLine) !== unit.endLine) return undefined;
  }
  if (outside !== before.index.units.size - insideBefore.size) return undefined;

  // Effects of a body on code around it that no declaration shows: assignments to outer variables
  // (narrowing in closures elsewhere depends on them) and to fields whose type they decide.
  if (outerAssignments(previous[0]!.node) !== outerAssignments(holder.node)) return undefined;
  if (assignsInferredField(previous[0]!.node) || assignsInferredField(holder.node)) return undefined;

  // A variable's initializer narrows its declared type where the same file uses it: the edit may be in that initializer.
  // (Without a declared type the initializer is the type, and a change to it changes the variable's name in the digest.)
  const keptText = after.text.slice(0, holder.start) + after.text.slice(holder.end);
  for (let node: ts.Node | undefined = holder.node; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isVariableDeclaration(node) && node.type && node.initializer && ts.isIdentifier(node.name) && mentionsAny(keptText, [node.name.text])) return undefined;
  }

  // Imports the unit makes at run time are listed per file without lines: an edit near one resolves the whole file.
  const beforeText = before.text.slice(previous[0]!.start, previous[0]!.end);
  const afterText = after.text.slice(holder.start, holder.end);
  if (mentionsAny(beforeText, ['import', 'require']) || mentionsAny(afterText, ['import', 'require'])) return undefined;

  return {
    unitId,
    declaration: holder.node,
    before: beforeSpan,
    after: afterSpan,
    delta,
    keptText,
    insideBefore,
  };
}

/**
 * The records of the last resolution that lie outside the edited unit, shifted. Declines (undefined)
 * when a record on the unit's lines belongs to another unit: then lines cannot tell them apart.
 */
export function keptPart(before: FileVersion, plan: PartialPlan): KeptPart | undefined {
  const resolution = before.resolution;
  if (!resolution?.resolvedCallLines) return undefined;
  const inside = plan.insideBefore;
  const { start, end } = plan.before;
  const within = (line: number): boolean => line >= start && line <= end;
  const shift = (line: number): number => (line > end ? line + plan.delta : line);

  const edges: Edge[] = [];
  for (const edge of resolution.edges) {
    const ownedInside = inside.has(edge.from);
    const lines: number[] = [];
    for (const line of edge.lines) {
      if (!within(line)) {
        if (ownedInside) return undefined;
        lines.push(shift(line));
      } else if (!ownedInside && !(edge.kind === 'contains' && edge.to === plan.unitId && line === start)) return undefined;
    }
    if (lines.length === 0) continue;
    const kept: Edge = { kind: edge.kind, from: edge.from, to: edge.to, lines };
    if (edge.via) kept.via = edge.via;
    edges.push(kept);
  }
  const unresolved: UnresolvedCall[] = [];
  for (const call of resolution.unresolved) {
    const ownedInside = inside.has(call.from);
    if (within(call.line) !== ownedInside) return undefined;
    if (!ownedInside) unresolved.push({ ...call, line: shift(call.line) });
  }
  const resolvedCallLines = resolution.resolvedCallLines.filter((line) => !within(line)).map(shift);
  const reached = new Set(edges.filter((edge) => edge.kind === 'reads' || edge.kind === 'writes').map((edge) => edge.to));
  return {
    edges,
    unresolved,
    resolvedCallLines,
    slots: resolution.slots.filter((slot) => reached.has(slot.id)),
    externalImports: [...resolution.externalImports],
  };
}

/**
 * The kept records and the edited unit's fresh ones as one file resolution; `slotNow` gives a
 * kept slot's record as its declaration reads now (undefined: gone, so decline).
 */
export function mergeResolution(kept: KeptPart, fresh: FileResolution, plan: PartialPlan, slotNow: (slot: Slot) => Slot | undefined): FileResolution | undefined {
  const byKey = new Map<string, Edge>();
  for (const edge of kept.edges) byKey.set(`${edge.kind}\u0000${edge.from}\u0000${edge.to}`, edge);
  for (const edge of fresh.edges) {
    if (edge.lines.some((line) => line < plan.after.start || line > plan.after.end)) return undefined;
    const key = `${edge.kind}\u0000${edge.from}\u0000${edge.to}`;
    const existing = byKey.get(key);
    if (!existing) {
      byKey.set(key, edge);
      continue;
    }
    if (existing.via !== edge.via) return undefined;
    existing.lines = [...new Set([...existing.lines, ...edge.lines])].sort((a, b) => a - b);
  }
  const slots = new Map<string, Slot>();
  for (const slot of kept.slots) {
    const now = slotNow(slot);
    if (!now) return undefined;
    slots.set(now.id, now);
  }
  for (const slot of fresh.slots) slots.set(slot.id, slot);
  const resolvedCallLines = [...kept.resolvedCallLines, ...(fresh.resolvedCallLines ?? [])].sort((a, b) => a - b);
  const unresolved = [...kept.unresolved, ...fresh.unresolved];
  return {
    edges: [...byKey.values()],
    unresolved,
    slots: [...slots.values()],
    externalImports: kept.externalImports,
    callSites: resolvedCallLines.length + unresolved.length,
    resolvedCalls: resolvedCallLines.length,
    resolvedCallLines,
  };
}
