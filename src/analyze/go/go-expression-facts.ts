import { clip, collapseWhitespace } from '../../text/clip.js';
import type { Access, ExprPath, GoFacts, Step, TypeRef, UseFact } from './go-facts.js';
import type { GoScope } from './go-scopes.js';
import { childByField, childrenByField, type GoNode, type LineOf, namedChildren, textOf } from './go-syntax.js';
import { resultTypes, typeRefOf } from './go-type-refs.js';

const CALLEE_TEXT_LIMIT = 120;
/** Syntax nested deeper than this is not read: generated code nests expressions thousands deep, and the walk must not exhaust the stack. */
export const MAX_DEPTH = 600;

export const OPAQUE_PATH: ExprPath = { root: { kind: 'opaque' }, steps: [] };
/** Predeclared names that are values, not things a graph can reach. */
const CONSTANTS = new Set(['true', 'false', 'nil', 'iota']);

export interface Context {
  scope: GoScope;
  /** The unit whose code is being read. */
  from: string;
}

/**
 * Reads Go expressions into paths (a root, then selectors, calls, indexes and assertions) and
 * records the uses inside them: calls, reads, composite literals and the fields they set. The
 * statements around the expressions, and the locals they bind, are GoBodyReader's.
 *
 * The predeclared funcs whose effect is on their arguments are read here, unless a local shadows
 * them: `new(T)` and `make(T)` give a T, `append(x, …)` gives what x holds, `delete(m, k)`,
 * `clear(m)` and `copy(dst, …)` change the map or slice they are given. Every other call is a use;
 * the resolver drops calls of predeclared funcs (`len`, `panic`) and conversions, which are no
 * call sites.
 */
export abstract class GoExpressionReader {
  private readonly paths = new Map<string, ExprPath>();

  constructor(
    protected readonly facts: GoFacts,
    protected readonly source: string,
    protected readonly lineOf: LineOf,
  ) {}

  /** A func literal's parameters and body, read as the enclosing unit's code. */
  abstract readFunction(declaration: GoNode, from: string, scope: GoScope): void;

  protected text(node: GoNode): string {
    return textOf(node, this.source);
  }

  private addUse(use: UseFact): void {
    // One object per distinct path: the resolver walks each once however often the file uses it.
    const key = JSON.stringify(use.path);
    const known = this.paths.get(key);
    if (known) use.path = known;
    else this.paths.set(key, use.path);
    this.facts.uses.push(use);
  }

  protected use(context: Context, node: GoNode, path: ExprPath, access: Access): void {
    this.addUse({ from: context.from, line: this.lineOf(node.start), path, access });
  }

  /**
   * Reads an expression in a read position: its nested calls and literals are uses of their own
   * (pathOf records them), and the path it ends on is read when it can reach a unit or a slot.
   */
  visitExpression(node: GoNode, context: Context, depth: number): ExprPath {
    const path = this.pathOf(node, context, depth);
    if (reaches(path) && path.steps.at(-1)?.kind !== 'call') this.use(context, node, path, 'read');
    return path;
  }

