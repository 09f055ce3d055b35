import type { LocalFact, NamePath, Root, ValueFact } from './python-facts.js';
import type { Scope } from './python-scopes.js';
import { childByField, type TreeNode } from '../syntax/syntax-tree.js';
import { stringValue } from './declaration-text.js';

/** Literals whose value is of a builtin type: their attributes are Python's own methods. */
const BUILTIN_LITERALS = new Set([
  'string', 'concatenated_string', 'integer', 'float', 'true', 'false', 'list', 'dictionary', 'set', 'tuple',
  'list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression',
]);

/** Annotations that say something about a type rather than being one: what they wrap is the type. */
const TYPE_WRAPPERS = new Set(['Optional', 'Union', 'Annotated', 'ClassVar', 'Final', 'Required', 'NotRequired', 'ReadOnly', 'InitVar']);

/** Annotations of containers whose iteration gives their first argument (`list[Tool]` gives Tools). */
const CONTAINERS = new Set([
  'list', 'List', 'set', 'Set', 'frozenset', 'FrozenSet', 'tuple', 'Tuple', 'Sequence', 'MutableSequence', 'Iterable', 'Iterator',
  'Collection', 'AbstractSet', 'MutableSet', 'deque', 'Deque', 'Generator', 'AsyncIterator', 'AsyncIterable', 'AsyncGenerator',
]);

/** A path and the node its root's value comes from when no name holds it (a call, a literal, a subscript), which has uses of its own. */
export interface ReadPath {
  path: NamePath;
  inner?: TreeNode;
}

/**
 * Reads expressions of one file into facts: names bound to their scopes, attribute chains into
 * paths, assigned values and annotations into what they may hold. A function-local name becomes
 * a LocalFact the first time a use refers to it, from every place its scope binds it.
 */
export class ExpressionReader {
  constructor(
    private readonly source: string,
    readonly locals: LocalFact[],
  ) {}

  text(node: TreeNode): string {
    return this.source.slice(node.start, node.end);
  }

  rootOfName(name: string, scope: Scope): Root {
    let first = true;
    for (let current: Scope | undefined = scope; current; current = current.parent) {
      if (current.kind === 'module') return { kind: 'global', name };
      // A class body's names are seen from the body itself, never from the functions inside it.
      if (current.kind === 'class' && !first) continue;
      first = false;
      if (current.globals.has(name)) return { kind: 'global', name };
      if (!current.nonlocals.has(name) && current.bindings.has(name)) return { kind: 'local', local: this.localOf(current, name) };
    }
    return { kind: 'global', name };
  }

  /** The fact of a name bound in `scope`, made on first use: its index is taken before its values are read, so names that refer to each other end. */
  localOf(scope: Scope, name: string): number {
    const known = scope.localIndex.get(name);
    if (known !== undefined) return known;
    const index = this.locals.length;
    const fact: LocalFact = { values: [] };
    this.locals.push(fact);
    scope.localIndex.set(name, index);
    const values: ValueFact[] = [];
    for (const site of scope.bindings.get(name) ?? []) {
      if (site.kind === 'unit') fact.unit = site.symbol;
      else if (site.kind === 'import') fact.binding ??= site.binding;
      else if (site.kind === 'self') fact.self = site.classSymbol;
      else if (site.kind === 'class-object') {
        fact.self = site.classSymbol;
        fact.classObject = true;
      }
      else if (site.kind === 'annotation') {
        const annotation = this.annotationOf(site.node, site.scope);
        if (annotation.kind !== 'opaque') fact.annotation ??= annotation;
      }
      else if (site.kind === 'value') values.push(this.valueOf(site.node, site.scope));
      else if (site.kind === 'element') values.push({ kind: 'element', of: this.valueOf(site.node, site.scope) });
      else if (site.kind === 'builtin') values.push({ kind: 'builtin' });
      else values.push({ kind: 'opaque' });
    }
    fact.values = values.filter((value) => value.kind !== 'opaque').slice(0, 4);
    return index;
  }

