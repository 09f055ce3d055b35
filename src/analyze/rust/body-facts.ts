import { ELEMENT_CLOSURE_METHODS, VALUE_MACROS } from './rust-std.js';
import type { Access, Expression, FunctionFact, Root, RustFacts, TypeFact, UseFact } from './rust-facts.js';
import { PatternBinder, Scope } from './local-scopes.js';
import { extend, isRead } from './expressions.js';
import { scanTokenTree } from './macro-tokens.js';
import { attributedItems, childByField, nameOf, pathSegments, spelled, type AttributedItem, type RustNode } from './rust-syntax.js';
import { genericsOf, readType, type TypeContext } from './type-facts.js';
import { importsOf } from './use-declarations.js';

/** Syntax nested deeper than this is not read: generated code nests expressions thousands deep, and the walk must not exhaust the stack. */
const MAX_DEPTH = 600;

/** Where an item stands: its module scope, the type parameters and `Self` of what holds it, the block scopes around it. */
export interface ItemContext {
  module: string;
  generics: ReadonlyMap<string, TypeFact>;
  selfType?: TypeFact;
  scope?: Scope;
}

/** Where code is being read: the unit it belongs to, its module, its lexical scope, how its types read. */
export interface BodyContext {
  from: string;
  module: string;
  scope: Scope;
  types: TypeContext;
}

const OPAQUE: Expression = { root: { kind: 'opaque' }, steps: [] };
const PRIMITIVE: Expression = { root: { kind: 'primitive' }, steps: [] };
const NO_SCOPE = new Scope(undefined, true);

const LITERALS = new Set(['string_literal', 'raw_string_literal', 'char_literal', 'integer_literal', 'float_literal', 'boolean_literal', 'array_expression', 'range_expression', 'binary_expression', 'tuple_expression', 'unit_expression']);
const BLOCKS = new Set(['block', 'unsafe_block', 'async_block', 'const_block', 'loop_expression', 'gen_block', 'try_block']);

/**
 * Reads the code of function bodies and initializers into uses: calls (of paths, methods and
 * macros, also inside macro arguments), struct literals, reads and writes of fields and statics,
 * each from the unit whose code holds it, with every local binding the uses refer to.
 */
export class BodyReader {
  private depth = 0;
  private readonly patterns: PatternBinder;

  constructor(
    private readonly facts: RustFacts,
    private readonly source: string,
    private readonly lineOf: (offset: number) => number,
    private readonly symbolOf: ReadonlyMap<RustNode, string>,
    private readonly testOnly: ReadonlySet<RustNode>,
    private readonly visitItems: (items: AttributedItem[], context: ItemContext) => void,
  ) {
    this.patterns = new PatternBinder(facts, source);
  }

  /** The local every binding nothing is known of shares, if one was made yet (see PatternBinder). */
  get opaqueLocal(): number | undefined {
    return this.patterns.opaqueLocal;
  }

  set opaqueLocal(local: number | undefined) {
    this.patterns.opaqueLocal = local;
  }

  typeContext(item: ItemContext): TypeContext {
    return { scope: item.module, generics: item.generics, ...(item.selfType ? { selfType: item.selfType } : {}), blockTypes: item.scope ?? NO_SCOPE };
  }

  /** A fn's parameters, return type and body; `item` is where the fn stands. */
  readFunction(node: RustNode, symbol: string, item: ItemContext): FunctionFact {
    const generics = genericsOf(node, item.generics, this.typeContext(item), this.source);
    const types = this.typeContext({ ...item, generics });
    const returns = readType(childByField(node, 'return_type'), types, this.source);
    const scope = new Scope(item.scope, true);
    const fact: FunctionFact = { mutatesSelf: false };
    if (returns.kind !== 'opaque') fact.returns = returns;
    for (const parameter of childByField(node, 'parameters')?.children ?? []) {
      if (parameter.type === 'self_parameter') {
        fact.mutatesSelf = parameter.children.some((child) => child.type === 'mutable_specifier');
        this.patterns.bindName(scope, 'self', item.selfType ? { type: item.selfType } : {});
      } else if (parameter.type === 'parameter') {
        const pattern = childByField(parameter, 'pattern');
        const typeNode = childByField(parameter, 'type');
        const type = readType(typeNode, types, this.source);
        if (pattern?.type === 'self') {
          fact.mutatesSelf = /\bmut\b/.test(this.source.slice(parameter.start, parameter.end));
          this.patterns.bindName(scope, 'self', { type });
        } else this.patterns.bind(pattern, scope, { type });
      }
    }
    this.facts.functions[symbol] = fact;
    const body = childByField(node, 'body');
    if (body) this.readBlock(body, { from: symbol, module: item.module, scope, types });
    return fact;
  }

