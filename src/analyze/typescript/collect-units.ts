import { ts } from 'ts-morph';
import type { Unit, UnitKind } from '../../graph/model.js';
import { splitWords } from '../../text/identifier-words.js';
import { docOf, isJavaScriptFile, leadingComments, lineOf, memberOfThis, signatureOf, tokenTextReader, type TokenTextReader, unitHasher } from './unit-text.js';

/** What the first, purely syntactic pass learns; the second pass resolves edges against it. */
export interface UnitIndex {
  units: Map<string, Unit>;
  /** Declaration node → the unit it defines, for mapping checker symbols back to units. */
  unitByDeclaration: Map<ts.Node, string>;
  /** Classes and interfaces, for heritage and dispatch. */
  typeDeclarations: Array<{ id: string; node: ts.ClassLikeDeclaration | ts.InterfaceDeclaration; file: string }>;
  /** Intersection types written anywhere in the file (`A & B`, in an alias, an annotation, a body): each joins the properties its constituents share. */
  intersections: ts.IntersectionTypeNode[];
  /** Variable units whose value is state (let/var, or a const holding an object, array or instance). */
  stateVariables: Set<string>;
  /** Every member name declared in the repository: a property access with another name cannot reach repo code. */
  memberNames: Set<string>;
  /** The declarations behind `memberNames`, for the digest that tells a re-sync which names a file's edit changed. */
  memberDeclarations: Array<{ name: string; node: ts.Node }>;
  /** Every name declared at a module's top level or nested as a unit. */
  declaredNames: Set<string>;
  /** Words of the string literals inside each unit, in first-seen order: a vocabulary signal for stages. */
  literalWords: Map<string, Set<string>>;
  /** Words of the identifiers and comments inside each unit's own body: what a search for the unit's behaviour meets. */
  bodyWords: Map<string, Set<string>>;
}

export function createUnitIndex(): UnitIndex {
  return {
    units: new Map(),
    unitByDeclaration: new Map(),
    typeDeclarations: [],
    intersections: [],
    stateVariables: new Set(),
    memberNames: new Set(),
    memberDeclarations: [],
    declaredNames: new Set(),
    literalWords: new Map(),
    bodyWords: new Map(),
  };
}

function addMember(index: UnitIndex, name: string, node: ts.Node): void {
  index.memberNames.add(name);
  index.memberDeclarations.push({ name, node });
}

const BODY_WORDS_PER_UNIT = 200;

function addBodyWords(index: UnitIndex, unitId: string, identifier: string): void {
  let words = index.bodyWords.get(unitId);
  if (!words) index.bodyWords.set(unitId, (words = new Set()));
  if (words.size >= BODY_WORDS_PER_UNIT) return;
  for (const word of splitWords(identifier)) {
    if (word.length < 3) continue;
    words.add(word);
    if (words.size >= BODY_WORDS_PER_UNIT) return;
  }
}

const LITERAL_WORDS_PER_UNIT = 40;

function addLiteralWords(index: UnitIndex, unitId: string, text: string): void {
  let words = index.literalWords.get(unitId);
  if (!words) index.literalWords.set(unitId, (words = new Set()));
  if (words.size >= LITERAL_WORDS_PER_UNIT) return;
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    if (word.length < 3 || word.length > 30) continue;
    words.add(word);
    if (words.size >= LITERAL_WORDS_PER_UNIT) return;
  }
}

function isFunctionValue(node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression {
  if (!node) return false;
  let inner: ts.Node = node;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
  return ts.isArrowFunction(inner) || ts.isFunctionExpression(inner);
}

/** A statement that declares a named function value (`const f = () => ...`), which is a unit of its own. */
function declaresFunction(statement: ts.Statement): boolean {
  return ts.isVariableStatement(statement) && statement.declarationList.declarations.some((declaration) => ts.isIdentifier(declaration.name) && isFunctionValue(declaration.initializer));
}

function unwrap(node: ts.Expression): ts.Expression {
  let inner = node;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
  return inner;
}

function isStateInitializer(declaration: ts.VariableDeclaration, flags: ts.NodeFlags): boolean {
  if (!(flags & ts.NodeFlags.Const)) return true;
  if (!declaration.initializer) return false;
  const value = unwrap(declaration.initializer);
  return ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value) || ts.isNewExpression(value);
}

function propertyNameText(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  return undefined;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined)?.some((modifier) => modifier.kind === kind) ?? false;
}

/** Names exported by `export { a, b as c }` and `export default a` in a file. */
function exportedLocalNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add((element.propertyName ?? element.name).text);
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      names.add(statement.expression.text);
    }
  }
  return names;
}

