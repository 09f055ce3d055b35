import type { ExprPath, TypeRef, ValuePath } from './go-facts.js';
import { type Context, GoExpressionReader, MAX_DEPTH, OPAQUE_PATH, reaches } from './go-expression-facts.js';
import { GoScope } from './go-scopes.js';
import { childByField, childrenByField, type GoNode, namedChildren } from './go-syntax.js';
import { typeRefOf } from './go-type-refs.js';

/** Values kept per local: the first few tell its type as well as all would. */
const VALUES_PER_LOCAL = 4;
const ASSIGNMENT_OPERATORS = new Set(['=', ':=']);

/**
 * Reads the code of one file: func and method bodies and package-level initializers, statement
 * by statement. Every local binding becomes a LocalFact with what tells its type (a declared
 * type, the values assigned to it), bound in the block scope Go gives it; assignments, `++` and
 * element sets become writes. The expressions inside are read by GoExpressionReader.
 */
export class GoBodyReader extends GoExpressionReader {
  newScope(typeParameters: ReadonlySet<string> = new Set()): GoScope {
    return new GoScope(this.facts.locals, undefined, typeParameters);
  }

  /** A func's or method's parameters, receiver and named results, bound in its scope; then its body. */
  readFunction(declaration: GoNode, from: string, scope: GoScope): void {
    const context: Context = { scope, from };
    for (const field of ['receiver', 'parameters', 'result']) {
      const list = childByField(declaration, field);
      if (list?.type === 'parameter_list') this.bindParameters(list, scope);
    }
    const body = childByField(declaration, 'body');
    if (body) this.visitBlock(body, context, 0);
  }

  private bindParameters(list: GoNode, scope: GoScope): void {
    for (const parameter of namedChildren(list)) {
      let type = typeRefOf(childByField(parameter, 'type'), this.source, scope.typeParameters);
      // `xs ...T` is a []T inside the func.
      if (parameter.type === 'variadic_parameter_declaration') type = { kind: 'container', element: type };
      for (const name of childrenByField(parameter, 'name')) scope.declare(this.text(name), type);
    }
  }

  /** A package-level var or const's initializer: its value, read as the variable unit's code. */
  readInitializer(value: GoNode, from: string, scope: GoScope): ExprPath {
    return this.visitExpression(value, { scope, from }, 0);
  }

  private visitBlock(block: GoNode, context: Context, depth: number): void {
    const inner: Context = { ...context, scope: context.scope.child() };
    for (const child of block.children) this.visitStatement(child, inner, depth + 1);
  }

  visitStatement(node: GoNode, context: Context, depth: number): void {
    if (depth > MAX_DEPTH || !node.named || node.type === 'comment') return;
    switch (node.type) {
      case 'block':
        this.visitBlock(node, context, depth);
        return;
      case 'statement_list':
        for (const child of node.children) this.visitStatement(child, context, depth + 1);
        return;
      case 'short_var_declaration':
        this.visitShortDeclaration(node, context, depth);
        return;
      case 'assignment_statement':
        this.visitAssignment(node, context, depth);
        return;
      case 'inc_statement':
      case 'dec_statement': {
        const target = namedChildren(node)[0];
        if (target) this.visitTarget(target, context, 'update', depth);
        return;
      }
      case 'var_declaration':
      case 'const_declaration':
        this.visitLocalDeclaration(node, context, depth);
        return;
      case 'type_declaration':
        // A type declared in a func is no unit: its name shadows, and leads nowhere.
        for (const spec of namedChildren(node)) {
          const name = childByField(spec, 'name');
          if (name) context.scope.declare(this.text(name));
        }
        return;
      case 'if_statement':
      case 'expression_switch_statement':
      case 'for_statement': {
        const scope: Context = { ...context, scope: context.scope.child() };
        for (const child of node.children) {
          if (child.type === 'range_clause') this.visitRange(child, scope, depth);
          else if (child.type === 'for_clause') for (const part of child.children) this.visitStatement(part, scope, depth + 1);
          else if (child.type === 'expression_case' || child.type === 'default_case') this.visitClause(child, scope, depth);
          else this.visitStatement(child, scope, depth + 1);
        }
        return;
      }
      case 'type_switch_statement':
        this.visitTypeSwitch(node, context, depth);
        return;
      case 'select_statement':
        for (const child of namedChildren(node)) this.visitClause(child, context, depth);
        return;
      case 'labeled_statement':
      case 'expression_statement':
      case 'go_statement':
      case 'defer_statement':
      case 'return_statement':
      case 'send_statement':
      case 'expression_list':
        for (const child of namedChildren(node)) {
          if (child.type === 'label_name') continue;
          if (isStatement(child)) this.visitStatement(child, context, depth + 1);
          else this.visitExpression(child, context, depth + 1);
        }
        return;
      case 'break_statement':
      case 'continue_statement':
      case 'goto_statement':
      case 'fallthrough_statement':
      case 'empty_statement':
        return;
      default:
        if (isStatement(node) || node.type === 'ERROR') for (const child of namedChildren(node)) this.visitStatement(child, context, depth + 1);
        else this.visitExpression(node, context, depth + 1);
    }
  }