  /** A const's or static's initializer, as code of that unit. */
  readInitializer(value: RustNode, symbol: string, item: ItemContext): void {
    this.readValue(value, { from: symbol, module: item.module, scope: new Scope(item.scope, true), types: this.typeContext(item) });
  }

  /** A macro invoked where items stand (at a module's top): code of the enclosing unit. */
  readItemMacro(invocation: RustNode, from: string, item: ItemContext): void {
    this.readValue(invocation, { from, module: item.module, scope: new Scope(item.scope, true), types: this.typeContext(item) });
  }

  /** Tokens of a macro's arguments read as code (see macro-tokens.ts). */
  readTokens(tokens: readonly RustNode[], context: BodyContext): void {
    scanTokenTree(tokens, context, this);
  }

  addUse(context: BodyContext, node: RustNode, expression: Expression, access: Access, text?: string): void {
    const use: UseFact = { from: context.from, line: this.lineOf(node.start), expression, access };
    if (text !== undefined) use.text = text;
    this.facts.uses.push(use);
  }

  readBlock(block: RustNode, outer: BodyContext): void {
    const scope = new Scope(outer.scope, false);
    const context: BodyContext = { ...outer, scope };
    const items = attributedItems(block.children, this.source, this.lineOf).filter((item) => item.node.type !== 'expression_statement' && item.node.type !== 'macro_invocation');
    for (const { node } of items) this.bindItem(node, context);
    // Items of a block see its other items, never its locals, `Self` or type parameters.
    this.visitItems(items, { module: outer.module, generics: new Map(), scope });
    const isItem = new Set(items.map((item) => item.node));
    for (const child of block.children) if (child.named && !isItem.has(child)) this.readStatement(child, context);
  }

  private bindItem(node: RustNode, context: BodyContext): void {
    if (this.testOnly.has(node)) return;
    if (node.type === 'use_declaration') {
      for (const fact of importsOf(node, context.module, this.source, this.lineOf, true)) {
        this.facts.imports.push(fact);
        if (fact.name === undefined || fact.name === '_') continue;
        context.scope.bindValue(fact.name, { kind: 'import', segments: fact.segments });
        context.scope.bindType(fact.name, { kind: 'import', segments: fact.segments });
      }
      return;
    }
    const symbol = this.symbolOf.get(node);
    const name = nameOf(node, this.source);
    if (symbol === undefined || name === undefined) return;
    if (node.type === 'function_item' || node.type === 'const_item' || node.type === 'static_item') context.scope.bindValue(name, { kind: 'item', symbol });
    else context.scope.bindType(name, { kind: 'item', symbol });
    // A tuple struct's name is also its constructor.
    if (node.type === 'struct_item') context.scope.bindValue(name, { kind: 'item', symbol });
  }

  private readStatement(node: RustNode, context: BodyContext): void {
    switch (node.type) {
      case 'let_declaration': {
        const value = childByField(node, 'value');
        const typeNode = childByField(node, 'type');
        const expression = value ? this.readValue(value, context) : undefined;
        const alternative = childByField(node, 'alternative');
        if (alternative) this.readBlock(alternative, context);
        const type = typeNode ? readType(typeNode, context.types, this.source) : undefined;
        this.patterns.bind(childByField(node, 'pattern'), context.scope, { ...(type ? { type } : {}), ...(expression ? { value: expression } : {}) });
        return;
      }
      case 'expression_statement':
        for (const child of node.children) if (child.named) this.readValue(child, context);
        return;
      case 'line_comment':
      case 'block_comment':
      case 'attribute_item':
      case 'inner_attribute_item':
      case 'empty_statement':
        return;
      default:
        this.readValue(node, context);
    }
  }