/** The unit of a file that is indexed without its declarations (a test file). */
export function addFileUnit(index: UnitIndex, file: string, hash: string, lines: number): void {
  index.units.set(file, { id: file, kind: 'file', file, symbol: '', startLine: 1, endLine: Math.max(1, lines), signature: file, doc: '', exported: false, hash, literals: '', words: '' });
}

/**
 * Pass one: the units of one file, found by walking the raw syntax tree. Anything that is not a
 * unit (callbacks, blocks, expressions) belongs to the innermost unit around it.
 */
export function collectUnits(sourceFile: ts.SourceFile, file: string, fileHash: string, index: UnitIndex, tokenText: TokenTextReader = tokenTextReader(sourceFile)): void {
  const taken = new Map<string, number>();
  const locallyExported = exportedLocalNames(sourceFile);
  const unitHash = unitHasher(sourceFile, tokenText);

  const addUnit = (
    kind: UnitKind,
    symbolPath: string,
    declaration: ts.Node,
    spanNode: ts.Node,
    parent: string,
    exported: boolean,
    docNode: ts.Node = spanNode,
  ): string => {
    const seen = taken.get(symbolPath) ?? 0;
    taken.set(symbolPath, seen + 1);
    const symbol = seen === 0 ? symbolPath : `${symbolPath}~${seen + 1}`;
    const id = `${file}#${symbol}`;
    index.units.set(id, {
      id,
      kind,
      file,
      symbol,
      startLine: lineOf(sourceFile, spanNode.getStart(sourceFile)),
      endLine: lineOf(sourceFile, spanNode.getEnd()),
      signature: signatureOf(declaration, sourceFile),
      doc: docOf(docNode, sourceFile),
      exported,
      hash: unitHash(spanNode),
      literals: '',
      words: '',
      parent,
    });
    index.unitByDeclaration.set(declaration, id);
    const lastName = symbolPath.slice(symbolPath.lastIndexOf('.') + 1);
    index.declaredNames.add(lastName);
    return id;
  };

  const fileUnit: Unit = {
    id: file,
    kind: 'file',
    file,
    symbol: '',
    startLine: 1,
    endLine: Math.max(1, lineOf(sourceFile, sourceFile.getEnd())),
    signature: file,
    doc: docOfFile(sourceFile),
    exported: false,
    hash: fileHash,
    literals: '',
    words: '',
  };
  index.units.set(file, fileUnit);
  index.unitByDeclaration.set(sourceFile, file);

  const prefix = (scope: string, name: string): string => (scope ? `${scope}.${name}` : name);

  const visitObjectLiteral = (literal: ts.ObjectLiteralExpression, scope: string, parent: string): void => {
    for (const property of literal.properties) {
      const name = propertyNameText(property.name);
      if (!name) continue;
      addMember(index, name, property);
      if (ts.isMethodDeclaration(property) || ts.isGetAccessor(property) || ts.isSetAccessor(property)) {
        const id = addUnit(ts.isMethodDeclaration(property) ? 'property' : 'accessor', prefix(scope, name), property, property, parent, false);
        visitBody(property, prefix(scope, name), id);
      } else if (ts.isPropertyAssignment(property) && isFunctionValue(property.initializer)) {
        const id = addUnit('property', prefix(scope, name), property, property, parent, false);
        visitBody(property.initializer, prefix(scope, name), id);
      } else if (ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(unwrap(property.initializer))) {
        visitObjectLiteral(unwrap(property.initializer) as ts.ObjectLiteralExpression, prefix(scope, name), parent);
      }
    }
  };

  const visitClass = (node: ts.ClassLikeDeclaration, name: string, parent: string, exported: boolean, span: ts.Node): void => {
    const classId = addUnit('class', name, node, span, parent, exported);
    index.typeDeclarations.push({ id: classId, node, file });
    for (const member of node.members) {
      if (ts.isConstructorDeclaration(member)) {
        const id = addUnit('constructor', `${name}.constructor`, member, member, classId, false);
        for (const parameter of member.parameters) {
          const parameterName = propertyNameText(parameter.name);
          if (parameterName && ts.getModifiers(parameter)?.length) addMember(index, parameterName, parameter);
        }
        visitBody(member, `${name}.constructor`, id);
        continue;
      }
      const memberName = propertyNameText(member.name);
      if (!memberName) continue;
      addMember(index, memberName, member);
      // A type literal in a field's type declares members too (`opts: { depth: number }`), as one in an interface member does.
      if (ts.isPropertyDeclaration(member) && member.type) collectTypeLiteralNames(member.type, index);
      if (ts.isMethodDeclaration(member)) {
        if (!member.body && node.members.some((other) => other !== member && ts.isMethodDeclaration(other) && other.body && propertyNameText(other.name) === memberName))
          continue;
        const id = addUnit('method', `${name}.${memberName}`, member, member, classId, false);
        visitBody(member, `${name}.${memberName}`, id);
      } else if (ts.isGetAccessor(member) || ts.isSetAccessor(member)) {
        const id = addUnit('accessor', `${name}.${memberName}`, member, member, classId, false);
        visitBody(member, `${name}.${memberName}`, id);
      } else if (ts.isPropertyDeclaration(member) && isFunctionValue(member.initializer)) {
        const id = addUnit('property', `${name}.${memberName}`, member, member, classId, false);
        visitBody(member.initializer!, `${name}.${memberName}`, id);
      }
    }
  };

  /** Named functions declared inside a function body are units of their own, named under it. */
  const visitBody = (node: ts.Node, scope: string, parent: string): void => {
    const walk = (child: ts.Node): void => {
      if (ts.isFunctionDeclaration(child) && child.name && child.body) {
        const id = addUnit('function', prefix(scope, child.name.text), child, child, parent, false);
        visitBody(child.body, prefix(scope, child.name.text), id);
        return;
      }
      if (ts.isVariableDeclaration(child) && ts.isIdentifier(child.name) && isFunctionValue(child.initializer)) {
        const statement = child.parent.parent;
        const id = addUnit('function', prefix(scope, child.name.text), child, child, parent, false, statement);
        visitBody(child.initializer!, prefix(scope, child.name.text), id);
        return;
      }
      if (ts.isClassDeclaration(child) && child.name) {
        visitClass(child, prefix(scope, child.name.text), parent, false, child);
        return;
      }
      if (ts.isTypeNode(child) || ts.isImportDeclaration(child) || ts.isExportDeclaration(child)) return;
      if (ts.isStringLiteral(child) || ts.isNoSubstitutionTemplateLiteral(child) || ts.isTemplateLiteralToken(child)) {
        addLiteralWords(index, parent, child.text);
        return;
      }
      if (ts.isIdentifier(child)) {
        addBodyWords(index, parent, child.text);
        return;
      }
      // A comment inside a body says in prose what the code does, often in a maintainer's words rather than the identifiers'.
      // One before a nested function is that function's doc, not the body's.
      if (ts.isStatement(child) && !declaresFunction(child)) for (const comment of leadingComments(sourceFile.text, child.pos)) addBodyWords(index, parent, comment);
      ts.forEachChild(child, walk);
    };
    ts.forEachChild(node, walk);
  };

  const visitStatements = (statements: ts.NodeArray<ts.Statement>, scope: string, parent: string, insideExported: boolean): void => {
    for (const statement of statements) {
      const exported = insideExported || hasModifier(statement, ts.SyntaxKind.ExportKeyword);
      const isExported = (name: string): boolean => exported || (!scope && locallyExported.has(name));
      if (ts.isFunctionDeclaration(statement)) {
        if (!statement.body) continue;
        const name = statement.name?.text ?? 'default';
        const id = addUnit('function', prefix(scope, name), statement, statement, parent, isExported(name));
        visitBody(statement.body, prefix(scope, name), id);
      } else if (ts.isClassDeclaration(statement)) {
        const name = statement.name?.text ?? 'default';
        visitClass(statement, prefix(scope, name), parent, isExported(name), statement);
      } else if (ts.isInterfaceDeclaration(statement)) {
        const id = addUnit('interface', prefix(scope, statement.name.text), statement, statement, parent, isExported(statement.name.text));
        index.typeDeclarations.push({ id, node: statement, file });
        for (const member of statement.members) {
          const memberName = propertyNameText(member.name);
          if (memberName) addMember(index, memberName, member);
          // A type literal in a member's type declares members too (`nested: { deep: string }`), as one in a type alias does.
          ts.forEachChild(member, (child) => collectTypeLiteralNames(child, index));
        }
      } else if (ts.isTypeAliasDeclaration(statement)) {
        addUnit('type', prefix(scope, statement.name.text), statement, statement, parent, isExported(statement.name.text));
        collectTypeLiteralNames(statement.type, index);
      } else if (ts.isEnumDeclaration(statement)) {
        addUnit('enum', prefix(scope, statement.name.text), statement, statement, parent, isExported(statement.name.text));
      } else if (ts.isModuleDeclaration(statement) && statement.body && ts.isModuleBlock(statement.body) && ts.isIdentifier(statement.name)) {
        visitStatements(statement.body.statements, prefix(scope, statement.name.text), parent, exported);
      } else if (ts.isVariableStatement(statement)) {
        const flags = statement.declarationList.flags;
        const single = statement.declarationList.declarations.length === 1;
        for (const declaration of statement.declarationList.declarations) {
          if (!ts.isIdentifier(declaration.name)) continue;
          const name = declaration.name.text;
          const span = single ? statement : declaration;
          const initializer = declaration.initializer ? unwrap(declaration.initializer) : undefined;
          if (isFunctionValue(initializer)) {
            const id = addUnit('function', prefix(scope, name), declaration, span, parent, isExported(name), statement);
            visitBody(initializer, prefix(scope, name), id);
          } else if (initializer && ts.isClassExpression(initializer)) {
            visitClass(initializer, prefix(scope, name), parent, isExported(name), span);
            index.unitByDeclaration.set(declaration, `${file}#${prefix(scope, name)}`);
          } else {
            const id = addUnit('variable', prefix(scope, name), declaration, span, parent, isExported(name), statement);
            if (isStateInitializer(declaration, flags)) index.stateVariables.add(id);
            if (initializer && ts.isObjectLiteralExpression(initializer)) visitObjectLiteral(initializer, prefix(scope, name), id);
            else if (initializer) visitBody(initializer, prefix(scope, name), id);
          }
        }
      } else if (ts.isExportAssignment(statement)) {
        const expression = unwrap(statement.expression);
        if (isFunctionValue(expression)) {
          const id = addUnit('function', prefix(scope, 'default'), statement, statement, parent, true);
          visitBody(expression, prefix(scope, 'default'), id);
        } else if (ts.isObjectLiteralExpression(expression)) {
          const id = addUnit('variable', prefix(scope, 'default'), statement, statement, parent, true);
          visitObjectLiteral(expression, prefix(scope, 'default'), id);
        }
      } else {
        visitBody(statement, scope, parent);
      }
    }
  };

  visitStatements(sourceFile.statements, '', file, false);
  collectJavaScriptFieldNames(sourceFile, index);
  collectIntersections(sourceFile, index);
}