  /** The path an expression denotes, recording the uses inside it on the way. */
  protected pathOf(node: GoNode, context: Context, depth: number): ExprPath {
    if (depth > MAX_DEPTH) return OPAQUE_PATH;
    switch (node.type) {
      case 'identifier': {
        const name = this.text(node);
        const local = context.scope.lookUp(name);
        if (local !== undefined) return { root: { kind: 'local', local }, steps: [] };
        return name === '_' || CONSTANTS.has(name) ? OPAQUE_PATH : { root: { kind: 'name', name }, steps: [] };
      }
      case 'selector_expression': {
        const operand = childByField(node, 'operand');
        const field = childByField(node, 'field');
        if (!operand || !field) return OPAQUE_PATH;
        return extend(this.pathOf(operand, context, depth + 1), { kind: 'select', name: this.text(field) });
      }
      case 'call_expression':
        return this.visitCall(node, context, depth);
      case 'type_conversion_expression':
        return this.visitConversion(node, context, depth);
      case 'index_expression': {
        const operand = childByField(node, 'operand');
        for (const index of childrenByField(node, 'index')) this.visitExpression(index, context, depth + 1);
        return operand ? extend(this.pathOf(operand, context, depth + 1), { kind: 'index' }) : OPAQUE_PATH;
      }
      case 'slice_expression': {
        for (const field of ['start', 'end', 'capacity']) {
          const part = childByField(node, field);
          if (part) this.visitExpression(part, context, depth + 1);
        }
        const operand = childByField(node, 'operand');
        return operand ? this.pathOf(operand, context, depth + 1) : OPAQUE_PATH;
      }
      case 'type_assertion_expression': {
        const operand = childByField(node, 'operand');
        const type = typeRefOf(childByField(node, 'type'), this.source, context.scope.typeParameters);
        return operand ? extend(this.pathOf(operand, context, depth + 1), { kind: 'assert', type }) : OPAQUE_PATH;
      }
      case 'parenthesized_expression': {
        const inner = namedChildren(node)[0];
        return inner ? this.pathOf(inner, context, depth + 1) : OPAQUE_PATH;
      }
      case 'unary_expression': {
        const operator = childByField(node, 'operator');
        const operand = childByField(node, 'operand');
        if (!operand) return OPAQUE_PATH;
        const symbol = operator ? this.text(operator) : '';
        // `&x` and `*p` hold what x holds (pointers are transparent); `<-ch` an element of ch.
        if (symbol === '&' || symbol === '*') return this.pathOf(operand, context, depth + 1);
        if (symbol === '<-') return extend(this.pathOf(operand, context, depth + 1), { kind: 'index' });
        this.visitExpression(operand, context, depth + 1);
        return OPAQUE_PATH;
      }
      case 'composite_literal':
        return this.visitComposite(node, undefined, context, depth);
      case 'func_literal': {
        const scope = context.scope.child();
        this.readFunction(node, context.from, scope);
        return { root: { kind: 'typed', type: { kind: 'func', results: resultTypes(childByField(node, 'result'), this.source, context.scope.typeParameters) } }, steps: [] };
      }
      case 'qualified_type':
      case 'type_identifier':
      case 'generic_type':
      case 'pointer_type':
        return this.typePath(typeRefOf(node, this.source, context.scope.typeParameters), context);
      default:
        for (const child of namedChildren(node)) this.visitExpression(child, context, depth + 1);
        return OPAQUE_PATH;
    }
  }

  private visitCall(call: GoNode, context: Context, depth: number): ExprPath {
    const callee = childByField(call, 'function');
    const argumentList = childByField(call, 'arguments');
    const argumentNodes = argumentList ? namedChildren(argumentList) : [];
    if (!callee) return OPAQUE_PATH;
    if (callee.type === 'func_literal') {
      // `go func() { … }()`: the literal's code is the enclosing unit's own, read where it stands.
      this.pathOf(callee, context, depth + 1);
      for (const argument of argumentNodes) this.visitExpression(argument, context, depth + 1);
      return OPAQUE_PATH;
    }
    const name = callee.type === 'identifier' ? this.text(callee) : undefined;
    if (name !== undefined && context.scope.lookUp(name) === undefined) {
      const first = argumentNodes[0];
      const readRest = (from: number): void => {
        for (const argument of argumentNodes.slice(from)) this.visitExpression(argument, context, depth + 1);
      };
      switch (name) {
        case 'new':
        case 'make':
          readRest(1);
          return { root: { kind: 'typed', type: first ? typeRefOf(first, this.source, context.scope.typeParameters) : { kind: 'opaque' } }, steps: [] };
        case 'append':
          // The caller reads what `append` is given, as the value the call gives.
          readRest(1);
          return first ? this.pathOf(first, context, depth + 1) : OPAQUE_PATH;
        case 'delete':
        case 'clear':
        case 'copy': {
          if (first) {
            const path = this.pathOf(first, context, depth + 1);
            if (reaches(path)) this.use(context, first, path, 'mutate');
          }
          readRest(1);
          return OPAQUE_PATH;
        }
      }
    }
    const path = this.pathOf(callee, context, depth + 1);
    for (const argument of argumentNodes) this.visitExpression(argument.type === 'variadic_argument' ? namedChildren(argument)[0] ?? argument : argument, context, depth + 1);
    if (path.root.kind === 'opaque' && path.steps.length === 0) return OPAQUE_PATH;
    this.addUse({
      from: context.from,
      line: this.lineOf(call.start),
      path,
      access: 'call',
      text: clip(collapseWhitespace(this.text(callee)), CALLEE_TEXT_LIMIT),
      arguments: argumentNodes.length,
      ...(argumentNodes.some((argument) => argument.type === 'variadic_argument') ? { spread: true } : {}),
    });
    return extend(path, { kind: 'call' });
  }

