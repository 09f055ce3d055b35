import { ts } from 'ts-morph';
import type { UnitIndex } from './collect-units.js';

/**
 * Whether an alias hands on properties that types declared elsewhere declare (`type P = First`,
 * `type M = A & B`, `type R = Readonly<T>`), rather than declaring its own in a type literal or
 * naming none (`type Id = string`): named in a heritage clause or an intersection, those
 * properties join others as the named types' own would.
 */
export function handsOnOtherTypes(type: ts.TypeNode): boolean {
  if (ts.isParenthesizedTypeNode(type)) return handsOnOtherTypes(type.type);
  if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) return type.types.some(handsOnOtherTypes);
  return ts.isTypeReferenceNode(type) || ts.isTypeQueryNode(type) || ts.isIndexedAccessTypeNode(type) || ts.isMappedTypeNode(type) ||
    ts.isConditionalTypeNode(type) || ts.isImportTypeNode(type);
}

/**
 * The places in a file that decide, with what their names resolve to, which properties of
 * several types are one slot (EdgeResolver.joinedSlot) beside heritage clauses, which heritage
 * edges stand for: its intersections and its aliases that hand on other types.
 */
export function joinSites(index: UnitIndex): ts.Node[] {
  const aliases = [...index.unitByDeclaration.keys()].filter((node) => ts.isTypeAliasDeclaration(node) && handsOnOtherTypes(node.type));
  return [...index.intersections, ...aliases].sort((a, b) => a.pos - b.pos);
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/**
 * The import statements whose names a file's join sites spell: the types they join come through
 * these. Another import of the file, the edit made most often to a file's head, joins nothing.
 */
export function importsOfJoinSites(sites: readonly ts.Node[], sourceFile: ts.SourceFile): ts.Statement[] {
  if (sites.length === 0) return [];
  const spelled = new Set(sites.flatMap((site) => [...site.getText(sourceFile).matchAll(IDENTIFIER)].map(([word]) => word)));
  return sourceFile.statements.filter((statement) => importedNames(statement).some((name) => spelled.has(name)));
}

/** The local names an import statement binds (`import A, { b as c } from`, `import * as ns`, `import x = require()`); none for another statement. */
function importedNames(statement: ts.Statement): string[] {
  if (ts.isImportEqualsDeclaration(statement)) return [statement.name.text];
  if (!ts.isImportDeclaration(statement) || !statement.importClause) return [];
  const { name, namedBindings } = statement.importClause;
  const names = name ? [name.text] : [];
  if (namedBindings && ts.isNamespaceImport(namedBindings)) names.push(namedBindings.name.text);
  else if (namedBindings) names.push(...namedBindings.elements.map((element) => element.name.text));
  return names;
}
