import { ts } from 'ts-morph';
import { STATIC_SLOT_PREFIX, type Edge, type EdgeKind, type Slot, type Unit, type UnresolvedCall, type UnresolvedReason } from '../../graph/model.js';
import { compareText } from '../../graph/order.js';
import type { FileResolution } from '../front-end.js';

export type { FileResolution } from '../front-end.js';
import type { UnitIndex } from './collect-units.js';
import type { ModuleResolver } from './create-program.js';
import { accessedName, isJavaScriptFile, lineLocator, lineOf, memberOfThis } from './unit-text.js';

/** Array, Map and Set methods that change their receiver: `this.history.push(x)` writes `history`. */
const MUTATING_METHODS = new Set([
  'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin',
  'set', 'delete', 'add', 'clear',
]);

type Target = { kind: 'unit'; ids: string[]; dispatch: string[] } | { kind: 'unresolved'; reason: UnresolvedReason };

export interface EdgeResolverInput {
  program: ts.Program;
  checker: ts.TypeChecker;
  index: UnitIndex;
  /** Absolute file name → path from the repository root, for the files in the graph. */
  repoPathOf: Map<string, string>;
  /** Module resolution shared with the program, so imports and symbols agree. */
  resolveModule: ModuleResolver;
  /** One file's own unit index (for looking up a declaration by unit id within it). */
  indexOfFile: (file: string) => UnitIndex | undefined;
}

/** The type literal the property of `owner` under `key` (see firstMemberDeclarations) holds (`Interface.nested`), if any. */
function nestedTypeLiteral(owner: ts.Node, key: string): ts.Node | undefined {
  const member = firstMemberDeclarations(owner).get(key);
  return member && (ts.isPropertySignature(member) || ts.isPropertyDeclaration(member)) && member.type && ts.isTypeLiteralNode(member.type) ? member.type : undefined;
}

function isStaticMember(member: ts.ClassElement): boolean {
  return ts.isClassStaticBlockDeclaration(member) || (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static) !== 0;
}

/** Whether a type literal is what a static field holds, directly or through outer literals: its members are the constructor's state too. */
function heldByStatic(literal: ts.Node): boolean {
  const holder = literal.parent;
  if (ts.isPropertyDeclaration(holder)) return isStaticMember(holder);
  return ts.isPropertySignature(holder) && ts.isTypeLiteralNode(holder.parent) && heldByStatic(holder.parent);
}

/**
 * The class member whose `this` is where `node` stands, as the binder decides it: arrow functions
 * pass `this` through, any other function or container stops it. JavaScript declares a class's
 * field by a `this.x =` only there: an instance's, or in a static member the constructor's.
 */
function classMemberOfThis(node: ts.Node): ts.ClassElement & { parent: ts.ClassLikeDeclaration } | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isArrowFunction(current)) continue;
    if (ts.isComputedPropertyName(current)) return undefined;
    if ((ts.isConstructorDeclaration(current) || ts.isMethodDeclaration(current) || ts.isGetAccessor(current) || ts.isSetAccessor(current) ||
      ts.isPropertyDeclaration(current) || ts.isClassStaticBlockDeclaration(current)) && ts.isClassLike(current.parent)) {
      return current as ts.ClassElement & { parent: ts.ClassLikeDeclaration };
    }
    if (ts.isFunctionLike(current) || ts.isModuleDeclaration(current) || ts.isSourceFile(current) || ts.isClassLike(current)) return undefined;
  }
  return undefined;
}

/**
 * The `this.x` or `this['x']` a JavaScript declaration of a field by assignment names: the checker
 * lists the assignment (`this.x = v`) as the declaration, the member walk below its target. A
 * private name (`this.#x = v`) declares nothing, as the binder has it.
 */
function assignedMemberOfThis(declaration: ts.Node): ts.Node | undefined {
  const target = ts.isBinaryExpression(declaration) && declaration.operatorToken.kind === ts.SyntaxKind.EqualsToken ? declaration.left : declaration;
  if (memberOfThis(target) === undefined || (ts.isPropertyAccessExpression(target) && ts.isPrivateIdentifier(target.name))) return undefined;
  return target;
}

const memberDeclarationsOf = new WeakMap<ts.Node, ReadonlyMap<string, ts.Node>>();

/**
 * Each member's first declaration in source order under an owner: a property, a parameter
 * property, or (in JavaScript, which declares members by assignment) a `this.x =` or `this['x'] =` in a body.
 * A static member is under its name with STATIC_SLOT_PREFIX, as its slot is: an instance member may share the name.
 * One walk per owner, kept while its syntax tree lives: a sync asks for many members of one class.
 */
function firstMemberDeclarations(owner: ts.Node): ReadonlyMap<string, ts.Node> {
  const known = memberDeclarationsOf.get(owner);
  if (known) return known;
  const container = ts.isTypeAliasDeclaration(owner) ? owner.type : owner;
  // Only JavaScript declares members by assignment; in TypeScript `this.x = ...` is a use.
  const javaScript = isJavaScriptFile(owner.getSourceFile().fileName);
  const found = new Map<string, ts.Node>();
  const record = (name: string, node: ts.Node, isStatic = false): void => {
    const key = isStatic ? `${STATIC_SLOT_PREFIX}${name}` : name;
    if (!found.has(key)) found.set(key, node);
  };
  if (!javaScript) {
    // Without assignments to look for, only the direct members and the constructor's parameter properties can declare one.
    const members: readonly ts.Node[] = ts.isClassLike(container) || ts.isInterfaceDeclaration(container) || ts.isTypeLiteralNode(container) ? container.members : [];
    for (const member of members) {
      if ((ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) &&
          (ts.isIdentifier(member.name) || ts.isPrivateIdentifier(member.name) || ts.isStringLiteral(member.name))) record(member.name.text, member, ts.isPropertyDeclaration(member) && isStaticMember(member));
      if (ts.isConstructorDeclaration(member)) {
        for (const parameter of member.parameters) if (ts.isIdentifier(parameter.name) && ts.getModifiers(parameter)?.length) record(parameter.name.text, parameter);
      }
    }
    memberDeclarationsOf.set(owner, found);
    return found;
  }
  const visit = (node: ts.Node): void => {
    if ((ts.isPropertyDeclaration(node) || ts.isPropertySignature(node)) && node.parent === container) {
      if (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)) record(node.name.text, node, ts.isPropertyDeclaration(node) && isStaticMember(node));
      return;
    }
    if (ts.isParameter(node) && ts.isIdentifier(node.name) && ts.getModifiers(node)?.length && ts.isConstructorDeclaration(node.parent)) {
      record(node.name.text, node);
      return;
    }
    // The binder declares a field by `this.x = v` (or a `this.x;` typed by JSDoc) only where `this` is the class's.
    const declares = (ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) ||
      (ts.isExpressionStatement(node.parent) && ts.getJSDocTypeTag(node.parent) !== undefined);
    const member = declares && assignedMemberOfThis(node) ? classMemberOfThis(node) : undefined;
    if (member?.parent === container) {
      record(memberOfThis(node)!, node, isStaticMember(member));
      return;
    }
    if (node !== container && (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node))) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(container, visit);
  memberDeclarationsOf.set(owner, found);
  return found;
}