  pathOf(node: TreeNode, scope: Scope): ReadPath {
    switch (node.type) {
      case 'identifier':
        return { path: { root: this.rootOfName(this.text(node), scope), attributes: [] } };
      case 'attribute': {
        const object = childByField(node, 'object');
        const attribute = childByField(node, 'attribute');
        if (!object || !attribute) return { path: { root: { kind: 'opaque' }, attributes: [] }, inner: node };
        const base = this.pathOf(object, scope);
        return { path: { root: base.path.root, attributes: [...base.path.attributes, this.text(attribute)] }, ...(base.inner ? { inner: base.inner } : {}) };
      }
      case 'call': {
        const callee = childByField(node, 'function');
        if (!callee) return { path: { root: { kind: 'opaque' }, attributes: [] }, inner: node };
        if (this.isSuper(callee, scope)) {
          const classSymbol = methodClass(scope);
          return { path: { root: classSymbol === undefined ? { kind: 'opaque' } : { kind: 'super', classSymbol }, attributes: [] } };
        }
        return { path: { root: { kind: 'call', callee: this.pathOf(callee, scope).path }, attributes: [] }, inner: node };
      }
      case 'parenthesized_expression':
      case 'await': {
        const inner = node.children.find((child) => child.named && child.type !== 'comment');
        return inner ? this.pathOf(inner, scope) : { path: { root: { kind: 'opaque' }, attributes: [] }, inner: node };
      }
      default:
        return { path: { root: { kind: BUILTIN_LITERALS.has(node.type) ? 'builtin' : 'opaque' }, attributes: [] }, inner: node };
    }
  }

  /** `super` as Python's own: a local or module name `super` is something else. */
  isSuper(callee: TreeNode, scope: Scope): boolean {
    if (callee.type !== 'identifier' || this.text(callee) !== 'super') return false;
    return this.rootOfName('super', scope).kind === 'global';
  }

  valueOf(node: TreeNode, scope: Scope): ValueFact {
    switch (node.type) {
      case 'call': {
        const callee = childByField(node, 'function');
        return callee ? { kind: 'call', callee: this.pathOf(callee, scope).path } : { kind: 'opaque' };
      }
      case 'identifier':
      case 'attribute':
        return { kind: 'path', path: this.pathOf(node, scope).path };
      case 'parenthesized_expression':
      case 'await':
      case 'named_expression': {
        const inner = node.type === 'named_expression' ? childByField(node, 'value') : node.children.find((child) => child.named && child.type !== 'comment');
        return inner ? this.valueOf(inner, scope) : { kind: 'opaque' };
      }
      case 'conditional_expression':
      case 'boolean_operator': {
        // `session or Store()`, `a if ok else b`: whichever side tells what the value is.
        const operands = node.type === 'boolean_operator'
          ? [childByField(node, 'left'), childByField(node, 'right')]
          : node.children.filter((child) => child.named && child.type !== 'comment').filter((_, index) => index !== 1);
        for (const operand of operands) {
          const value = operand ? this.valueOf(operand, scope) : undefined;
          if (value && value.kind !== 'opaque') return value;
        }
        return { kind: 'opaque' };
      }
      default:
        return BUILTIN_LITERALS.has(node.type) ? { kind: 'builtin' } : { kind: 'opaque' };
    }
  }

