import type { ExpressionReader } from './expression-facts.js';
import { IMMUTABLE_RESULTS } from './python-builtins.js';
import { nameRecord, type GlobalBinding, type PythonFacts } from './python-facts.js';
import { moduleSpecOf, type Scope } from './python-scopes.js';
import { childByField, type LineOf, type TreeNode } from '../syntax/syntax-tree.js';

/** One binding per module name: the last def or class of the name, else its first import, else its variable. */
export function moduleNames(scope: Scope, declarations: ReadonlyMap<string, { unit: { kind: string } }>): Record<string, GlobalBinding> {
  const names = nameRecord<GlobalBinding>();
  for (const [name, sites] of scope.bindings) {
    const definitions = sites.filter((site) => site.kind === 'unit');
    const imported = sites.find((site) => site.kind === 'import');
    const definition = definitions[definitions.length - 1];
    if (definition?.kind === 'unit') names[name] = { kind: 'unit', symbol: definition.symbol };
    else if (imported?.kind === 'import') names[name] = imported.binding;
    else if (declarations.get(name)?.unit.kind === 'variable') names[name] = { kind: 'unit', symbol: name };
    else names[name] = { kind: 'opaque' };
  }
  return names;
}

/** What a module-level variable was first assigned, and whether that is something code can change in place. */
export function variableFact(statement: TreeNode, name: string, reader: ExpressionReader, scope: Scope, source: string): PythonFacts['variables'][string] {
  const assignment = statement.children.find((child) => child.type === 'assignment');
  let value: TreeNode | undefined;
  let type: TreeNode | undefined;
  for (let current: TreeNode | undefined = assignment; current?.type === 'assignment'; current = childByField(current, 'right')) {
    const left = childByField(current, 'left');
    if (left?.type === 'identifier' && source.slice(left.start, left.end) === name) type = childByField(current, 'type');
    value = childByField(current, 'right');
  }
  // `a, b = 1, []`: each name takes its own part when both sides spell the same number.
  const left = assignment && childByField(assignment, 'left');
  if (left && left.type !== 'identifier' && value && (value.type === 'expression_list' || value.type === 'tuple')) {
    const targets = left.children.filter((child) => child.named);
    const parts = value.children.filter((child) => child.named && child.type !== 'comment');
    const at = targets.findIndex((target) => source.slice(target.start, target.end) === name);
    value = targets.length === parts.length && at >= 0 ? parts[at] : undefined;
  } else if (left && left.type !== 'identifier') value = undefined;
  const annotation = type ? reader.annotationOf(type, scope) : undefined;
  const assigned = value ? reader.valueOf(value, scope) : undefined;
  return {
    ...(annotation && annotation.kind !== 'opaque' ? { annotation } : {}),
    values: assigned && assigned.kind !== 'opaque' ? [assigned] : [],
    mutable: value !== undefined && isMutableValue(value, source),
  };
}

const MUTABLE_LITERALS = new Set(['list', 'dictionary', 'set', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension']);

/** A container literal, or a call whose result is not known to be immutable. */
function isMutableValue(value: TreeNode, source: string): boolean {
  if (MUTABLE_LITERALS.has(value.type)) return true;
  if (value.type !== 'call') return false;
  const callee = childByField(value, 'function');
  const name = callee ? source.slice(callee.start, callee.end).split('.').pop()!.trim() : '';
  return !IMMUTABLE_RESULTS.has(name);
}


/** Every import statement of the file, at any depth (a function's imports are the file's too), in source order. */
export function collectImports(root: TreeNode, source: string, lineOf: LineOf): PythonFacts['imports'] {
  const imports: PythonFacts['imports'] = [];
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'import_statement') {
      for (const name of node.children) {
        const dotted = name.type === 'aliased_import' ? childByField(name, 'name') : name.type === 'dotted_name' ? name : undefined;
        if (dotted) imports.push({ name: source.slice(dotted.start, dotted.end).replace(/\s+/g, ''), level: 0, line: lineOf(dotted.start) });
      }
    } else if (node.type === 'import_from_statement') {
      const moduleName = childByField(node, 'module_name');
      if (!moduleName) continue;
      const names = node.children.filter((child) => child.field === 'name').map((name) => {
        const dotted = name.type === 'aliased_import' ? childByField(name, 'name') ?? name : name;
        return { name: source.slice(dotted.start, dotted.end).replace(/\s+/g, ''), line: lineOf(name.start) };
      });
      imports.push({ ...moduleSpecOf(moduleName, source), line: lineOf(moduleName.start), names });
    } else if (STATEMENT_HOLDERS.has(node.type)) {
      for (let index = node.children.length - 1; index >= 0; index -= 1) stack.push(node.children[index]!);
    }
  }
  return imports;
}

const STATEMENT_HOLDERS = new Set([
  'module', 'block', 'decorated_definition', 'function_definition', 'class_definition', 'if_statement', 'elif_clause', 'else_clause',
  'try_statement', 'except_clause', 'except_group_clause', 'finally_clause', 'with_statement', 'for_statement', 'while_statement',
  'match_statement', 'case_clause', 'ERROR',
]);