/** Collects edges with one record per (kind, from, to), every occurrence line kept. */
class EdgeSink {
  private readonly edges = new Map<string, Edge>();

  add(kind: EdgeKind, from: string, to: string, line: number, via?: Edge['via']): void {
    if (from === to && kind !== 'calls') return;
    const key = `${kind}\u0000${from}\u0000${to}`;
    const existing = this.edges.get(key);
    if (existing) {
      if (!existing.lines.includes(line)) existing.lines.push(line);
      return;
    }
    const edge: Edge = { kind, from, to, lines: [line] };
    if (via) edge.via = via;
    this.edges.set(key, edge);
  }

  list(): Edge[] {
    for (const edge of this.edges.values()) edge.lines.sort((a, b) => a - b);
    return [...this.edges.values()];
  }
}

class FileAccumulator {
  readonly sink = new EdgeSink();
  readonly unresolved: UnresolvedCall[] = [];
  readonly slots = new Set<string>();
  readonly externalImports = new Set<string>();
  readonly resolvedCallLines: number[] = [];

  addResolvedCall(line: number): void {
    this.resolvedCallLines.push(line);
  }

  result(known: ReadonlyMap<string, Slot>): FileResolution {
    return {
      edges: this.sink.list(),
      unresolved: this.unresolved,
      slots: [...this.slots].map((id) => known.get(id)!),
      externalImports: [...this.externalImports].sort(),
      callSites: this.resolvedCallLines.length + this.unresolved.length,
      resolvedCalls: this.resolvedCallLines.length,
      resolvedCallLines: this.resolvedCallLines.sort((a, b) => a - b),
    };
  }
}

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** How an expression's reference is used where it stands: `x = v` only stores into it; `x += v` and `x++` read it, then store. */
type ReferenceUse = 'read' | 'write' | 'read-write';

/** The expression with the parentheses and non-null assertions around it, which change nothing about how it is used. */
function withWrappers(node: ts.Node): ts.Node {
  let current = node;
  while (ts.isParenthesizedExpression(current.parent) || ts.isNonNullExpression(current.parent)) current = current.parent;
  return current;
}

/**
 * Whether an expression is one of the targets a destructuring assignment stores into:
 * `[this.a, this.b] = pair`, `({ id: this.id } = saved)`, `for ([key, this.last] of entries)`.
 */
function isDestructuringTarget(node: ts.Node): boolean {
  let current = node;
  let insideLiteral = false;
  for (;;) {
    const parent = current.parent;
    if (ts.isArrayLiteralExpression(parent) || ts.isObjectLiteralExpression(parent)) insideLiteral = true;
    else if (!(ts.isParenthesizedExpression(parent) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent) ||
        (ts.isShorthandPropertyAssignment(parent) && parent.name === current) ||
        (ts.isPropertyAssignment(parent) && parent.initializer === current))) break;
    current = parent;
  }
  // Only as the left side of `=` (or what a for-of or for-in assigns) is an array or object literal a pattern.
  if (!insideLiteral) return false;
  const parent = current.parent;
  if (ts.isBinaryExpression(parent)) return parent.left === current && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  return (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === current;
}

function referenceUse(node: ts.Node): ReferenceUse {
  const current = withWrappers(node);
  const parent = current.parent;
  if (ts.isBinaryExpression(parent) && parent.left === current && isAssignmentOperator(parent.operatorToken.kind))
    return parent.operatorToken.kind === ts.SyntaxKind.EqualsToken ? 'write' : 'read-write';
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) &&
      (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return 'read-write';
  return isDestructuringTarget(current) ? 'write' : 'read';
}

/**
 * Whether an object or array literal is a pattern the checker types as a destructuring
 * assignment's target: the left of `=` or of a for-of, or nested in one as a property's value
 * or an element. Only those may be passed to getTypeOfAssignmentPattern, which asserts as much.
 */
function isAssignmentPattern(node: ts.Node): node is ts.ObjectLiteralExpression | ts.ArrayLiteralExpression {
  if (!ts.isObjectLiteralExpression(node) && !ts.isArrayLiteralExpression(node)) return false;
  const parent = node.parent;
  if (ts.isBinaryExpression(parent)) return parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  if (ts.isForOfStatement(parent)) return parent.initializer === node;
  if (ts.isPropertyAssignment(parent)) return parent.initializer === node && isAssignmentPattern(parent.parent);
  return ts.isArrayLiteralExpression(parent) && isAssignmentPattern(parent);
}

/** A name in a declaration or import/export clause is not a use of it. */
function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isDeclarationStatement(parent) || ts.isVariableDeclaration(parent) || ts.isParameter(parent) ||
      ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isBindingElement(parent) ||
      ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent) || ts.isFunctionExpression(parent) ||
      ts.isClassExpression(parent) || ts.isLabeledStatement(parent)) &&
    (parent as ts.NamedDeclaration).name === node
  ) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) ||
    ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent) || ts.isBreakOrContinueStatement(parent);
}

function calleeText(expression: ts.Expression, sourceFile: ts.SourceFile): string {
  const text = expression.getText(sourceFile).replace(/\s+/g, ' ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function skipTypeParentheses(type: ts.TypeNode): ts.TypeNode {
  while (ts.isParenthesizedTypeNode(type)) type = type.type;
  return type;
}

/** The alias a type is the whole of, or a part of an intersection that is (`type T = A & { ... }`). */
function aliasOfType(type: ts.TypeNode): ts.TypeAliasDeclaration | undefined {
  let node: ts.Node = type;
  // Up through parentheses and intersections: each part of `A & { ... }` is part of what the alias is.
  while (ts.isParenthesizedTypeNode(node.parent) || ts.isIntersectionTypeNode(node.parent)) node = node.parent;
  return ts.isTypeAliasDeclaration(node.parent) && node.parent.type === node ? node.parent : undefined;
}

function leftmostIdentifier(expression: ts.Expression): ts.Identifier | undefined {
  let current: ts.Expression = expression;
  for (;;) {
    if (ts.isIdentifier(current)) return current;
    if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current) || ts.isCallExpression(current) ||
        ts.isNonNullExpression(current) || ts.isParenthesizedExpression(current) || ts.isAsExpression(current)) {
      current = current.expression;
      continue;
    }
    return undefined;
  }
}

