import type { ImportBinding, ModuleSpec } from './python-facts.js';
import { childByField, childrenByField, type TreeNode } from '../syntax/syntax-tree.js';
import { PATTERNS } from './collect-units.js';

/** Where a name gets its value in one scope, as written: read into facts only for names some use refers to. */
export type BindingSite =
  | { kind: 'unit'; symbol: string }
  | { kind: 'import'; binding: ImportBinding }
  /** A method's first parameter: an instance of its class (`self`), or the class itself (`cls` of a classmethod). */
  | { kind: 'self'; classSymbol: string }
  | { kind: 'class-object'; classSymbol: string }
  /** An expression whose value the name takes (`x = expr`), an annotation (`x: T`), an iterable the name walks (`for x in xs`). */
  | { kind: 'value' | 'annotation' | 'element'; node: TreeNode; scope: Scope }
  /** A value of a builtin type whatever the code says of it: `*args` is a tuple, `**kwargs` a dict. */
  | { kind: 'builtin' }
  | { kind: 'opaque' };

/**
 * One of Python's scopes: the module, a class body, a function, a lambda or a comprehension.
 * A name bound anywhere in a function is local to all of it (unless declared `global` or
 * `nonlocal`); a class body's names are not seen from the functions inside it.
 */
export class Scope {
  readonly bindings = new Map<string, BindingSite[]>();
  readonly globals = new Set<string>();
  readonly nonlocals = new Set<string>();
  /** Names of this scope that uses refer to → their index in the facts' locals. */
  readonly localIndex = new Map<string, number>();

  constructor(
    readonly kind: 'module' | 'class' | 'function' | 'lambda' | 'comprehension',
    readonly parent: Scope | undefined,
    /** The unit whose code the scope is ('' for the module). */
    readonly unit: string,
    /** A class body's class, or the class a method belongs to (for `super()`). */
    readonly classSymbol?: string,
  ) {}

  bind(name: string, site: BindingSite): void {
    const sites = this.bindings.get(name);
    if (sites) sites.push(site);
    else this.bindings.set(name, [site]);
  }

  /** The nearest enclosing function scope, where a walrus in a comprehension binds. */
  get functionScope(): Scope {
    let scope: Scope = this;
    while ((scope.kind === 'comprehension' || scope.kind === 'lambda') && scope.parent) scope = scope.parent;
    return scope;
  }
}

const NESTED_STATEMENTS = new Set([
  'if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'except_group_clause', 'finally_clause',
  'while_statement', 'match_statement', 'case_clause', 'block', 'ERROR',
]);

/**
 * Binds the names a scope's statements bind, without entering nested scopes (defs, classes,
 * lambdas, comprehensions), whose own names are theirs. Run before the scope's uses are read, so
 * a use sees every binding of its scope wherever it stands.
 */
