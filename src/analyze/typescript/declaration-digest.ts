import { ts } from 'ts-morph';
import { shortHash } from '../../graph/content-hash.js';
import type { UnitIndex } from './collect-units.js';
import { importsOfJoinSites, joinSites } from './join-sites.js';
import { memberOfThis, tokenTextReader, type TokenTextReader } from './unit-text.js';

import type { DeclarationDigest } from '../front-end.js';

export type { DeclarationDigest } from '../front-end.js';

/** The digest entry of a file's export statements (`export * from`, `export { a } from`, `export { b }`); no identifier can take this name. */
export const EXPORTS_ENTRY = '*exports';

/**
 * The digest entry of a file's join sites (see joinSites) with the imports their names resolve
 * through: an edit to either can join or part slots that code elsewhere reaches by names no edit
 * changed. Only in a file that has join sites.
 */
export const JOINS_ENTRY = '*joins';

/**
 * A file's code as the digest reads it: by tokens, so re-indenting or reflowing a declaration
 * keeps its hash while any character inside a literal (`x: 'a  b'`) moves it.
 */
interface DeclarationText {
  sourceFile: ts.SourceFile;
  span(start: number, end: number): string;
  of(node: ts.Node): string;
}

function declarationText(sourceFile: ts.SourceFile, span: TokenTextReader): DeclarationText {
  return { sourceFile, span, of: (node) => span(node.getStart(sourceFile), node.end) };
}

/** The heading of the class, interface or type alias a member belongs to, through nested type literals. */
function ownerHeading(node: ts.Node, headingOfNode: ReadonlyMap<ts.Node, string>, text: DeclarationText): string | undefined {
  for (let owner = node.parent; owner; owner = owner.parent) {
    const heading = headingOfNode.get(owner);
    if (heading !== undefined) return heading;
    if (ts.isTypeAliasDeclaration(owner)) return text.span(owner.getStart(text.sourceFile), owner.type.pos);
    if (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner) || ts.isSourceFile(owner) || ts.isBlock(owner)) return undefined;
  }
  return undefined;
}

/** The type annotation of a declaration, when it has one: a changed name inside it changes what the declaration holds. */
export function annotationOf(node: ts.Node): ts.Node | undefined {
  if (ts.isTypeAliasDeclaration(node)) return node.type;
  if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node) || ts.isVariableDeclaration(node)) && node.type) return node.type;
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isMethodSignature(node) || ts.isGetAccessor(node)) && node.type) return node.type;
  if (ts.isVariableDeclaration(node) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) return node.initializer.type;
  // `x = make() as Pet` holds a Pet: the assertion is its annotation.
  if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && node.initializer) {
    const asserted = withoutWrappers(node.initializer);
    if (ts.isAsExpression(asserted) && !isConstAssertion(asserted)) return asserted.type;
  }
  return undefined;
}

function isConstAssertion(expression: ts.AsExpression): boolean {
  return ts.isTypeReferenceNode(expression.type) && ts.isIdentifier(expression.type.typeName) && expression.type.typeName.text === 'const';
}

/** The name other files use for a unit or slot id: `a.ts#Loop.run~2` → `run`; a file id has none. */
export function declaredNameOf(id: string): string | undefined {
  const hashAt = id.indexOf('#');
  if (hashAt < 0) return undefined;
  const symbol = id.slice(hashAt + 1).replace(/~\d+$/, '');
  return symbol.slice(symbol.lastIndexOf('.') + 1);
}

/** The file an id belongs to: units, slots and file units all start with the file's path. */
export function fileOfId(id: string): string {
  const hashAt = id.indexOf('#');
  return hashAt < 0 ? id : id.slice(0, hashAt);
}

export function declarationDigest(index: UnitIndex, sourceFile: ts.SourceFile | undefined, tokenText?: TokenTextReader): DeclarationDigest {
  const text = sourceFile && declarationText(sourceFile, tokenText ?? tokenTextReader(sourceFile));
  const parts = new Map<string, string[]>();
  const add = (name: string, part: string): void => {
    const list = parts.get(name);
    if (list) list.push(part);
    else parts.set(name, [part]);
  };
  const shapes = new Map<string, string>();
  // A member is reached through its type's heritage too (dispatch): when the heading changes, so does every member.
  const headings = new Map<string, string>();
  const headingOfNode = new Map<ts.Node, string>();
  if (text) {
    for (const { id, node } of index.typeDeclarations) {
      const heading = text.span(node.getStart(text.sourceFile), node.members.pos);
      shapes.set(id, typeShape(node, heading, text));
      headings.set(id, heading);
      headingOfNode.set(node, heading);
    }
  }
  const declarationOf = new Map<string, ts.Node>();
  for (const [node, id] of index.unitByDeclaration) if (!declarationOf.has(id)) declarationOf.set(id, node);
  for (const unit of index.units.values()) {
    const name = declaredNameOf(unit.id);
    if (!name) continue;
    const heading = unit.parent === undefined ? undefined : headings.get(unit.parent);
    const declaration = declarationOf.get(unit.id);
    const surface = shapes.get(unit.id) ?? (text && declaration ? outwardText(declaration, text) : undefined) ?? unit.hash;
    // The symbol path too: a unit that ends up nested elsewhere (a syntax error upstream) has a new id under the same name.
    // Whether a variable is state comes from its initializer, past what the surface shows: its readers' edges (reads or references) follow it.
    const state = index.stateVariables.has(unit.id) ? 'state' : '';
    add(name, `${unit.symbol}\u0000${unit.exported ? 'export' : ''}\u0000${state}\u0000${heading === undefined ? surface : `${surface}\u0000${heading}`}`);
  }
  if (text) {
    for (const { name, node } of index.memberDeclarations) {
      const heading = ownerHeading(node, headingOfNode, text);
      // As for units: with declared types, a body or initializer is not what uses elsewhere see.
      const surface = `${outwardText(node, text) ?? text.of(node)}${constructorAssignments(node, text)}`;
      add(name, heading === undefined ? surface : `${surface}\u0000${heading}`);
    }
    // What the file exports by name or passes through from other modules: a barrel declares nothing of its own.
    // A default export declared in place (`export default class Thing`) is imported under a local name: what it is and is called counts too.
    const exports = text.sourceFile.statements.flatMap((statement) => {
      if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) return [text.of(statement)];
      const isDefault = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
      if (!isDefault) return [];
      const name = ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) ? statement.name?.text : undefined;
      return [`default ${ts.SyntaxKind[statement.kind]} ${name ?? ''}`];
    });
    if (exports.length > 0) add(EXPORTS_ENTRY, exports.join('\u0000'));
    const sites = joinSites(index);
    if (sites.length > 0) {
      add(JOINS_ENTRY, [...sites, ...importsOfJoinSites(sites, text.sourceFile)].map((node) => text.of(node)).join('\u0000'));
    }
  }
  const digest: DeclarationDigest = {};
  for (const name of [...parts.keys()].sort()) digest[name] = shortHash(parts.get(name)!.join('\u0000'));
  return digest;
}