const NODE_BUILTINS = new Set(['assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'string_decoder', 'timers', 'tls', 'tty', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib']);

/** The package a bare specifier names (`@scope/name`, `name`, `node:fs`); relative paths that did not resolve are not packages. */
export function externalModuleName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined;
  if (specifier.startsWith('node:')) return specifier.split('/')[0] === 'node:fs' && specifier.endsWith('/promises') ? 'node:fs' : specifier.replace(/\/.*$/, '');
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  if (NODE_BUILTINS.has(name) || NODE_BUILTINS.has(specifier)) return `node:${name}`;
  return name;
}

/**
 * Pass two: with the type checker, resolve what every unit calls, instantiates, extends, passes
 * by reference, reads and writes. Calls through an interface or a base method also reach every
 * implementation in the repository (`via: dispatch`); a call that resolves to nothing in the
 * repository is kept with its text and a reason.
 */
export class EdgeResolver {
  private file = new FileAccumulator();
  private readonly slots = new Map<string, Slot>();
  private readonly slotByDeclaration = new Map<ts.Node, string | null>();
  /** The declarations whose slots are being looked for, outermost first, and those found on a loop of redeclarations. */
  private readonly slotsUnderWay: ts.Node[] = [];
  private readonly slotsOnLoop = new Set<ts.Node>();
  /** Each root slot joined to a smaller one, towards the slot of their set (see joinedSlot); made on first use. */
  private joinedRoots: Map<string, string> | undefined;
  private readonly subtypes = new Map<string, Set<string>>();
  private readonly memberUnits = new Map<string, string>();
  private readonly externalAliasCache = new Map<ts.Symbol, boolean>();
  private readonly literalMembers = new Map<ts.ObjectLiteralExpression, ts.Type | undefined>();
  private readonly checker: ts.TypeChecker;
  private readonly index: UnitIndex;

  constructor(private readonly input: EdgeResolverInput) {
    this.checker = input.checker;
    this.index = input.index;
  }

  /**
   * The extends and implements edges of some classes and interfaces (one file's, say), resolved
   * with the checker: to a class, an interface, or an alias (`implements Shape`, `type Shape = ...`).
   */
  heritageOf(declarations: UnitIndex['typeDeclarations'], intersections: UnitIndex['intersections']): Edge[] {
    const heritage = new EdgeSink();
    for (const { id, node } of declarations) {
      if (!this.isInProgram(node)) continue;
      const sourceFile = node.getSourceFile();
      for (const clause of node.heritageClauses ?? []) {
        const isExtends = clause.token === ts.SyntaxKind.ExtendsKeyword;
        for (const type of clause.types) {
          const target = this.heritageTarget(type.expression);
          if (target) heritage.add(isExtends ? 'extends' : 'implements', id, target, lineOf(sourceFile, type.getStart(sourceFile)));
        }
      }
    }
    // An alias of an intersection (`type Both = A & B`) is each constituent and more, as an
    // interface extending them is: a call through A reaches a class that implements Both.
    for (const intersection of intersections) {
      const alias = aliasOfType(intersection);
      const id = alias && this.isInProgram(alias) ? this.index.unitByDeclaration.get(alias) : undefined;
      if (!id) continue;
      const sourceFile = alias!.getSourceFile();
      for (const constituent of intersection.types) {
        const type = skipTypeParentheses(constituent);
        if (!ts.isTypeReferenceNode(type)) continue;
        const target = this.heritageTarget(type.typeName);
        if (target && target !== id) heritage.add('extends', id, target, lineOf(sourceFile, type.getStart(sourceFile)));
      }
    }
    return heritage.list();
  }

  /** The repository's class, interface or alias a heritage clause or an intersection names, if any. */
  private heritageTarget(name: ts.Node): string | undefined {
    const target = this.unitOfSymbol(this.symbolAt(name));
    const kind = target === undefined ? undefined : this.index.units.get(target)?.kind;
    return kind === 'class' || kind === 'interface' || kind === 'type' ? target : undefined;
  }

  /** The whole hierarchy, before any file is resolved: calls through a base type reach every implementation in it. */
  useHeritage(edges: Iterable<Edge>): void {
    for (const unit of this.index.units.values()) {
      if (unit.parent && (unit.kind === 'method' || unit.kind === 'property' || unit.kind === 'accessor')) {
        const parent = this.index.units.get(unit.parent);
        if (parent?.kind === 'class') this.memberUnits.set(`${parent.id}\u0000${unit.symbol.slice(parent.symbol.length + 1)}`, unit.id);
      }
    }
    for (const edge of edges) {
      let children = this.subtypes.get(edge.to);
      if (!children) this.subtypes.set(edge.to, (children = new Set()));
      children.add(edge.from);
    }
  }