  /** Reads an expression and, when it is a path read as a value (not called), records that read. */
  readValue(node: RustNode, context: BodyContext): Expression {
    const expression = this.read(node, context);
    if (isRead(expression)) this.addUse(context, node, expression, 'read');
    return expression;
  }

  read(node: RustNode, context: BodyContext): Expression {
    if (this.depth >= MAX_DEPTH) return OPAQUE;
    this.depth += 1;
    try {
      return this.readNode(node, context);
    } finally {
      this.depth -= 1;
    }
  }

  private readNode(node: RustNode, context: BodyContext): Expression {
    switch (node.type) {
      case 'identifier':
        return { root: this.rootOfName(this.text(node), context), steps: [] };
      case 'self':
        return { root: this.rootOfName('self', context), steps: [] };
      case 'scoped_identifier':
      case 'generic_function': {
        const segments = pathSegments(node, this.source);
        return segments ? { root: this.rootOfPath(segments, context), steps: [] } : OPAQUE;
      }
      case 'field_expression': {
        const value = childByField(node, 'value');
        const field = childByField(node, 'field');
        if (!value || !field) return OPAQUE;
        return extend(this.read(value, context), { kind: 'field', name: this.text(field) });
      }
      case 'call_expression':
        return this.readCall(node, context);
      case 'try_expression':
        return extend(this.readFirst(node, context), { kind: 'try' });
      case 'await_expression':
      case 'parenthesized_expression':
        return this.readFirst(node, context);
      case 'reference_expression': {
        const value = childByField(node, 'value');
        const expression = value ? this.read(value, context) : OPAQUE;
        return node.children.some((child) => child.type === 'mutable_specifier') ? extend(expression, { kind: 'borrow' }) : expression;
      }
      case 'unary_expression': {
        // `*x` is x, seen through; `-x` and `!x` make a new value.
        const inner = node.children.find((child) => child.named);
        if (node.children[0]?.type === '*' && inner) return this.read(inner, context);
        if (inner) this.readValue(inner, context);
        return PRIMITIVE;
      }
      case 'index_expression': {
        const [base, index] = node.children.filter((child) => child.named);
        if (index) this.readValue(index, context);
        return base ? extend(this.read(base, context), { kind: 'index' }) : OPAQUE;
      }
      case 'struct_expression':
        return this.readStruct(node, context);
      case 'macro_invocation':
        return this.readMacro(node, context);
      case 'closure_expression':
        this.readClosure(node, context);
        return OPAQUE;
      case 'if_expression':
      case 'while_expression':
        this.readConditional(node, context);
        return OPAQUE;
      case 'for_expression': {
        const value = childByField(node, 'value');
        const iterated = value ? this.readValue(value, context) : OPAQUE;
        const scope = new Scope(context.scope, false);
        this.patterns.bind(childByField(node, 'pattern'), scope, { value: extend(iterated, { kind: 'index' }) });
        const body = childByField(node, 'body');
        if (body) this.readBlock(body, { ...context, scope });
        return OPAQUE;
      }
      case 'match_expression':
        this.readMatch(node, context);
        return OPAQUE;
      case 'assignment_expression':
      case 'compound_assignment_expr': {
        const right = childByField(node, 'right');
        if (right) this.readValue(right, context);
        const left = childByField(node, 'left');
        if (left) this.readTarget(left, context, node.type === 'assignment_expression' ? 'write' : 'update');
        return OPAQUE;
      }
      case 'type_cast_expression': {
        const value = childByField(node, 'value');
        if (value) this.readValue(value, context);
        return PRIMITIVE;
      }
      case 'label':
        return OPAQUE;
      case 'string_literal':
      case 'raw_string_literal':
      case 'char_literal':
      case 'integer_literal':
      case 'float_literal':
      case 'boolean_literal':
        return PRIMITIVE;
      default:
        if (BLOCKS.has(node.type)) {
          const block = node.type === 'block' ? node : node.children.find((child) => child.type === 'block') ?? childByField(node, 'body');
          if (block) this.readBlock(block, context);
          return OPAQUE;
        }
        for (const child of node.children) if (child.named) this.readStatement(child, context);
        return LITERALS.has(node.type) ? PRIMITIVE : OPAQUE;
    }
  }