/**
 * What other files can see of a function or variable with declared types: its text up to the
 * body or initializer. An edit inside the body then changes no name for them. Without an
 * annotation the type comes from the body, so the whole text counts (undefined: use the hash).
 */
function outwardText(declaration: ts.Node, text: DeclarationText): string | undefined {
  if (hasInferredType(declaration)) return undefined;
  let end: number | undefined;
  if ((ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isGetAccessor(declaration) || ts.isSetAccessor(declaration) ||
       ts.isConstructorDeclaration(declaration)) && declaration.body) end = declaration.body.pos;
  else if ((ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration) || ts.isPropertyAssignment(declaration)) && declaration.initializer) {
    const initializer = declaration.initializer;
    end = (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) ? initializer.body.pos : initializer.pos;
    // `x = make() as Dog` is typed by its assertion, which sits after the initializer starts.
    const asserted = withoutWrappers(initializer);
    const declaredType = ts.isPropertyAssignment(declaration) ? undefined : declaration.type;
    if (!declaredType && ts.isAsExpression(asserted)) return `${text.span(declaration.getStart(text.sourceFile), end)}\u0000as\u0000${text.of(asserted.type)}`;
  }
  if (end === undefined) return undefined;
  return text.span(declaration.getStart(text.sourceFile), end);
}

function withoutWrappers(expression: ts.Expression): ts.Expression {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
  return inner;
}

/**
 * A field declared with neither type nor initializer takes its type from the constructor's
 * assignments to it (`this.x = new Dog()`, `this['x'] = new Dog()`): their text is part of what other code sees of it.
 */
function constructorAssignments(node: ts.Node, text: DeclarationText): string {
  if (!ts.isPropertyDeclaration(node) || node.type || node.initializer || !ts.isIdentifier(node.name)) return '';
  const name = node.name.text;
  const found: string[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isBinaryExpression(child) && child.operatorToken.kind === ts.SyntaxKind.EqualsToken && memberOfThis(child.left) === name) found.push(text.of(child));
    if (!ts.isClassLike(child) && !ts.isFunctionLike(child)) ts.forEachChild(child, visit);
  };
  for (const member of node.parent.members) if (ts.isConstructorDeclaration(member) && member.body) ts.forEachChild(member.body, visit);
  return found.join('\u0001');
}

/**
 * A class or interface as other files see it apart from its members (which have digest entries
 * of their own): heading, type parameters, heritage, and the member names. A method body edit
 * then changes the method's name, not the class's, which every file using the class mentions.
 */
function typeShape(node: ts.ClassLikeDeclaration | ts.InterfaceDeclaration, heading: string, text: DeclarationText): string {
  // Index, call and construct signatures have no name of their own to carry a digest entry: their text is part of the shape.
  // So is a constructor's, where it decides the type of a field declared with neither type nor initializer.
  const fieldsFromConstructor = ts.isClassLike(node) && node.members.some((member) => ts.isPropertyDeclaration(member) && !member.type && !member.initializer);
  const members = node.members.map((member) => {
    if (member.name) return text.of(member.name);
    if (ts.isIndexSignatureDeclaration(member) || ts.isCallSignatureDeclaration(member) || ts.isConstructSignatureDeclaration(member) ||
        (fieldsFromConstructor && ts.isConstructorDeclaration(member))) return text.of(member);
    return ts.SyntaxKind[member.kind];
  });
  return `${heading}\u0000${members.join('\u0001')}`;
}

function isFunctionLike(node: ts.Node): node is ts.SignatureDeclaration {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node);
}

/**
 * Whether a unit's type is inferred from its body (no annotation): then an edit to what it
 * calls or reads can change its type, and with it how uses elsewhere resolve.
 */
export function hasInferredType(declaration: ts.Node): boolean {
  if (isFunctionLike(declaration)) return !declaration.type;
  if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)) {
    if (declaration.type) return false;
    if (!declaration.initializer) return false;
    const initializer = withoutWrappers(declaration.initializer);
    // `as const` asserts nothing but the literal's own type.
    return isFunctionLike(initializer) ? !initializer.type : !ts.isAsExpression(initializer) || isConstAssertion(initializer);
  }
  if (ts.isPropertyAssignment(declaration)) return isFunctionLike(declaration.initializer) ? !declaration.initializer.type : true;
  if (ts.isExportAssignment(declaration)) return true;
  return false;
}