  /** A case of a switch or select: its own scope, with what a `case v := <-ch:` receives. */
  private visitClause(clause: GoNode, context: Context, depth: number): void {
    const inner: Context = { ...context, scope: context.scope.child() };
    for (const child of clause.children) {
      if (child.type === 'receive_statement') this.visitReceive(child, inner, depth);
      else if (child.field === 'value') for (const value of namedChildren(child)) this.visitExpression(value, inner, depth + 1);
      else this.visitStatement(child, inner, depth + 1);
    }
  }

  private visitReceive(node: GoNode, context: Context, depth: number): void {
    const right = childByField(node, 'right');
    const left = childByField(node, 'left');
    const path = right ? this.visitExpression(right, context, depth + 1) : OPAQUE_PATH;
    const declares = node.children.some((child) => child.type === ':=');
    namedChildren(left ?? node).filter((target) => target !== right).forEach((target, index) => {
      if (declares && target.type === 'identifier') this.bindValue(context.scope, this.text(target), { path, result: index }, true);
      else if (!declares) this.visitTarget(target, context, 'write', depth);
    });
  }

  private visitShortDeclaration(node: GoNode, context: Context, depth: number): void {
    const left = childByField(node, 'left');
    const right = childByField(node, 'right');
    const targets = left ? namedChildren(left) : [];
    const values = this.visitValues(right, context, depth, targets.length);
    targets.forEach((target, index) => {
      if (target.type === 'identifier') this.bindValue(context.scope, this.text(target), values[index], !context.scope.hasOwn(this.text(target)));
    });
  }

  /** The values of the right side, one per target: pairwise, or the results of one multi-value expression. */
  private visitValues(right: GoNode | undefined, context: Context, depth: number, targets: number): Array<ValuePath | undefined> {
    const expressions = right ? (right.type === 'expression_list' ? namedChildren(right) : [right]) : [];
    const paths = expressions.map((expression) => this.visitExpression(expression, context, depth + 1));
    if (paths.length === targets) return paths.map((path) => ({ path }));
    if (paths.length === 1 && targets > 1) return Array.from({ length: targets }, (_, result) => ({ path: paths[0]!, result }));
    return [];
  }

  /** A name given a value: a new local (`:=`, `var`), or one more value of the local it already is. */
  private bindValue(scope: GoScope, name: string, value: ValuePath | undefined, declare: boolean, type?: TypeRef): void {
    const local = declare ? scope.declare(name, type) : scope.lookUp(name);
    if (local === undefined || !value || value.path.root.kind === 'opaque') return;
    const fact = this.facts.locals[local]!;
    if (fact.values.length < VALUES_PER_LOCAL) fact.values.push(value);
  }

  private visitAssignment(node: GoNode, context: Context, depth: number): void {
    const left = childByField(node, 'left');
    const right = childByField(node, 'right');
    const operator = childByField(node, 'operator');
    const plain = !operator || ASSIGNMENT_OPERATORS.has(this.text(operator));
    const targets = left ? namedChildren(left) : [];
    const values = this.visitValues(right, context, depth, targets.length);
    targets.forEach((target, index) => {
      if (target.type === 'identifier' && plain && context.scope.lookUp(this.text(target)) !== undefined) this.bindValue(context.scope, this.text(target), values[index], false);
      else this.visitTarget(target, context, plain ? 'write' : 'update', depth);
    });
  }