  private readFirst(node: RustNode, context: BodyContext): Expression {
    const inner = node.children.find((child) => child.named && child.type !== 'line_comment' && child.type !== 'block_comment');
    return inner ? this.read(inner, context) : OPAQUE;
  }

  private readCall(node: RustNode, context: BodyContext): Expression {
    const callee = childByField(node, 'function');
    if (!callee) return OPAQUE;
    const target = callee.type === 'generic_function' && childByField(callee, 'function')?.type === 'field_expression' ? childByField(callee, 'function')! : callee;
    let expression: Expression;
    let method: string | undefined;
    let receiver: Expression | undefined;
    if (target.type === 'field_expression') {
      const value = childByField(target, 'value');
      const field = childByField(target, 'field');
      receiver = value ? this.read(value, context) : OPAQUE;
      method = field ? this.text(field) : '';
      expression = extend(receiver, { kind: 'method', name: method });
    } else expression = extend(this.read(target, context), { kind: 'call' });
    this.addUse(context, node, expression, 'call', spelled(target, this.source));
    for (const argument of childByField(node, 'arguments')?.children ?? []) {
      if (!argument.named) continue;
      if (argument.type === 'closure_expression' && receiver && method !== undefined && ELEMENT_CLOSURE_METHODS.has(method)) this.readClosure(argument, context, extend(receiver, { kind: 'index' }));
      else this.readValue(argument, context);
    }
    return expression;
  }

  private readStruct(node: RustNode, context: BodyContext): Expression {
    const name = childByField(node, 'name');
    const type = name ? readType(name, context.types, this.source) : ({ kind: 'opaque' } as TypeFact);
    const expression: Expression = { root: { kind: 'struct', type }, steps: [] };
    if (type.kind !== 'opaque') this.addUse(context, node, expression, 'instantiate');
    for (const field of childByField(node, 'body')?.children ?? []) {
      if (field.type === 'field_initializer') {
        const value = childByField(field, 'value');
        if (value) this.readValue(value, context);
      } else if (field.named) for (const child of field.type === 'shorthand_field_initializer' || field.type === 'base_field_initializer' ? field.children : [field]) if (child.named) this.readValue(child, context);
    }
    return expression;
  }

  private readMacro(node: RustNode, context: BodyContext): Expression {
    const macro = childByField(node, 'macro');
    const segments = macro ? pathSegments(macro, this.source) : undefined;
    if (!macro || !segments) return OPAQUE;
    this.addUse(context, node, { root: { kind: 'path', scope: context.module, segments }, steps: [] }, 'macro', `${spelled(macro, this.source)}!`);
    const tree = node.children.find((child) => child.type === 'token_tree');
    if (tree) this.readTokens(tree.children.slice(1, -1), context);
    return VALUE_MACROS.has(segments[segments.length - 1]!) ? PRIMITIVE : OPAQUE;
  }

  private readClosure(node: RustNode, context: BodyContext, element?: Expression): void {
    const scope = new Scope(context.scope, false);
    let first = true;
    for (const parameter of childByField(node, 'parameters')?.children ?? []) {
      if (!parameter.named) continue;
      const from = first && element ? { value: element } : {};
      first = false;
      if (parameter.type === 'parameter') {
        const type = childByField(parameter, 'type');
        this.patterns.bind(childByField(parameter, 'pattern'), scope, type ? { type: readType(type, context.types, this.source) } : from);
      } else this.patterns.bind(parameter, scope, from);
    }
    const body = childByField(node, 'body');
    if (body) this.readValue(body, { ...context, scope });
  }

  /** `if` and `while`, with `let` conditions binding what their block sees. */
  private readConditional(node: RustNode, context: BodyContext): void {
    const scope = new Scope(context.scope, false);
    const inner: BodyContext = { ...context, scope };
    const readCondition = (condition: RustNode): void => {
      if (condition.type === 'let_condition') {
        const value = childByField(condition, 'value');
        const expression = value ? this.readValue(value, inner) : undefined;
        this.patterns.bind(childByField(condition, 'pattern'), scope, expression ? { value: expression } : {});
      } else if (condition.type === 'let_chain') {
        for (const part of condition.children) if (part.named) readCondition(part);
      } else this.readValue(condition, inner);
    };
    const condition = childByField(node, 'condition');
    if (condition) readCondition(condition);
    const block = childByField(node, 'consequence') ?? childByField(node, 'body');
    if (block) this.readBlock(block, inner);
    const alternative = childByField(node, 'alternative');
    if (alternative) for (const child of alternative.children) if (child.named) this.readValue(child, context);
  }