export function declareBindings(statements: readonly TreeNode[], scope: Scope, source: string, symbolOf: ReadonlyMap<TreeNode, string>): void {
  const text = (node: TreeNode): string => source.slice(node.start, node.end);
  const bindTargets = (target: TreeNode, site: BindingSite): void => {
    if (target.type === 'identifier') scope.bind(text(target), site);
    // Unpacking gives each name a part no syntax tells: opaque.
    else if (PATTERNS.has(target.type)) for (const child of target.children) if (child.named) bindTargets(child, { kind: 'opaque' });
  };
  const visit = (node: TreeNode): void => {
    switch (node.type) {
      case 'decorated_definition': {
        const definition = childByField(node, 'definition');
        if (definition) visit(definition);
        return;
      }
      case 'function_definition':
      case 'class_definition': {
        const name = childByField(node, 'name');
        const symbol = symbolOf.get(node);
        if (name) scope.bind(text(name), symbol === undefined ? { kind: 'opaque' } : { kind: 'unit', symbol });
        return;
      }
      case 'import_statement':
      case 'import_from_statement':
        for (const [name, binding] of importBindings(node, source)) scope.bind(name, { kind: 'import', binding });
        return;
      case 'expression_statement':
        for (const child of node.children) {
          if (child.type === 'assignment') declareAssignment(child);
          else if (child.type === 'augmented_assignment') {
            const left = childByField(child, 'left');
            if (left?.type === 'identifier') scope.bind(text(left), { kind: 'opaque' });
          }
        }
        return;
      case 'for_statement': {
        const left = childByField(node, 'left');
        const right = childByField(node, 'right');
        if (left && right) bindTargets(left, left.type === 'identifier' ? { kind: 'element', node: right, scope } : { kind: 'opaque' });
        for (const child of node.children) if (child.type === 'block' || child.type === 'else_clause') visit(child);
        return;
      }
      case 'with_statement':
        for (const item of node.children.find((child) => child.type === 'with_clause')?.children ?? []) {
          const pattern = item.type === 'with_item' ? childByField(item, 'value') : undefined;
          if (pattern?.type !== 'as_pattern') continue;
          const value = pattern.children.find((child) => child.named && child.field !== 'alias');
          const target = childByField(pattern, 'alias')?.children.find((child) => child.named);
          // `with Session() as s` gives what `__enter__` returns: most often the object itself.
          if (target && value) bindTargets(target, target.type === 'identifier' ? { kind: 'value', node: value, scope } : { kind: 'opaque' });
        }
        for (const child of node.children) if (child.type === 'block') visit(child);
        return;
      case 'except_clause':
      case 'except_group_clause': {
        const pattern = node.children.find((child) => child.type === 'as_pattern');
        const type = pattern?.children.find((child) => child.named && child.field !== 'alias');
        const target = pattern && childByField(pattern, 'alias')?.children.find((child) => child.named);
        if (target?.type === 'identifier') scope.bind(text(target), type ? { kind: 'annotation', node: type, scope } : { kind: 'opaque' });
        for (const child of node.children) if (child.type === 'block') visit(child);
        return;
      }
      case 'global_statement':
        for (const child of node.children) if (child.type === 'identifier') scope.globals.add(text(child));
        return;
      case 'nonlocal_statement':
        for (const child of node.children) if (child.type === 'identifier') scope.nonlocals.add(text(child));
        return;
      case 'delete_statement':
        for (const child of node.children) if (child.type === 'identifier') scope.bind(text(child), { kind: 'opaque' });
        return;
      case 'type_alias_statement': {
        const left = childByField(node, 'left');
        const name = left?.type === 'identifier' ? left : left?.children.find((child) => child.type === 'identifier');
        if (name) scope.bind(text(name), { kind: 'opaque' });
        return;
      }
      default:
        if (NESTED_STATEMENTS.has(node.type)) for (const child of node.children) visit(child);
    }
  };
  const declareAssignment = (assignment: TreeNode): void => {
    for (let current: TreeNode | undefined = assignment; current?.type === 'assignment'; current = childByField(current, 'right')) {
      const left = childByField(current, 'left');
      const type = childByField(current, 'type');
      let right = childByField(current, 'right');
      while (right?.type === 'assignment') right = childByField(right, 'right');
      if (!left) continue;
      if (left.type === 'identifier') {
        if (type) scope.bind(text(left), { kind: 'annotation', node: type, scope });
        if (right) scope.bind(text(left), { kind: 'value', node: right, scope });
      } else bindTargets(left, { kind: 'opaque' });
    }
  };
  for (const statement of statements) visit(statement);
}

/** The module an import statement's `module_name` names: `..pkg.mod` is level 2, name `pkg.mod`. */
export function moduleSpecOf(node: TreeNode, source: string): ModuleSpec {
  if (node.type === 'relative_import') {
    const prefix = node.children.find((child) => child.type === 'import_prefix');
    const name = node.children.find((child) => child.type === 'dotted_name');
    return { name: name ? dottedText(name, source) : '', level: prefix ? prefix.end - prefix.start : 0 };
  }
  return { name: dottedText(node, source), level: 0 };
}

export function dottedText(node: TreeNode, source: string): string {
  return source.slice(node.start, node.end).replace(/\s+/g, '');
}

/** Each name an import statement binds, with what it binds it to. */
export function importBindings(statement: TreeNode, source: string): Array<[string, ImportBinding]> {
  const found: Array<[string, ImportBinding]> = [];
  if (statement.type === 'import_statement') {
    for (const name of childrenByField(statement, 'name')) {
      if (name.type === 'dotted_name') {
        // `import a.b` binds `a`, through which `a.b` is then reached.
        const imported = dottedText(name, source);
        const first = imported.split('.')[0]!;
        found.push([first, { kind: 'module', module: { name: first, level: 0 }, ...(imported !== first ? { imported } : {}) }]);
      } else if (name.type === 'aliased_import') {
        const module = childByField(name, 'name');
        const alias = childByField(name, 'alias');
        if (module && alias) found.push([source.slice(alias.start, alias.end), { kind: 'module', module: { name: dottedText(module, source), level: 0 } }]);
      }
    }
    return found;
  }
  const moduleName = childByField(statement, 'module_name');
  if (!moduleName) return found;
  const module = moduleSpecOf(moduleName, source);
  for (const name of childrenByField(statement, 'name')) {
    if (name.type === 'dotted_name') {
      const imported = dottedText(name, source);
      found.push([imported, { kind: 'from', module, name: imported }]);
    } else if (name.type === 'aliased_import') {
      const imported = childByField(name, 'name');
      const alias = childByField(name, 'alias');
      if (imported && alias) found.push([source.slice(alias.start, alias.end), { kind: 'from', module, name: dottedText(imported, source) }]);
    }
  }
  return found;
}