  /** What an assignment, `++` or `+=` changes: a name, a selector, or an element of what a path holds. */
  private visitTarget(target: GoNode, context: Context, mode: 'write' | 'update', depth: number): void {
    switch (target.type) {
      case 'identifier': {
        const name = this.text(target);
        if (name === '_' || context.scope.lookUp(name) !== undefined) return;
        this.use(context, target, { root: { kind: 'name', name }, steps: [] }, mode);
        return;
      }
      case 'selector_expression':
        this.use(context, target, this.pathOf(target, context, depth + 1), mode);
        return;
      case 'index_expression': {
        // `m[k] = v` changes the map m holds: m is read, and what it holds written.
        const operand = childByField(target, 'operand');
        const index = childByField(target, 'index');
        if (operand) {
          const path = this.pathOf(operand, context, depth + 1);
          if (reaches(path)) this.use(context, target, path, 'mutate');
        }
        if (index) this.visitExpression(index, context, depth + 1);
        return;
      }
      case 'parenthesized_expression':
        for (const child of namedChildren(target)) this.visitTarget(child, context, mode, depth + 1);
        return;
      default:
        // `*p = v` writes what p points to: p itself is only read.
        this.visitExpression(target, context, depth + 1);
    }
  }

  private visitLocalDeclaration(node: GoNode, context: Context, depth: number): void {
    const holder = node.children.find((child) => child.type === 'var_spec_list') ?? node;
    for (const spec of holder.children) {
      if (spec.type !== 'var_spec' && spec.type !== 'const_spec') continue;
      const type = childByField(spec, 'type');
      const typeRef = type ? typeRefOf(type, this.source, context.scope.typeParameters) : undefined;
      const names = childrenByField(spec, 'name');
      const values = this.visitValues(childByField(spec, 'value'), context, depth, names.length);
      names.forEach((name, index) => this.bindValue(context.scope, this.text(name), values[index], true, typeRef));
    }
  }

  /** `for k, v := range x`: k and v bound in the loop's scope to what ranging over x gives. */
  private visitRange(clause: GoNode, context: Context, depth: number): void {
    const right = childByField(clause, 'right');
    const left = childByField(clause, 'left');
    const path = right ? this.visitExpression(right, context, depth + 1) : OPAQUE_PATH;
    const declares = clause.children.some((child) => child.type === ':=');
    (left ? namedChildren(left) : []).forEach((target, index) => {
      if (declares && target.type === 'identifier') this.bindValue(context.scope, this.text(target), { path, range: index === 0 ? 'key' : 'element' }, true);
      else if (!declares) this.visitTarget(target, context, 'write', depth);
    });
  }

  /** `switch v := x.(type)`: in a case of one type, v is that type; in any other, what x is. */
  private visitTypeSwitch(node: GoNode, context: Context, depth: number): void {
    const scope: Context = { ...context, scope: context.scope.child() };
    const initializer = childByField(node, 'initializer');
    if (initializer) this.visitStatement(initializer, scope, depth + 1);
    const value = childByField(node, 'value');
    const path = value ? this.visitExpression(value, scope, depth + 1) : OPAQUE_PATH;
    const alias = childByField(node, 'alias');
    const name = alias ? namedChildren(alias)[0] : undefined;
    for (const clause of node.children) {
      if (clause.type !== 'type_case' && clause.type !== 'default_case') continue;
      const inner: Context = { ...scope, scope: scope.scope.child() };
      const types = clause.children.filter((child) => child.field === 'type' && child.named);
      if (name) {
        const single = types.length === 1 && types[0]!.type !== 'nil' ? typeRefOf(types[0], this.source, scope.scope.typeParameters) : undefined;
        this.bindValue(inner.scope, this.text(name), single ? undefined : { path }, true, single);
      }
      for (const child of clause.children) if (child.field !== 'type') this.visitStatement(child, inner, depth + 1);
    }
  }
}

const STATEMENTS = new Set([
  'short_var_declaration', 'assignment_statement', 'inc_statement', 'dec_statement', 'var_declaration', 'const_declaration', 'type_declaration',
  'if_statement', 'expression_switch_statement', 'type_switch_statement', 'for_statement', 'select_statement', 'labeled_statement',
  'expression_statement', 'go_statement', 'defer_statement', 'return_statement', 'send_statement', 'block', 'statement_list',
  'break_statement', 'continue_statement', 'goto_statement', 'fallthrough_statement', 'empty_statement',
]);

function isStatement(node: GoNode): boolean {
  return STATEMENTS.has(node.type);
}
