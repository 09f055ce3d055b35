import { ts } from 'ts-morph';

/**
 * The declarations a type annotation makes of its own: a type literal's properties and methods, a
 * function type's parameters, type parameters (`<T>`, `[K in ...]`, `infer U`), a tuple's labels.
 * Their names are keys or locals of the annotation, not uses of a declaration elsewhere.
 */
function isOwnDeclaration(node: ts.Node): node is ts.NamedDeclaration & { name: ts.Identifier | ts.StringLiteral | ts.NumericLiteral | ts.PrivateIdentifier } {
  if (!(ts.isPropertySignature(node) || ts.isMethodSignature(node) || ts.isParameter(node) || ts.isTypeParameterDeclaration(node) ||
        ts.isNamedTupleMember(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node))) return false;
  const name: ts.Node = node.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name);
}

/**
 * An annotation's text with the names it declares itself blanked out. What the annotation holds
 * depends on the names it refers to (type names, `typeof x`, literal types, which a key lookup can
 * turn into a property), never on the key `type` of its `{ type: "start" }` or the parameter `agent`
 * of its `(agent: string) => void`: a changed declaration elsewhere spelled so changes nothing here.
 */
export function annotationReferenceText(annotation: ts.Node): string {
  const sourceFile = annotation.getSourceFile();
  const start = annotation.getStart(sourceFile);
  const text = annotation.getText(sourceFile);
  const blanks: Array<readonly [number, number]> = [];
  const visit = (node: ts.Node): void => {
    if (isOwnDeclaration(node)) blanks.push([node.name.getStart(sourceFile) - start, node.name.end - start]);
    ts.forEachChild(node, visit);
  };
  visit(annotation);
  if (blanks.length === 0) return text;
  let blanked = '';
  let at = 0;
  for (const [from, to] of blanks) {
    blanked += `${text.slice(at, from)}${' '.repeat(to - from)}`;
    at = to;
  }
  return blanked + text.slice(at);
}