  /** `T(x)` the grammar reads as a conversion, and `Map[int](xs)`, a generic func's call: which one the resolver tells. */
  private visitConversion(node: GoNode, context: Context, depth: number): ExprPath {
    const typeNode = childByField(node, 'type');
    const operand = childByField(node, 'operand');
    if (operand) this.visitExpression(operand, context, depth + 1);
    const type = typeRefOf(typeNode, this.source, context.scope.typeParameters);
    const path = this.typePath(type, context);
    if (path.root.kind === 'opaque') return { root: { kind: 'typed', type }, steps: [] };
    this.addUse({ from: context.from, line: this.lineOf(node.start), path, access: 'call', text: clip(collapseWhitespace(this.text(typeNode!)), CALLEE_TEXT_LIMIT), arguments: operand ? 1 : 0 });
    return extend(path, { kind: 'call' });
  }

  /** The path that names a type: `Server` a name, `model.Client` a qualifier and a selector; a local type or another form, nothing. */
  private typePath(type: TypeRef, context: Context): ExprPath {
    if (type.kind !== 'named') return OPAQUE_PATH;
    const first = type.qualifier ?? type.name;
    if (context.scope.lookUp(first) !== undefined) return OPAQUE_PATH;
    return type.qualifier === undefined ? { root: { kind: 'name', name: type.name }, steps: [] } : { root: { kind: 'name', name: type.qualifier }, steps: [{ kind: 'select', name: type.name }] };
  }

  /**
   * `T{…}` or an element `{…}` of a literal of Ts: an instance of T. Keys of a named type's literal
   * are its fields, each written; of a map's, expressions. Elements without a type of their own
   * take the element type of the literal around them.
   */
  private visitComposite(literal: GoNode, elementType: TypeRef | undefined, context: Context, depth: number): ExprPath {
    if (depth > MAX_DEPTH) return OPAQUE_PATH;
    const typeNode = childByField(literal, 'type');
    const type = typeNode ? typeRefOf(typeNode, this.source, context.scope.typeParameters) : elementType ?? { kind: 'opaque' };
    const typePath = this.typePath(type, context);
    if (typePath.root.kind !== 'opaque') this.use(context, literal, typePath, 'instantiate');
    const body = literal.type === 'literal_value' ? literal : childByField(literal, 'body');
    const inner = type.kind === 'container' ? type.element : undefined;
    const keyed = type.kind === 'named' && typePath.root.kind !== 'opaque';
    for (const element of body ? namedChildren(body) : []) {
      if (element.type === 'keyed_element') {
        const key = childByField(element, 'key');
        const value = childByField(element, 'value');
        const keyExpression = key ? namedChildren(key)[0] : undefined;
        if (keyed && keyExpression?.type === 'identifier') {
          this.use(context, keyExpression, { root: { kind: 'typed', type }, steps: [{ kind: 'select', name: this.text(keyExpression) }] }, 'write');
        } else if (key) this.visitElement(key, type.kind === 'container' ? type.key : undefined, context, depth);
        if (value) this.visitElement(value, inner, context, depth);
      } else this.visitElement(element, inner, context, depth);
    }
    return { root: { kind: 'typed', type }, steps: [] };
  }

  private visitElement(element: GoNode, type: TypeRef | undefined, context: Context, depth: number): void {
    const content = element.type === 'literal_element' ? namedChildren(element)[0] : element;
    if (!content) return;
    if (content.type === 'literal_value') this.visitComposite(content, type, context, depth + 1);
    else this.visitExpression(content, context, depth + 1);
  }
}

export function extend(path: ExprPath, step: Step): ExprPath {
  return path.root.kind === 'opaque' && path.steps.length === 0 ? path : { root: path.root, steps: [...path.steps, step] };
}

/** Whether a path can reach a unit or a slot: a bare local cannot (its uses are the uses of what it holds, read where it was assigned). */
export function reaches(path: ExprPath): boolean {
  if (path.root.kind === 'opaque') return false;
  if (path.root.kind === 'local' || path.root.kind === 'typed') return path.steps.length > 0;
  return true;
}