  private readMatch(node: RustNode, context: BodyContext): void {
    const value = childByField(node, 'value');
    const matched = value ? this.readValue(value, context) : undefined;
    for (const arm of childByField(node, 'body')?.children ?? []) {
      if (arm.type !== 'match_arm') continue;
      const scope = new Scope(context.scope, false);
      const inner: BodyContext = { ...context, scope };
      const pattern = childByField(arm, 'pattern');
      const guard = pattern && childByField(pattern, 'condition');
      const shape = pattern?.children.find((child) => child.named && child !== guard);
      this.patterns.bind(shape, scope, matched ? { value: matched } : {});
      if (guard) this.readValue(guard, inner);
      const armValue = childByField(arm, 'value');
      if (armValue) this.readValue(armValue, inner);
    }
  }

  /** What an assignment's left side writes: a field, a static, the value behind a `*` or an index. */
  private readTarget(target: RustNode, context: BodyContext, mode: 'write' | 'update'): void {
    switch (target.type) {
      case 'identifier': {
        const root = this.rootOfName(this.text(target), context);
        if (root.kind !== 'local') this.addUse(context, target, { root, steps: [] }, mode);
        return;
      }
      case 'scoped_identifier':
      case 'field_expression':
        this.addUse(context, target, this.read(target, context), mode);
        return;
      case 'unary_expression':
      case 'parenthesized_expression': {
        const inner = target.children.find((child) => child.named);
        if (inner && (target.type === 'parenthesized_expression' || target.children[0]?.type === '*')) {
          if (inner.type === 'identifier' || inner.type === 'field_expression' || inner.type === 'scoped_identifier' || inner.type === 'parenthesized_expression') this.readTarget(inner, context, mode);
          else this.addUse(context, target, this.read(inner, context), mode);
        }
        return;
      }
      case 'index_expression': {
        const [base, index] = target.children.filter((child) => child.named);
        if (index) this.readValue(index, context);
        if (base) this.addUse(context, target, this.read(base, context), 'mutate');
        return;
      }
      case 'tuple_expression':
        for (const child of target.children) if (child.named) this.readTarget(child, context, mode);
        return;
      default:
        this.readValue(target, context);
    }
  }

  rootOfName(name: string, context: BodyContext): Root {
    const binding = context.scope.value(name);
    if (binding?.kind === 'local') return { kind: 'local', local: binding.local };
    if (binding?.kind === 'item') return { kind: 'item', symbol: binding.symbol, segments: [] };
    if (binding?.kind === 'import') return { kind: 'path', scope: context.module, segments: [...binding.segments] };
    if (name === 'self') return { kind: 'opaque' };
    return { kind: 'path', scope: context.module, segments: [name] };
  }

  /** A path's root: `Self::` and a type parameter's `T::` are the type's; a name a block binds is that binding's. */
  rootOfPath(segments: readonly string[], context: BodyContext): Root {
    const [first, ...rest] = segments;
    if (first === undefined) return { kind: 'opaque' };
    if (rest.length === 0) return this.rootOfName(first, context);
    if (first === 'Self') return context.types.selfType ? { kind: 'type', type: context.types.selfType, segments: rest } : { kind: 'opaque' };
    const generic = context.types.generics.get(first);
    if (generic) return { kind: 'type', type: generic, segments: rest };
    const binding = context.scope.type(first) ?? context.scope.value(first);
    if (binding?.kind === 'item') return { kind: 'item', symbol: binding.symbol, segments: rest };
    if (binding?.kind === 'import') return { kind: 'path', scope: context.module, segments: [...binding.segments, ...rest] };
    return { kind: 'path', scope: context.module, segments: [...segments] };
  }

  text(node: RustNode): string {
    return this.source.slice(node.start, node.end);
  }
}