  /** Imports of a file known only by its text, found by the compiler's import scanner. */
  resolveImportsOfText(file: string, absolute: string, text: string): FileResolution {
    this.file = new FileAccumulator();
    const lineAt = lineLocator(text);
    for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
      const resolved = this.input.resolveModule(reference.fileName, absolute);
      const target = resolved && this.input.repoPathOf.get(resolved.resolvedFileName);
      if (!target) this.addExternalImport(reference.fileName);
      else if (target !== file) this.file.sink.add('imports', file, target, lineAt(reference.pos));
    }
    return this.file.result(this.slots);
  }

  /** Everything the units of one file call, reference, read and write, independent of the order files are resolved in. */
  resolveFile(sourceFile: ts.SourceFile, file: string): FileResolution {
    return this.walk(sourceFile, file, (visit) => ts.forEachChild(sourceFile, visit));
  }

  /**
   * The part of a file's resolution that one unit's declaration yields: its own and its nested
   * units' edges, calls and state, and the `contains` edge into it; the same records a whole-file
   * walk attributes to them.
   */
  resolveDeclaration(sourceFile: ts.SourceFile, file: string, declaration: ts.Node): FileResolution {
    return this.walk(sourceFile, file, (visit) => visit(declaration));
  }

  private walk(sourceFile: ts.SourceFile, file: string, start: (visit: (node: ts.Node) => void) => void): FileResolution {
    this.file = new FileAccumulator();
    const stack: string[] = [file];
    const current = (): string => stack[stack.length - 1]!;
    const line = (node: ts.Node): number => lineOf(sourceFile, node.getStart(sourceFile));

    const visit = (node: ts.Node): void => {
      const unitId = this.index.unitByDeclaration.get(node);
      if (unitId !== undefined && unitId !== file) {
        this.file.sink.add('contains', this.index.units.get(unitId)?.parent ?? file, unitId, line(node));
        stack.push(unitId);
        this.visitChildren(node, visit);
        stack.pop();
        return;
      }
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
        if (node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) this.addImport(sourceFile, file, node.moduleSpecifier);
        if (ts.isExportDeclaration(node)) this.visitChildren(node, visit);
        return;
      }
      if (ts.isHeritageClause(node)) return;
      if (ts.isCallExpression(node)) {
        this.visitCall(node, sourceFile, current(), line(node));
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword || this.isRequire(node)) {
          const specifier = node.arguments[0];
          if (specifier && ts.isStringLiteralLike(specifier)) this.addImport(sourceFile, file, specifier);
        }
        const callee = node.expression;
        if (ts.isPropertyAccessExpression(callee)) visit(callee.expression);
        else if (ts.isElementAccessExpression(callee)) {
          visit(callee.expression);
          visit(callee.argumentExpression);
        } else if (!ts.isIdentifier(callee)) visit(callee);
        for (const argument of node.arguments) visit(argument);
        return;
      }
      if (ts.isNewExpression(node)) {
        const target = this.unitOfSymbol(this.symbolAt(node.expression));
        if (target && this.index.units.get(target)?.kind === 'class') this.file.sink.add('instantiates', current(), target, line(node));
        if (!ts.isIdentifier(node.expression)) visit(node.expression);
        for (const argument of node.arguments ?? []) visit(argument);
        return;
      }
      // `x['p']` is `x.p` spelled otherwise; a computed key is an expression of its own, visited below.
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const accessed = accessedName(node);
        if (accessed) {
          this.visitMemberUse(node, accessed, current(), line(node));
          visit(node.expression);
          return;
        }
      }
      if (ts.isIdentifier(node)) {
        if (this.index.declaredNames.has(node.text) && !isDeclarationName(node)) this.visitNameUse(node, current(), line(node));
        return;
      }
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        this.visitPropertyBinding(node, current(), line(node));
        // The property name is resolved above, as a member of what is destructured; only a computed one is an expression.
        if (node.propertyName && ts.isComputedPropertyName(node.propertyName)) visit(node.propertyName);
        visit(node.name);
        if (node.initializer) visit(node.initializer);
        return;
      }
      if ((ts.isShorthandPropertyAssignment(node) || ts.isPropertyAssignment(node)) && isAssignmentPattern(node.parent)) {
        this.visitAssignedProperty(node, node.parent, current(), line(node));
      } else if (ts.isShorthandPropertyAssignment(node) || ts.isPropertyAssignment(node)) {
        this.visitLiteralProperty(node, current(), line(node));
      }
      if (ts.isShorthandPropertyAssignment(node)) {
        if (this.index.declaredNames.has(node.name.text)) {
          const symbol = this.checker.getShorthandAssignmentValueSymbol(node);
          this.recordNameUse(symbol, node.name, current(), line(node));
        }
        // `({ a = f() } = source)`: the default runs where the pattern stands, as a binding element's initializer does.
        if (node.objectAssignmentInitializer) visit(node.objectAssignmentInitializer);
        return;
      }
      this.visitChildren(node, visit);
    };
    start(visit);
    return this.file.result(this.slots);
  }

  /** Type annotations never call or touch state; skipping them is most of the speed of this pass. */
  private visitChildren(node: ts.Node, visit: (child: ts.Node) => void): void {
    ts.forEachChild(node, (child) => {
      if (ts.isTypeNode(child) && !ts.isExpressionWithTypeArguments(child)) return;
      visit(child);
    });
  }

  private isRequire(node: ts.CallExpression): boolean {
    return ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1;
  }

  private addImport(sourceFile: ts.SourceFile, file: string, specifier: ts.StringLiteralLike): void {
    const usageMode = ts.getModeForUsageLocation(sourceFile, specifier, this.input.program.getCompilerOptions());
    const resolved = this.input.resolveModule(specifier.text, sourceFile.fileName, usageMode);
    const target = resolved && this.input.repoPathOf.get(resolved.resolvedFileName);
    if (!target) this.addExternalImport(specifier.text);
    else if (target !== file) this.file.sink.add('imports', file, target, lineOf(sourceFile, specifier.getStart(sourceFile)));
  }

  private addExternalImport(specifier: string): void {
    const name = externalModuleName(specifier);
    if (name) this.file.externalImports.add(name);
  }

  private symbolAt(node: ts.Node): ts.Symbol | undefined {
    return this.throughAlias(this.checker.getSymbolAtLocation(node));
  }

  private throughAlias(symbol: ts.Symbol | undefined): ts.Symbol | undefined {
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
      const aliased = this.checker.getAliasedSymbol(symbol);
      if (aliased && !(aliased.flags & ts.SymbolFlags.Alias) && aliased.declarations?.length) symbol = aliased;
    }
    return symbol;
  }

  private unitOfSymbol(symbol: ts.Symbol | undefined): string | undefined {
    for (const declaration of declarationsOf(symbol)) {
      const id = this.index.unitByDeclaration.get(declaration);
      if (id) return id;
    }
    return undefined;
  }

  private isInRepository(node: ts.Node): boolean {
    return this.input.repoPathOf.has(node.getSourceFile().fileName);
  }

  /** Every member of a subtype of `ownerId` (transitively) that overrides or implements `memberName`. */
  private implementationsOf(ownerId: string, memberName: string): string[] {
    const found = new Set<string>();
    const seen = new Set<string>([ownerId]);
    const queue = [ownerId];
    while (queue.length > 0) {
      const type = queue.shift()!;
      for (const subtype of this.subtypes.get(type) ?? []) {
        if (seen.has(subtype)) continue;
        seen.add(subtype);
        queue.push(subtype);
        const member = this.memberUnits.get(`${subtype}\u0000${memberName}`);
        if (member) found.add(member);
      }
    }
    return [...found].sort();
  }

  private ownerUnitOf(declaration: ts.Node): string | undefined {
    const owner = declaration.parent;
    if (owner && (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner))) return this.index.unitByDeclaration.get(owner);
    // A member of an alias's type literal (`type Runner = { run(): void }`, or one part of an intersection) belongs to the alias.
    const alias = owner && ts.isTypeLiteralNode(owner) ? aliasOfType(owner) : undefined;
    return alias ? this.index.unitByDeclaration.get(alias) : undefined;
  }

  private targetOf(symbol: ts.Symbol | undefined, callee: ts.Expression): Target {
    if (!symbol?.declarations?.length) return { kind: 'unresolved', reason: this.isExternalRoot(callee) ? 'external' : 'unknown' };
    // An import whose module is not in the repository (a package, a Node built-in) stays an alias.
    if (symbol.flags & ts.SymbolFlags.Alias) return { kind: 'unresolved', reason: 'external' };
    const ids = new Set<string>();
    const dispatch = new Set<string>();
    let inRepository = false;
    // Calling what a property holds reads it: through a getter, never the setter beside it.
    const hasGetter = symbol.declarations.some(ts.isGetAccessor);
    for (const declaration of symbol.declarations) {
      if (!this.isInRepository(declaration)) continue;
      inRepository = true;
      if (hasGetter && ts.isSetAccessor(declaration)) continue;
      const direct = this.index.unitByDeclaration.get(declaration);
      if (direct) ids.add(direct);
      const owner = this.ownerUnitOf(declaration);
      const name = ts.getNameOfDeclaration(declaration as ts.Declaration);
      if (owner && name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))) {
        for (const implementation of this.implementationsOf(owner, name.text)) if (!ids.has(implementation)) dispatch.add(implementation);
        if (!direct && dispatch.size === 0 && ts.isMethodSignature(declaration)) ids.add(owner);
      }
      if (!direct && ts.isClassLike(declaration)) {
        const constructorId = `${this.index.unitByDeclaration.get(declaration)}.constructor`;
        ids.add(this.index.units.has(constructorId) ? constructorId : this.index.unitByDeclaration.get(declaration)!);
      }
    }
    if (ids.size === 0 && dispatch.size === 0)
      return { kind: 'unresolved', reason: inRepository ? 'dynamic' : 'external' };
    return { kind: 'unit', ids: [...ids].sort(), dispatch: [...dispatch].sort() };
  }

  /** Whether the expression starts from a name imported from a module outside the repository. */
  private isExternalRoot(callee: ts.Expression): boolean {
    const root = leftmostIdentifier(callee);
    if (!root) return false;
    const symbol = this.checker.getSymbolAtLocation(root);
    // A name declared nowhere in the program is a global of an environment not loaded (Node, DOM).
    if (!symbol) return true;
    const cached = this.externalAliasCache.get(symbol);
    if (cached !== undefined) return cached;
    let external = false;
    if (symbol.flags & ts.SymbolFlags.Alias) {
      const aliased = this.checker.getAliasedSymbol(symbol);
      external = !aliased.declarations?.some((declaration) => this.isInRepository(declaration));
    } else {
      external = !!symbol.declarations?.length && !symbol.declarations.some((declaration) => this.isInRepository(declaration));
    }
    this.externalAliasCache.set(symbol, external);
    return external;
  }

  private visitCall(node: ts.CallExpression, sourceFile: ts.SourceFile, from: string, line: number): void {
    const callee = node.expression;
    if (callee.kind === ts.SyntaxKind.ImportKeyword || this.isRequire(node)) return;
    if (callee.kind === ts.SyntaxKind.SuperKeyword) {
      const symbol = this.checker.getSymbolAtLocation(callee);
      const target = this.unitOfSymbol(symbol);
      if (target) {
        this.file.addResolvedCall(line);
        const constructorId = `${target}.constructor`;
        this.file.sink.add('calls', from, this.index.units.has(constructorId) ? constructorId : target, line);
      }
      return;
    }
    let nameNode: ts.Node = callee;
    // `x['m']()` is `x.m()` spelled otherwise: the checker resolves the literal to the same method.
    const member = accessedName(callee);
    if (member) {
      nameNode = member;
      // A method name that nothing in the repository declares cannot reach repository code.
      const name = member.text;
      if (!this.index.memberNames.has(name) && !this.index.declaredNames.has(name)) {
        this.file.unresolved.push({ from, text: calleeText(callee, sourceFile), line, reason: 'external' });
        return;
      }
    }
    const target = this.targetOf(this.symbolAt(nameNode), callee);
    if (target.kind === 'unresolved') {
      this.file.unresolved.push({ from, text: calleeText(callee, sourceFile), line, reason: target.reason });
      return;
    }
    this.file.addResolvedCall(line);
    for (const id of target.ids) this.file.sink.add('calls', from, id, line, 'direct');
    for (const id of target.dispatch) this.file.sink.add('calls', from, id, line, 'dispatch');
  }

  private visitMemberUse(node: ts.PropertyAccessExpression | ts.ElementAccessExpression, name: ts.MemberName | ts.StringLiteralLike, from: string, line: number): void {
    if (!this.index.memberNames.has(name.text)) return;
    this.recordMemberUse(this.checker.getSymbolAtLocation(name), referenceUse(node), this.isWritePosition(node), from, line);
  }

  /** Whether an expression's value is replaced or mutated where it stands, rather than read. */
  private isWritePosition(node: ts.Node): boolean {
    if (referenceUse(node) !== 'read') return true;
    const current = withWrappers(node);
    const parent = current.parent;
    if (ts.isDeleteExpression(parent)) return true;
    if (!(ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) || parent.expression !== current) return false;
    // `this.x.push(v)` changes the object held in `x`.
    if (ts.isPropertyAccessExpression(parent) && MUTATING_METHODS.has(parent.name.text)) {
      return ts.isCallExpression(parent.parent) && parent.parent.expression === parent;
    }
    // So do `this.x[key] = v` and `this.x.p = v`, unless p is state of its own, which the store reaches instead.
    return this.isWritePosition(parent) && !this.memberIsState(parent);
  }

  /** Whether `x.p` or `x['p']` names state of its own, a slot or an accessor, rather than an entry of the object in `x`. */
  private memberIsState(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): boolean {
    const name = accessedName(access);
    if (!name || !this.index.memberNames.has(name.text)) return false;
    const symbol = this.checker.getSymbolAtLocation(name);
    if (!symbol?.declarations?.length) return false;
    const unit = this.unitOfSymbol(symbol);
    if (unit) return this.index.units.get(unit)?.kind === 'accessor';
    return this.slotOf(declarationsOf(symbol)[0]!) !== undefined;
  }

  /** `const { a, b: c } = source` reads `source.a` and `source.b`, as `source.a` would. */
  private visitPropertyBinding(element: ts.BindingElement, from: string, line: number): void {
    // A rest element takes the members no other element names: it names none itself.
    if (element.dotDotDotToken) return;
    this.readDestructured(element.propertyName ?? element.name, () => this.checker.getTypeAtLocation(element.parent), from, line);
  }

  /** `({ a, b: this.c } = source)` reads `source.a` and `source.b`, as `const { a, b: c } = source` does. */
  private visitAssignedProperty(property: ts.ShorthandPropertyAssignment | ts.PropertyAssignment, pattern: ts.ObjectLiteralExpression, from: string, line: number): void {
    this.readDestructured(property.name, () => this.checker.getTypeOfAssignmentPattern(pattern), from, line);
  }

  /**
   * `const cfg: Settings = { x: 1 }`, `return { x: 1 }` from a function declared to return
   * Settings, `{ x: 1 } satisfies Settings`, an argument to a Settings parameter: the literal makes
   * an object of the type it is written for, and sets x of it, as a constructor sets its fields.
   * The type is the checker's contextual type; of a union, the one member the literal's own
   * properties fit (see literalMember), and none when several do: writing each would credit all.
   */
  private visitLiteralProperty(property: ts.ShorthandPropertyAssignment | ts.PropertyAssignment, from: string, line: number): void {
    const name = property.name;
    if (!(ts.isIdentifier(name) || ts.isStringLiteral(name)) || !this.index.memberNames.has(name.text)) return;
    const contextual = this.checker.getContextualType(property.parent);
    if (!contextual) return;
    const nonNullable = this.checker.getNonNullableType(contextual);
    const type = nonNullable.isUnion() ? this.literalMember(property.parent, nonNullable) : nonNullable;
    if (!type) return;
    const symbol = this.checker.getPropertyOfType(type, name.text);
    // A literal defines its own property: no accessor of the type runs, and a method it supplies is no state.
    if (!symbol?.declarations?.length || this.unitOfSymbol(symbol)) return;
    this.recordSlotUse(declarationsOf(symbol)[0]!, true, from, line);
  }

  /**
   * The member of a union a literal is written as: the only one that has every property the literal
   * spells, each with a type the literal's value fits (`{ status: 'done', ... }` of a union told
   * apart by status). Only what the literal spells is compared, so the answer changes only with the
   * declarations of names its file spells, which an edit elsewhere re-resolves it for.
   */
  private literalMember(literal: ts.ObjectLiteralExpression, union: ts.UnionType): ts.Type | undefined {
    if (this.literalMembers.has(literal)) return this.literalMembers.get(literal);
    const spelled = literal.properties.filter((property) => ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)).flatMap((property) => {
      const name = property.name;
      return ts.isIdentifier(name) || ts.isStringLiteral(name) ? [{ key: name.text, value: ts.isPropertyAssignment(property) ? property.initializer : property.name }] : [];
    });
    const fitting = union.types.filter((member) => spelled.every(({ key, value }) => {
      const declared = this.checker.getPropertyOfType(member, key);
      return declared !== undefined && this.checker.isTypeAssignableTo(this.checker.getTypeAtLocation(value), this.checker.getTypeOfSymbolAtLocation(declared, literal));
    }));
    const found = fitting.length === 1 ? fitting[0] : undefined;
    this.literalMembers.set(literal, found);
    return found;
  }

  /** The read of member `name` of what a pattern destructures; its type is asked for only when a member of the repository has that name. */
  private readDestructured(name: ts.Node, destructured: () => ts.Type, from: string, line: number): void {
    if (!(ts.isIdentifier(name) || ts.isStringLiteral(name))) return;
    // A module namespace is destructured too: its members are the module's declarations.
    if (!this.index.memberNames.has(name.text) && !this.index.declaredNames.has(name.text)) return;
    this.recordMemberUse(this.throughAlias(this.checker.getPropertyOfType(destructured(), name.text)), 'read', false, from, line);
  }

  /** `use` tells which accessors run; `writes` whether state held in the member is stored or mutated. */
  private recordMemberUse(symbol: ts.Symbol | undefined, use: ReferenceUse, writes: boolean, from: string, line: number): void {
    if (!symbol?.declarations?.length) return;
    const declaration = declarationsOf(symbol)[0]!;
    const unit = this.unitOfSymbol(symbol);
    if (unit) {
      const kind = this.index.units.get(unit)?.kind;
      if (kind === 'variable') {
        // State reached as `module.name` is the same slot as by its bare name.
        // A unit's use of itself is no edge, so no slot either: slots are what edges reach.
        if (this.index.stateVariables.has(unit) && unit !== from) this.ensureModuleSlot(unit);
        this.file.sink.add(writes ? 'writes' : 'reads', from, unit, line);
      }
      else if (kind === 'accessor') for (const accessor of this.accessorsRun(symbol, use)) this.file.sink.add('calls', from, accessor, line, 'direct');
      else this.file.sink.add('references', from, unit, line);
      return;
    }
    this.recordSlotUse(declaration, writes, from, line);
  }

  private recordSlotUse(declaration: ts.Declaration, writes: boolean, from: string, line: number): void {
    const slot = this.slotOf(declaration);
    if (!slot) return;
    this.file.slots.add(slot);
    this.file.sink.add(writes ? 'writes' : 'reads', from, slot, line);
  }

  /**
   * The accessor units a use of a property runs: a read its getter, a store its setter, `+=` and
   * `++` both. A property with only one of the two is credited with that one, whatever the use.
   */
  private accessorsRun(symbol: ts.Symbol, use: ReferenceUse): string[] {
    const runs = (declaration: ts.Declaration): boolean =>
      (use !== 'write' && ts.isGetAccessor(declaration)) || (use !== 'read' && ts.isSetAccessor(declaration));
    const ids = (symbol.declarations ?? []).filter(runs).flatMap((declaration) => this.index.unitByDeclaration.get(declaration) ?? []);
    if (ids.length > 0) return ids;
    const only = this.unitOfSymbol(symbol);
    return only ? [only] : [];
  }

  private visitNameUse(node: ts.Identifier, from: string, line: number): void {
    const symbol = this.symbolAt(node);
    this.recordNameUse(symbol, node, from, line);
  }

  private recordNameUse(symbol: ts.Symbol | undefined, node: ts.Identifier, from: string, line: number): void {
    const unit = this.unitOfSymbol(symbol);
    if (!unit || unit === from) return;
    const target = this.index.units.get(unit);
    if (!target) return;
    if (target.kind === 'variable') {
      if (this.index.stateVariables.has(unit)) {
        this.ensureModuleSlot(unit);
        this.file.sink.add(this.isWritePosition(node) ? 'writes' : 'reads', from, unit, line);
      } else this.file.sink.add('references', from, unit, line);
      return;
    }
    if (target.kind === 'function' || target.kind === 'method' || target.kind === 'property' || target.kind === 'class' || target.kind === 'enum')
      this.file.sink.add('references', from, unit, line);
  }

  private ensureModuleSlot(unitId: string): void {
    this.file.slots.add(unitId);
    if (!this.slots.has(unitId)) this.slots.set(unitId, this.moduleSlot(this.index.units.get(unitId)!));
  }

  private moduleSlot(unit: Unit): Slot {
    return { id: unit.id, kind: 'module-variable', file: unit.file, owner: unit.file, name: unit.symbol, line: unit.startLine, type: '' };
  }

  private readonly nodeOfUnit = new Map<string, Map<string, ts.Node>>();

  /**
   * A slot's record as its declaring file now reads, for a file whose accesses were not resolved
   * again: its line and type come from the declaration, which may have moved. The declaration is
   * the first in source order under the owner, as the checker lists a property's declarations.
   */
  currentSlot(slot: Slot): Slot | undefined {
    const variable = this.index.units.get(slot.id);
    if (variable) return variable.kind === 'variable' ? this.moduleSlot(variable) : undefined;
    // Only the slot's own file can declare it: its index, not the whole tree's, is searched.
    let nodeOfUnit = this.nodeOfUnit.get(slot.file);
    if (!nodeOfUnit) {
      const fileIndex = this.input.indexOfFile(slot.file);
      this.nodeOfUnit.set(slot.file, (nodeOfUnit = new Map([...(fileIndex?.unitByDeclaration ?? [])].map(([node, id]) => [id, node]))));
    }
    const segments = slot.owner.slice(slot.file.length + 1).split('.');
    // Only the member right under the class is static; what its type literal holds is keyed by name alone.
    const isStatic = slot.id.startsWith(STATIC_SLOT_PREFIX, slot.file.length + 1);
    const keyOf = (name: string, underClass: boolean): string => (isStatic && underClass ? `${STATIC_SLOT_PREFIX}${name}` : name);
    let owner: ts.Node | undefined;
    let taken = segments.length;
    while (taken > 0 && !(owner = nodeOfUnit.get(`${slot.file}#${segments.slice(0, taken).join('.')}`))) taken -= 1;
    const nested = segments.slice(taken);
    nested.forEach((name, at) => (owner = owner && nestedTypeLiteral(owner, keyOf(name, at === 0))));
    if (!owner) return undefined;
    const declaration = firstMemberDeclarations(owner).get(keyOf(slot.name, nested.length === 0));
    if (!declaration) return undefined;
    const fresh = this.createSlot(declaration);
    return fresh?.id === slot.id ? fresh : undefined;
  }

  /** The state slot a property declaration stands for, or undefined when it is not shared state (a method, a local object). */
  private slotOf(declaration: ts.Node): string | undefined {
    const root = this.rootSlotOf(declaration);
    return root === undefined ? undefined : this.joinedSlot(root);
  }

  /** The slot a declaration's chain of redeclarations ends in, before slots joined across supertypes are made one. */
  private rootSlotOf(declaration: ts.Node): string | undefined {
    const cached = this.slotByDeclaration.get(declaration);
    if (cached !== undefined) return cached ?? undefined;
    let id: string | undefined;
    let redeclares = false;
    this.slotsUnderWay.push(declaration);
    for (const inherited of this.redeclaredProperties(declaration)) {
      redeclares = true;
      // Heritage can come round where the checker lets it (`class A implements B`, `class B implements A`, an interface
      // in the loop of circular bases): each declaration on the loop keeps its own slot, whichever of them is met first.
      const at = this.slotsUnderWay.indexOf(inherited);
      if (at >= 0) {
        for (const node of this.slotsUnderWay.slice(at)) this.slotsOnLoop.add(node);
        continue;
      }
      if ((id = this.rootSlotOf(inherited))) break;
    }
    this.slotsUnderWay.pop();
    if (this.slotsOnLoop.has(declaration)) id = undefined;
    // JavaScript's `this.name = v` in a subclass of Error assigns the base's property, as the TypeScript it was compiled from did: no slot of its own.
    const assignsInherited = redeclares && !ts.isPropertyDeclaration(declaration) && !ts.isParameter(declaration) && !ts.isPropertySignature(declaration);
    if (!id && !assignsInherited) {
      const slot = this.createSlot(declaration);
      if (slot && !this.slots.has(slot.id)) this.slots.set(slot.id, slot);
      id = slot?.id;
    }
    this.slotByDeclaration.set(declaration, id ?? null);
    return id;
  }

  /**
   * The slot a root slot is joined into. A type with several supertypes that declare a property
   * of one name (`class C implements A, B`, `interface AB extends A, B`, `class S extends Base
   * implements I` inheriting Base's field) has one such property, whichever supertype code reaches
   * it through; the redeclaration chain follows only the first, so the roots of the others are
   * joined to it here. So has a value of an intersection (`A & B`), whose property the checker
   * gives the declarations of every constituent, of which a use is credited with the first.
   * Only these can join two roots: a single supertype's chain already ends in its root. Which
   * roots meet depends on types anywhere in the tree, so every one is found once, before the
   * first slot is asked for; the joined slot is the smallest id among the roots, whatever order
   * they are met in, so a root joined to none keeps its id.
   */
  private joinedSlot(root: string): string {
    if (!this.joinedRoots) {
      this.joinedRoots = new Map();
      for (const { node } of this.index.typeDeclarations) this.joinRootsOf(node);
      for (const node of this.index.intersections) this.joinRootsOfIntersection(node);
    }
    let joined = root;
    for (let next = this.joinedRoots.get(joined); next !== undefined; next = this.joinedRoots.get(joined)) joined = next;
    return joined;
  }

  private joinRootsOf(type: ts.ClassLikeDeclaration | ts.InterfaceDeclaration): void {
    const supertypes = (type.heritageClauses ?? []).flatMap((clause) => clause.types);
    if (supertypes.length < 2 || !this.isInProgram(type)) return;
    this.joinRootsAcross(supertypes.map((supertype) => this.checker.getTypeAtLocation(supertype)));
  }

  /** `A & B`, and each intersection of a union the checker makes of one (`(A | B) & C` is `(A & C) | (B & C)`). */
  private joinRootsOfIntersection(node: ts.IntersectionTypeNode): void {
    if (!this.isInProgram(node)) return;
    const type = this.checker.getTypeFromTypeNode(node);
    for (const member of type.isUnion() ? type.types : [type]) if (member.isIntersection()) this.joinRootsAcross(member.types);
  }

  /** As for heritage edges: a file outside the program (a test file) has no types to ask the checker about. */
  private isInProgram(node: ts.Node): boolean {
    const sourceFile = node.getSourceFile();
    return this.input.program.getSourceFile(sourceFile.fileName) === sourceFile;
  }

  /** Joins the roots of the properties of one name that several of the types have. */
  private joinRootsAcross(types: readonly ts.Type[]): void {
    const rootsByName = new Map<string, string[]>();
    for (const type of types) {
      for (const property of this.checker.getPropertiesOfType(type)) {
        // As recordMemberUse reaches a member: a unit (an accessor, a method held in a field) is no slot.
        const declaration = property.declarations?.[0];
        if (!declaration || !this.isInRepository(declaration) || this.unitOfSymbol(property)) continue;
        const root = this.rootSlotOf(declaration);
        if (root === undefined) continue;
        const roots = rootsByName.get(property.name);
        if (roots) roots.push(root);
        else rootsByName.set(property.name, [root]);
      }
    }
    for (const roots of rootsByName.values()) for (const root of roots.slice(1)) this.join(roots[0]!, root);
  }

  private join(a: string, b: string): void {
    const first = this.joinedSlot(a);
    const second = this.joinedSlot(b);
    if (first === second) return;
    if (compareText(first, second) < 0) this.joinedRoots!.set(second, first);
    else this.joinedRoots!.set(first, second);
  }

  /**
   * The properties of supertypes that a declaration declares again, in heritage order (a base
   * class before the interfaces a class implements): the first of them with a slot is its root
   * slot, which joinedSlot makes one with the roots of the others.
   * An instance has one property of a name, whichever declaration code reaches it through:
   * - a base class's field an instance field redeclares (`override x = 1`, `declare x: T`, a
   *   parameter property, in JavaScript a `this.x =` in an instance member);
   * - an interface's property a class field implements, or an extending interface redeclares:
   *   `named.label` through the interface and `this.label` in the class read and write the same
   *   state, so were they two slots, no writer through one would meet a reader through the other.
   *   The cost is that two classes implementing one interface share its slot, as two subclasses
   *   share their base's: a register cannot tell which class's instances code typed by the
   *   interface reaches, and one slot says so rather than splitting what may be the same object.
   * A static redeclared is a property of another constructor, and no interface describes it.
   */
  private *redeclaredProperties(declaration: ts.Node): Generator<ts.Node> {
    let heritage: readonly ts.HeritageClause[] | undefined;
    let name: string | undefined;
    const declaredName = (node: ts.PropertyName | ts.BindingName): string | undefined => ts.isIdentifier(node) || ts.isStringLiteral(node) ? node.text : undefined;
    const assigned = isJavaScriptFile(declaration.getSourceFile().fileName) ? assignedMemberOfThis(declaration) : undefined;
    if (ts.isPropertyDeclaration(declaration) && !isStaticMember(declaration)) {
      heritage = declaration.parent.heritageClauses;
      name = declaredName(declaration.name);
    } else if (ts.isPropertySignature(declaration) && ts.isInterfaceDeclaration(declaration.parent)) {
      heritage = declaration.parent.heritageClauses;
      name = declaredName(declaration.name);
    } else if (ts.isParameter(declaration) && ts.isConstructorDeclaration(declaration.parent) && ts.getModifiers(declaration)?.length) {
      heritage = declaration.parent.parent.heritageClauses;
      name = declaredName(declaration.name);
    } else if (assigned) {
      // JavaScript's `this.x = v` in a subclass's instance member declares the subclass's own property, as `override x` would.
      const member = classMemberOfThis(assigned);
      if (!member || isStaticMember(member)) return;
      heritage = member.parent.heritageClauses;
      name = memberOfThis(assigned);
    }
    if (!heritage || name === undefined) return;
    for (const clause of heritage) {
      for (const type of clause.types) {
        const inherited = this.checker.getPropertyOfType(this.checker.getTypeAtLocation(type), name)?.declarations?.[0];
        if (inherited) yield inherited;
      }
    }
  }

  private createSlot(declaration: ts.Node): Slot | undefined {
    if (!this.isInRepository(declaration)) return undefined;
    const sourceFile = declaration.getSourceFile();
    const file = this.input.repoPathOf.get(sourceFile.fileName)!;
    let name: string | undefined;
    let ownerNode: ts.Node | undefined;
    let typeNode: ts.TypeNode | undefined;
    let kind: Slot['kind'] = 'property';
    let isStatic = false;
    if (ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration)) {
      if (ts.isPropertyDeclaration(declaration) && declaration.initializer && (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))) return undefined;
      name = ts.isIdentifier(declaration.name) || ts.isPrivateIdentifier(declaration.name) || ts.isStringLiteral(declaration.name) ? declaration.name.text : undefined;
      ownerNode = declaration.parent;
      typeNode = declaration.type;
      if (ts.isPropertyDeclaration(declaration)) kind = 'field';
      isStatic = ts.isPropertyDeclaration(declaration) ? isStaticMember(declaration) : ts.isTypeLiteralNode(ownerNode) && heldByStatic(ownerNode);
    } else if (ts.isParameter(declaration) && ts.isIdentifier(declaration.name) && ts.getModifiers(declaration)?.length) {
      name = declaration.name.text;
      ownerNode = declaration.parent.parent;
      typeNode = declaration.type;
      kind = 'field';
    } else {
      // JavaScript's `this.x = v`, as the checker lists it or as the member walk finds its target.
      const assigned = isJavaScriptFile(sourceFile.fileName) ? assignedMemberOfThis(declaration) : undefined;
      const member = assigned && classMemberOfThis(assigned);
      if (assigned && member) {
        declaration = assigned;
        name = memberOfThis(assigned);
        ownerNode = member.parent;
        kind = 'field';
        isStatic = isStaticMember(member);
      }
    }
    if (!name || !ownerNode) return undefined;
    const owner = this.ownerPath(ownerNode);
    if (!owner) return undefined;
    const typeText = typeNode ? typeNode.getText(sourceFile).replace(/\s+/g, ' ') : '';
    return {
      id: `${file}#${isStatic ? STATIC_SLOT_PREFIX : ''}${owner}.${name}`,
      kind,
      file,
      owner: `${file}#${owner}`,
      name,
      line: lineOf(sourceFile, declaration.getStart(sourceFile)),
      type: typeText.length > 120 ? `${typeText.slice(0, 119)}…` : typeText,
    };
  }

  /** `Class`, `Interface`, `Alias` or `Interface.nested` for a property inside a nested type literal. */
  private ownerPath(node: ts.Node): string | undefined {
    const unitId = this.index.unitByDeclaration.get(node);
    if (unitId) return this.index.units.get(unitId)?.symbol;
    if (ts.isTypeLiteralNode(node)) {
      const holder = node.parent;
      if (ts.isTypeAliasDeclaration(holder)) {
        const id = this.index.unitByDeclaration.get(holder);
        return id ? this.index.units.get(id)?.symbol : undefined;
      }
      if ((ts.isPropertySignature(holder) || ts.isPropertyDeclaration(holder)) && ts.isIdentifier(holder.name)) {
        const outer = this.ownerPath(holder.parent);
        return outer ? `${outer}.${holder.name.text}` : undefined;
      }
    }
    return undefined;
  }

}

/**
 * A symbol's declarations, those of a property of a union or an intersection in source order (by
 * file, then position). The checker lists such a property's declarations by its constituents' type
 * ids, which follow what the program happened to check first: a kept-open program and a cold one
 * would credit one use to different constituents, and a sync would differ from a build.
 */
function declarationsOf(symbol: ts.Symbol | undefined): readonly ts.Declaration[] {
  const declarations = symbol?.declarations ?? [];
  if (declarations.length < 2 || !(symbol!.flags & ts.SymbolFlags.Transient)) return declarations;
  return [...declarations].sort((a, b) => compareText(a.getSourceFile().fileName, b.getSourceFile().fileName) || a.pos - b.pos);
}
