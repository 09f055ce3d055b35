import type { Unit, UnitKind } from '../../graph/model.js';
import { assignmentSignature, commentsAbove, definitionSignature, docstringText, stringValue } from './declaration-text.js';
import { childByField, type LineOf, type TreeNode } from '../syntax/syntax-tree.js';

/** A unit and the nodes it is made of: its span, and for an accessor the setter and deleter merged into it. */
export interface Declaration {
  unit: Unit;
  /** The definition (`function_definition`, `class_definition`) or the assignment statement. */
  node: TreeNode;
  /** The node whose span is the unit's: a decorated definition's wrapper, so decorators are part of it. */
  span: TreeNode;
  /** Further definitions the unit stands for: an accessor's `@x.setter` and `@x.deleter`. */
  merged: TreeNode[];
}

export interface CollectedUnits {
  /** The file unit first, then every declaration, in source order. */
  units: Unit[];
  declarations: Declaration[];
  /** Each definition, decorated wrapper and assignment statement that declares a unit → that unit's symbol (the first, for `a, b = ...`). */
  symbolOf: Map<TreeNode, string>;
  /** `__all__` as a list of strings, when the module spells it so. */
  all?: string[];
}

interface Container {
  /** The symbol path of the enclosing unit plus a dot, or '' at module level. */
  prefix: string;
  parent: string;
  kind: 'module' | 'class' | 'function';
  /** Whether the enclosing class is exported: its public members are too. */
  exported: boolean;
  /** The node whose children precede the block (a class's), for comments above a block's first statement. */
  holder?: { siblings: readonly TreeNode[]; index: number };
}

/** Names that are no declarations of their own: `__all__` says what others are, `_` is thrown away. */
const NOT_UNITS = new Set(['__all__', '_']);

const ACCESSOR_DECORATORS = /^@\s*(?:(?:functools|abc)\s*\.\s*)?(?:property|cached_property|abstractproperty)\s*$/;
const ACCESSOR_PART = /^@\s*([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*(?:setter|getter|deleter)\s*$/;

/**
 * The units of one file, found by walking its statements: defs and classes at any depth (a def
 * inside a def is a function named under it), assignments at module level (variables) and in
 * class bodies (properties), also inside module- and class-level `if`, `try`, `with` and loops.
 * Hashes, signatures and docs are set here; words and literals by collectVocabulary.
 */
export function collectUnits(root: TreeNode, file: string, fileHash: string, lines: number, source: string, lineOf: LineOf, hashUnit: (span: TreeNode, block?: TreeNode) => string): CollectedUnits {
  const fileUnit: Unit = { id: file, kind: 'file', file, symbol: '', startLine: 1, endLine: Math.max(1, lines), signature: file, doc: '', exported: false, hash: fileHash, literals: '', words: '' };
  const collected: CollectedUnits = { units: [fileUnit], declarations: [], symbolOf: new Map() };
  const all = readAll(root, source);
  if (all) collected.all = all;
  const taken = new Map<string, number>();
  const bySymbol = new Map<string, Declaration>();

  const isExported = (name: string, container: Container): boolean => {
    if (container.kind === 'module') return all ? all.includes(name) : !name.startsWith('_');
    return container.kind === 'class' && container.exported && !name.startsWith('_');
  };

  const addUnit = (kind: UnitKind, name: string, container: Container, node: TreeNode, span: TreeNode, signature: string, doc: string): Declaration => {
    const path = `${container.prefix}${name}`;
    const seen = taken.get(path) ?? 0;
    taken.set(path, seen + 1);
    // A second definition of a name keeps both, told apart as the TypeScript front end does.
    const symbol = seen === 0 ? path : `${path}~${seen + 1}`;
    const unit: Unit = {
      id: `${file}#${symbol}`,
      kind,
      file,
      symbol,
      startLine: lineOf(span.start),
      endLine: lineOf(Math.max(span.start, span.end - 1)),
      signature,
      doc,
      exported: isExported(name, container),
      hash: hashUnit(span, childByField(node, 'body')),
      literals: '',
      words: '',
      parent: container.parent,
    };
    const declaration: Declaration = { unit, node, span, merged: [] };
    collected.units.push(unit);
    collected.declarations.push(declaration);
    bySymbol.set(symbol, declaration);
    collected.symbolOf.set(node, symbol);
    collected.symbolOf.set(span, symbol);
    return declaration;
  };

  const visitDefinition = (definition: TreeNode, span: TreeNode, container: Container): void => {
    const nameNode = childByField(definition, 'name');
    const body = childByField(definition, 'body');
    if (!nameNode) return;
    const name = source.slice(nameNode.start, nameNode.end);
    const decorators = span === definition ? [] : span.children.filter((child) => child.type === 'decorator').map((child) => source.slice(child.start, child.end));
    let declaration: Declaration | undefined;
    if (definition.type === 'function_definition' && container.kind === 'class') {
      // `@x.setter` and `@x.deleter` are the accessor `x` again: one unit, the first definition, holds them.
      const part = decorators.map((decorator) => ACCESSOR_PART.exec(decorator)?.[1]).find((base) => base !== undefined);
      const accessor = part === undefined ? undefined : bySymbol.get(`${container.prefix}${part}`);
      if (accessor && accessor.unit.kind === 'accessor') {
        accessor.merged.push(span);
        collected.symbolOf.set(definition, accessor.unit.symbol);
        collected.symbolOf.set(span, accessor.unit.symbol);
        declaration = accessor;
      }
    }
    if (!declaration) {
      const kind: UnitKind =
        definition.type === 'class_definition' ? 'class'
        : container.kind !== 'class' ? 'function'
        : decorators.some((decorator) => ACCESSOR_DECORATORS.test(decorator) || ACCESSOR_PART.test(decorator)) ? 'accessor'
        : name === '__init__' ? 'constructor'
        : 'method';
      declaration = addUnit(kind, name, container, definition, span, definitionSignature(definition, source), docstringText(definition, source));
    }
    if (!body) return;
    const unit = declaration.unit;
    const inner: Container = {
      prefix: `${unit.symbol}.`,
      parent: unit.id,
      kind: definition.type === 'class_definition' ? 'class' : 'function',
      exported: unit.exported,
      holder: { siblings: definition.children, index: definition.children.indexOf(body) },
    };
    visitStatements(body.children, inner);
  };

  const visitAssignment = (statement: TreeNode, siblings: readonly TreeNode[], index: number, container: Container): void => {
    const assignment = statement.children.find((child) => child.type === 'assignment');
    if (!assignment) return;
    // A bare annotation (`done: bool`) declares a field in a class body (a dataclass's); at module level it binds nothing.
    if (!childByField(assignment, 'right') && container.kind !== 'class') return;
    const kind: UnitKind = container.kind === 'class' ? 'property' : 'variable';
    const line = lineOf(statement.start);
    let doc = commentsAbove(siblings, index, line, lineOf, source);
    if (doc === '' && index === 0 && container.holder) doc = commentsAbove(container.holder.siblings, container.holder.index, line, lineOf, source);
    let first: string | undefined;
    for (const name of assignedNames(assignment, source)) {
      if (NOT_UNITS.has(name) || taken.has(`${container.prefix}${name}`)) continue;
      const declaration = addUnit(kind, name, container, statement, statement, assignmentSignature(statement, source), doc);
      first ??= declaration.unit.symbol;
    }
    if (first !== undefined) collected.symbolOf.set(statement, first);
  };

  const visitStatements = (statements: readonly TreeNode[], container: Container): void => {
    statements.forEach((statement, index) => {
      switch (statement.type) {
        case 'decorated_definition': {
          const definition = childByField(statement, 'definition');
          if (definition) visitDefinition(definition, statement, container);
          return;
        }
        case 'function_definition':
        case 'class_definition':
          visitDefinition(statement, statement, container);
          return;
        case 'expression_statement':
          if (container.kind !== 'function') visitAssignment(statement, statements, index, container);
          return;
        default:
          // Compound statements hold blocks of statements (`if`, `try`, `with`, loops, `match`); an ERROR node may hold statements too.
          if (COMPOUND.has(statement.type)) visitStatements(statement.children, { ...container, holder: undefined });
      }
    });
  };

  visitStatements(root.children, { prefix: '', parent: file, kind: 'module', exported: true });
  return collected;
}

const COMPOUND = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause', 'finally_clause',
  'with_statement', 'for_statement', 'while_statement', 'match_statement', 'case_clause', 'block', 'ERROR',
]);