/** An `&` that is not part of `&&`, `&=` or `&&=`: most files have those, few an intersection. */
const LONE_AMPERSAND = /(?<!&)&(?![&=])/;

/** The walk above skips type annotations, where intersections are written: one walk of its own, only for a file that can hold one. */
function collectIntersections(sourceFile: ts.SourceFile, index: UnitIndex): void {
  if (!LONE_AMPERSAND.test(sourceFile.text)) return;
  const walk = (node: ts.Node): void => {
    if (ts.isIntersectionTypeNode(node)) index.intersections.push(node);
    ts.forEachChild(node, walk);
  };
  walk(sourceFile);
}

function collectTypeLiteralNames(node: ts.Node, index: UnitIndex): void {
  const walk = (child: ts.Node): void => {
    if (ts.isPropertySignature(child) || ts.isMethodSignature(child)) {
      const name = propertyNameText(child.name);
      if (name) addMember(index, name, child);
    }
    ts.forEachChild(child, walk);
  };
  walk(node);
}

/** JavaScript declares fields by assignment (`this.x = ...`, `this['x'] = ...`), so those names are members too. */
function collectJavaScriptFieldNames(sourceFile: ts.SourceFile, index: UnitIndex): void {
  if (!isJavaScriptFile(sourceFile.fileName)) return;
  const walk = (node: ts.Node): void => {
    const name = ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken ? memberOfThis(node.left) : undefined;
    if (name !== undefined) addMember(index, name, node);
    ts.forEachChild(node, walk);
  };
  walk(sourceFile);
}

function docOfFile(sourceFile: ts.SourceFile): string {
  const first = sourceFile.statements[0];
  if (!first) return '';
  const text = sourceFile.text;
  const ranges = ts.getLeadingCommentRanges(text, 0) ?? [];
  const parts = ranges
    .map((range) => text.slice(range.pos, range.end))
    .filter((raw) => !/@license|copyright|SPDX-License-Identifier/i.test(raw) && raw.startsWith('/**') && first.getStart(sourceFile) > 0)
    .slice(0, 1);
  if (parts.length === 0) return '';
  const cleaned = parts[0]!.replace(/^\/\*+|\*+\/$/g, '').replace(/^\s*\*\s?/gm, '');
  return cleaned.replace(/\s+/g, ' ').trim().slice(0, 600);
}