  /** What a name annotated so holds: an instance of the type, the class itself for `type[X]`. */
  annotationOf(node: TreeNode, scope: Scope): ValueFact {
    switch (node.type) {
      case 'type': {
        const inner = node.children.find((child) => child.named && child.type !== 'comment');
        return inner ? this.annotationOf(inner, scope) : { kind: 'opaque' };
      }
      case 'identifier':
      case 'attribute':
        return { kind: 'instance', type: this.pathOf(node, scope).path };
      case 'string':
        return this.annotationOfText(stringValue(node, this.source), scope);
      case 'binary_operator':
      case 'union_type': {
        const operands = node.children.filter((child) => child.named && child.type !== 'comment' && child.type !== 'none');
        return operands[0] ? this.annotationOf(operands[0], scope) : { kind: 'opaque' };
      }
      case 'generic_type': {
        const base = node.children.find((child) => child.type === 'identifier' || child.type === 'attribute');
        const parameters = node.children.find((child) => child.type === 'type_parameter')?.children.filter((child) => child.named) ?? [];
        return base ? this.genericOf(base, parameters, scope) : { kind: 'opaque' };
      }
      case 'subscript': {
        const base = childByField(node, 'value');
        const parameters = node.children.filter((child) => child.field === 'subscript');
        return base && (base.type === 'identifier' || base.type === 'attribute') ? this.genericOf(base, parameters, scope) : { kind: 'opaque' };
      }
      default:
        return { kind: 'opaque' };
    }
  }

  private genericOf(base: TreeNode, parameters: readonly TreeNode[], scope: Scope): ValueFact {
    const name = this.text(base).split('.').pop()!.trim();
    const meaningful = parameters.filter((parameter) => !isNone(parameter));
    if (TYPE_WRAPPERS.has(name)) return meaningful[0] ? this.annotationOf(meaningful[0], scope) : { kind: 'opaque' };
    if (name === 'type' || name === 'Type') {
      const of = meaningful[0] ? this.annotationOf(meaningful[0], scope) : undefined;
      return of?.kind === 'instance' ? { kind: 'path', path: of.type } : { kind: 'opaque' };
    }
    const type = this.pathOf(base, scope).path;
    if (CONTAINERS.has(name) && meaningful[0]) {
      const element = this.annotationOf(meaningful[0], scope);
      if (element.kind === 'instance') return { kind: 'instance', type, element: element.type };
    }
    return { kind: 'instance', type };
  }

  /** A string annotation (`"Agent"`, `"Optional[Agent]"`, `"Agent | None"`), read by its text. */
  private annotationOfText(text: string, scope: Scope): ValueFact {
    const type = text.trim();
    const parts = splitTopLevel(type, '|').filter((part) => part !== 'None');
    if (parts.length > 1 || (parts.length === 1 && parts[0] !== type)) return parts[0] ? this.annotationOfText(parts[0], scope) : { kind: 'opaque' };
    if (/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/.test(type)) return { kind: 'instance', type: this.dottedPath(type, scope) };
    const generic = /^([A-Za-z_][\w.]*)\s*\[(.*)\]$/s.exec(type);
    if (!generic) return { kind: 'opaque' };
    const name = generic[1]!.split('.').pop()!;
    const first = splitTopLevel(generic[2]!, ',').find((part) => part !== 'None');
    if (TYPE_WRAPPERS.has(name)) return first ? this.annotationOfText(first, scope) : { kind: 'opaque' };
    const of = first ? this.annotationOfText(first, scope) : undefined;
    if (name === 'type' || name === 'Type') return of?.kind === 'instance' ? { kind: 'path', path: of.type } : { kind: 'opaque' };
    const base = this.dottedPath(generic[1]!, scope);
    return CONTAINERS.has(name) && of?.kind === 'instance' ? { kind: 'instance', type: base, element: of.type } : { kind: 'instance', type: base };
  }

  private dottedPath(dotted: string, scope: Scope): NamePath {
    const [first, ...rest] = dotted.split('.');
    return { root: this.rootOfName(first!, scope), attributes: rest };
  }
}

function isNone(node: TreeNode): boolean {
  if (node.type === 'none') return true;
  return node.type === 'type' && node.children.length === 1 && node.children[0]!.type === 'none';
}

/** The class whose method holds a scope (directly or in a nested scope), for `super()`. */
function methodClass(scope: Scope): string | undefined {
  for (let current: Scope | undefined = scope; current; current = current.parent) {
    if (current.kind === 'function') return current.classSymbol;
    if (current.kind === 'class' || current.kind === 'module') return undefined;
  }
  return undefined;
}

/** Splits at a separator outside brackets and trims the parts. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '[' || char === '(') depth += 1;
    else if (char === ']' || char === ')') depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}