/** The names an assignment binds: `a = b = 1` both, `x, (y, *z) = ...` each; attributes and subscripts bind no name. */
export function assignedNames(assignment: TreeNode, source: string): string[] {
  const names: string[] = [];
  const addTargets = (target: TreeNode): void => {
    if (target.type === 'identifier') names.push(source.slice(target.start, target.end));
    else if (PATTERNS.has(target.type)) for (const child of target.children) if (child.named) addTargets(child);
  };
  for (let current: TreeNode | undefined = assignment; current?.type === 'assignment'; current = childByField(current, 'right')) {
    const left = childByField(current, 'left');
    if (left) addTargets(left);
  }
  return names;
}

export const PATTERNS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'list_splat_pattern', 'list_splat', 'parenthesized_expression', 'expression_list']);

/** `__all__ = [...]` (or a tuple), with `__all__ += [...]` after it, when every element is a plain string. */
function readAll(root: TreeNode, source: string): string[] | undefined {
  let all: string[] | undefined;
  for (const statement of root.children) {
    const assignment = statement.type === 'expression_statement' ? statement.children[0] : undefined;
    if (!assignment || (assignment.type !== 'assignment' && assignment.type !== 'augmented_assignment')) continue;
    const left = childByField(assignment, 'left');
    const right = childByField(assignment, 'right');
    if (!left || !right || source.slice(left.start, left.end) !== '__all__') continue;
    if (right.type !== 'list' && right.type !== 'tuple') return undefined;
    const strings = right.children.filter((child) => child.named && child.type !== 'comment');
    if (!strings.every((child) => child.type === 'string')) return undefined;
    const names = strings.map((string) => stringValue(string, source));
    all = assignment.type === 'assignment' ? names : [...(all ?? []), ...names];
  }
  return all;
}
