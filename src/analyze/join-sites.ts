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
