import type { CollectedUnits } from './collect-units.js';
import { PATTERNS } from './collect-units.js';
import { clip } from './declaration-text.js';
import { ExpressionReader } from './expression-facts.js';
import { BUILTIN_NAMES, MUTATING_METHODS } from './python-builtins.js';
import { collectImports, moduleNames, variableFact } from './module-facts.js';
import { nameRecord, type ClassFact, type FunctionFact, type NamePath, type PythonFacts, type UseFact } from './python-facts.js';
import { declareBindings, moduleSpecOf, Scope } from './python-scopes.js';
import { parameterShape } from './parameter-shape.js';
import { childByField, type LineOf, type TreeNode } from '../syntax/syntax-tree.js';
import { collapseWhitespace } from './unit-tokens.js';

const CALLEE_TEXT_LIMIT = 120;

/** Decorators that make a def a kind of member rather than doing anything to it: builtins, or the accessor's own parts. */
const MEMBER_DECORATORS = /^(?:staticmethod|classmethod|property|(?:functools\s*\.\s*)?cached_property|abc\s*\.\s*abstract\w*|abstract\w*|[A-Za-z_]\w*\s*\.\s*(?:setter|getter|deleter))$/;

/** Syntax nested deeper than this is not read: generated code nests expressions thousands deep, and the walk must not exhaust the stack. */
const MAX_DEPTH = 1000;

interface Context {
  scope: Scope;
  /** The unit whose code is being read ('' for module-level code). */
  from: string;
  /** The statement being read, to tell a variable's defining assignment from a later one. */
  statement?: TreeNode;
}

/**
 * The facts of one file: its module-level names, classes with their bases, members and fields,
 * functions' parameters and return types, and every use of a name or attribute path that can
 * reach another unit (calls, reads, writes), each from the unit whose code holds it.
 */
export function collectFacts(root: TreeNode, source: string, lineOf: LineOf, collected: CollectedUnits): PythonFacts {
  const facts: PythonFacts = { imports: collectImports(root, source, lineOf), names: nameRecord(), starImports: [], locals: [], classes: nameRecord(), functions: nameRecord(), variables: nameRecord(), uses: [] };
  if (collected.all) facts.all = collected.all;
  const reader = new ExpressionReader(source, facts.locals);
  const text = (node: TreeNode): string => source.slice(node.start, node.end);
  const moduleScope = new Scope('module', undefined, '');
  declareBindings(root.children, moduleScope, source, collected.symbolOf);
  for (const statement of root.children) {
    const moduleName = statement.type === 'import_from_statement' ? childByField(statement, 'module_name') : undefined;
    if (moduleName && statement.children.some((child) => child.type === 'wildcard_import')) facts.starImports.push(moduleSpecOf(moduleName, source));
  }
  const hasStars = facts.starImports.length > 0;

  const declarations = new Map(collected.declarations.map((declaration) => [declaration.unit.symbol, declaration]));
  /** The names whose variable or property unit each assignment statement declares: that assignment is the declaration, no write. */
  const declaredBy = new Map<TreeNode, Set<string>>();
  const membersOf = new Map<string, Record<string, string>>();
  for (const { unit, node } of collected.declarations) {
    const name = unit.symbol.slice(unit.symbol.lastIndexOf('.') + 1).replace(/~\d+$/, '');
    if (unit.kind === 'variable' || unit.kind === 'property') {
      const names = declaredBy.get(node) ?? new Set<string>();
      declaredBy.set(node, names.add(name));
    } else if (unit.kind !== 'function' && unit.parent !== unit.file) {
      const parentSymbol = unit.parent!.slice(unit.file.length + 1);
      const members = membersOf.get(parentSymbol) ?? nameRecord<string>();
      // The last definition of a name is the one the class holds.
      members[name] = unit.symbol;
      membersOf.set(parentSymbol, members);
    }
  }
  facts.names = moduleNames(moduleScope, declarations);

  const isBuiltinRoot = (path: NamePath): boolean =>
    path.root.kind === 'builtin' || (path.root.kind === 'global' && BUILTIN_NAMES.has(path.root.name) && !moduleScope.bindings.has(path.root.name) && !hasStars);

  /** Whether a read can reach a unit or a slot: a plain local or a builtin cannot. */
  const mayReach = (path: NamePath): boolean => {
    const root = path.root;
    if (isBuiltinRoot(path)) return false;
    if (root.kind === 'global') return true;
    if (root.kind === 'local') {
      const local = facts.locals[root.local]!;
      if (local.self !== undefined) return path.attributes.length > 0;
      return local.unit !== undefined || local.binding !== undefined || ((local.annotation !== undefined || local.values.length > 0) && path.attributes.length > 0);
    }
    return (root.kind === 'super' || root.kind === 'call') && path.attributes.length > 0;
  };

  // One object per distinct path: the resolver walks each once however often the file uses it.
  const paths = new Map<string, NamePath>();
  const addUse = (use: UseFact): void => {
    const key = JSON.stringify(use.path);
    const known = paths.get(key);
    if (known) use.path = known;
    else paths.set(key, use.path);
    facts.uses.push(use);
  };

  const fieldsFromBody = new Set<string>();
  const declareField = (classSymbol: string, name: string, line: number, type: TreeNode | undefined, value: TreeNode | undefined, scope: Scope, fromBody: boolean): void => {
    const fact = facts.classes[classSymbol];
    if (!fact) return;
    const key = `${classSymbol}.${name}`;
    const field = (fact.fields[name] ??= { line, type: '', values: [] });
    const typeText = type ? clip(collapseWhitespace(text(type)), CALLEE_TEXT_LIMIT) : '';
    // The class body declares a field wherever in the class it stands; a method's `self.x =` only when the body does not.
    if (fromBody && !fieldsFromBody.has(key)) {
      fieldsFromBody.add(key);
      field.line = line;
      if (typeText) field.type = typeText;
    } else if (!field.type && typeText) field.type = typeText;
    const annotation = type ? reader.annotationOf(type, scope) : undefined;
    if (annotation && annotation.kind !== 'opaque' && (fromBody || !field.annotation)) field.annotation = annotation;
    const assigned = value ? reader.valueOf(value, scope) : undefined;
    if (assigned && assigned.kind !== 'opaque' && field.values.length < 4) field.values.push(assigned);
  };

  const visitTarget = (target: TreeNode, context: Context, mode: 'write' | 'update' | 'delete', assigned?: { type?: TreeNode; value?: TreeNode }): void => {
    const line = lineOf(target.start);
    switch (target.type) {
      case 'identifier': {
        const name = text(target);
        const scope = context.scope;
        if (scope.kind === 'class') return;
        if (scope.kind === 'module' && mode !== 'delete' && mode !== 'update' && context.statement && declaredBy.get(context.statement)?.has(name)) return;
        if (scope.kind === 'module' || scope.functionScope.globals.has(name)) {
          addUse({ from: context.from, line, path: { root: { kind: 'global', name }, attributes: [] }, access: mode === 'update' ? 'update' : 'write' });
        }
        return;
      }
      case 'attribute': {
        const read = reader.pathOf(target, context.scope);
        addUse({ from: context.from, line, path: read.path, access: mode === 'update' ? 'update' : 'write' });
        if (read.inner) visit(read.inner, context);
        const root = read.path.root;
        const receiver = root.kind === 'local' ? facts.locals[root.local]!.self : undefined;
        if (receiver !== undefined && read.path.attributes.length === 1 && mode === 'write') {
          declareField(receiver, read.path.attributes[0]!, line, assigned?.type, assigned?.value, context.scope, false);
        }
        return;
      }
      case 'subscript': {
        const value = childByField(target, 'value');
        if (value) {
          const read = reader.pathOf(value, context.scope);
          if (mayReach(read.path)) addUse({ from: context.from, line, path: read.path, access: 'mutate' });
          if (read.inner) visit(read.inner, context);
        }
        for (const child of target.children) if (child.field === 'subscript') visit(child, context);
        return;
      }
      default:
        if (PATTERNS.has(target.type)) for (const child of target.children) if (child.named) visitTarget(child, context, mode);
        else visit(target, context);
    }
  };

  const visitAssignment = (assignment: TreeNode, context: Context): void => {
    let value: TreeNode | undefined;
    for (let current: TreeNode | undefined = assignment; current; current = childByField(current, 'right')) {
      if (current.type !== 'assignment') {
        value = current;
        break;
      }
    }
    if (value) visit(value, context);
    for (let current: TreeNode | undefined = assignment; current?.type === 'assignment'; current = childByField(current, 'right')) {
      const left = childByField(current, 'left');
      const type = childByField(current, 'type');
      if (!left) continue;
      if (context.scope.kind === 'class' && left.type === 'identifier') {
        declareField(context.scope.classSymbol!, text(left), lineOf(left.start), type, value, context.scope, true);
        continue;
      }
      visitTarget(left, context, 'write', { ...(type ? { type } : {}), ...(value && left.type !== 'pattern_list' ? { value } : {}) });
    }
  };

  const visitCall = (call: TreeNode, context: Context): void => {
    const callee = childByField(call, 'function');
    const argumentList = childByField(call, 'arguments');
    if (callee && !reader.isSuper(callee, context.scope)) {
      const read = reader.pathOf(callee, context.scope);
      const path = read.path;
      if (!isBuiltinRoot(path)) {
        const last = path.attributes[path.attributes.length - 1];
        addUse({
          from: context.from,
          line: lineOf(call.start),
          path,
          access: 'call',
          text: clip(collapseWhitespace(text(callee)), CALLEE_TEXT_LIMIT),
          arguments: argumentShape(argumentList),
          ...(last !== undefined && MUTATING_METHODS.has(last) ? { mutatesReceiver: true } : {}),
        });
      }
      if (read.inner) visit(read.inner, context);
    }
    if (argumentList) visit(argumentList, context);
  };

  const argumentShape = (list: TreeNode | undefined): NonNullable<UseFact['arguments']> => {
    const shape = { positional: 0, keywords: [] as string[], spread: false };
    if (list?.type === 'generator_expression') shape.positional = 1;
    for (const argument of list?.type === 'argument_list' ? list.children : []) {
      if (!argument.named || argument.type === 'comment') continue;
      if (argument.type === 'keyword_argument') {
        const name = childByField(argument, 'name');
        if (name) shape.keywords.push(text(name));
      } else if (argument.type === 'list_splat' || argument.type === 'dictionary_splat') shape.spread = true;
      else shape.positional += 1;
    }
    return shape;
  };

  const visitFunction = (definition: TreeNode, context: Context, symbol: string, decorators: readonly string[]): void => {
    const isMethod = context.scope.kind === 'class';
    const isStatic = decorators.includes('staticmethod');
    const scope = new Scope('function', context.scope, symbol, isMethod ? context.scope.classSymbol : undefined);
    const outer: Context = { scope: context.scope, from: symbol };
    const parameters = childByField(definition, 'parameters');
    const receiver = isMethod && !isStatic ? { classSymbol: context.scope.classSymbol!, classObject: decorators.includes('classmethod') } : undefined;
    let first = true;
    for (const parameter of parameters?.children ?? []) {
      if (!parameter.named || parameter.type === 'comment') continue;
      const { name: nameNode, splat } = parameterName(parameter);
      const type = childByField(parameter, 'type');
      const value = childByField(parameter, 'value');
      if (value) visit(value, outer);
      if (!nameNode || splat) {
        // `*args` is a tuple, `**kwargs` a dict: Python's own, whatever their annotation says of the items.
        if (nameNode) scope.bind(text(nameNode), splat ? { kind: 'builtin' } : { kind: 'opaque' });
        first = false;
        continue;
      }
      const name = text(nameNode);
      if (first && receiver) scope.bind(name, receiver.classObject ? { kind: 'class-object', classSymbol: receiver.classSymbol } : { kind: 'self', classSymbol: receiver.classSymbol });
      else {
        // Annotations and defaults are evaluated where the def stands, not inside it.
        if (type) scope.bind(name, { kind: 'annotation', node: type, scope: context.scope });
        if (value) scope.bind(name, { kind: 'value', node: value, scope: context.scope });
        if (!type && !value) scope.bind(name, { kind: 'opaque' });
      }
      first = false;
    }
    if (!facts.functions[symbol]) {
      const shape: FunctionFact = parameterShape(parameters, source, receiver !== undefined);
      const returns = childByField(definition, 'return_type');
      const returned = returns ? reader.annotationOf(returns, context.scope) : undefined;
      if (returned && returned.kind !== 'opaque') shape.returns = returned;
      facts.functions[symbol] = shape;
    }
    const body = childByField(definition, 'body');
    if (!body) return;
    declareBindings(body.children, scope, source, collected.symbolOf);
    for (const statement of body.children) visit(statement, { scope, from: symbol });
  };

  const visitClass = (definition: TreeNode, context: Context, symbol: string): void => {
    const fact: ClassFact = (facts.classes[symbol] ??= { bases: [], members: membersOf.get(symbol) ?? nameRecord(), fields: nameRecord() });
    const outer: Context = { scope: context.scope, from: symbol };
    for (const base of childByField(definition, 'superclasses')?.children ?? []) {
      if (!base.named || base.type === 'comment') continue;
      if (base.type === 'keyword_argument') {
        const value = childByField(base, 'value');
        if (value) visit(value, outer);
        continue;
      }
      if (base.type === 'list_splat' || base.type === 'dictionary_splat') {
        visit(base, outer);
        continue;
      }
      // `Base[T]` is Base, specialised for type checkers.
      const expression = base.type === 'subscript' ? childByField(base, 'value') ?? base : base;
      fact.bases.push({ path: reader.pathOf(expression, context.scope).path, line: lineOf(base.start) });
    }
    const body = childByField(definition, 'body');
    if (!body) return;
    const scope = new Scope('class', context.scope, symbol, symbol);
    declareBindings(body.children, scope, source, collected.symbolOf);
    for (const statement of body.children) visit(statement, { scope, from: symbol });
  };

  const visitDefinition = (definition: TreeNode, wrapper: TreeNode, context: Context): void => {
    const symbol = collected.symbolOf.get(definition);
    const decorators = wrapper.children.filter((child) => child.type === 'decorator');
    const decoratorTexts = decorators.map((decorator) => collapseWhitespace(text(decorator).replace(/^@/, '')));
    const unitContext: Context = { scope: context.scope, from: symbol ?? context.from };
    decorators.forEach((decorator, index) => {
      // A decorator runs where the def stands, for the def: the decorated unit uses it.
      if (MEMBER_DECORATORS.test(decoratorTexts[index]!)) return;
      for (const child of decorator.children) if (child.named) visit(child, unitContext);
    });
    if (symbol === undefined) return;
    if (definition.type === 'class_definition') visitClass(definition, context, symbol);
    else visitFunction(definition, context, symbol, decoratorTexts);
  };

  const visitNested = (node: TreeNode, context: Context, kind: 'lambda' | 'comprehension'): void => {
    const scope = new Scope(kind, context.scope, context.scope.unit, context.scope.classSymbol);
    const inner: Context = { scope, from: context.from };
    if (kind === 'lambda') {
      for (const parameter of childByField(node, 'parameters')?.children ?? []) {
        const { name } = parameterName(parameter);
        if (name) scope.bind(text(name), { kind: 'opaque' });
        const value = childByField(parameter, 'value');
        if (value) visit(value, context);
      }
      const body = childByField(node, 'body');
      if (body) visit(body, inner);
      return;
    }
    for (const clause of node.children) {
      if (clause.type !== 'for_in_clause') continue;
      const left = childByField(clause, 'left');
      const right = childByField(clause, 'right');
      if (left?.type === 'identifier' && right) scope.bind(text(left), { kind: 'element', node: right, scope });
      else if (left) for (const name of identifiersIn(left)) scope.bind(text(name), { kind: 'opaque' });
    }
    for (const child of node.children) {
      if (child.type === 'for_in_clause') {
        const right = childByField(child, 'right');
        if (right) visit(right, inner);
        for (const rest of child.children) if (rest.named && rest.field !== 'left' && rest.field !== 'right') visit(rest, inner);
      } else if (child.named) visit(child, inner);
    }
  };

  let depth = 0;
  const visit = (node: TreeNode, context: Context): void => {
    if (depth >= MAX_DEPTH) return;
    depth += 1;
    visitNode(node, context);
    depth -= 1;
  };

  const visitNode = (node: TreeNode, context: Context): void => {
    switch (node.type) {
      case 'comment':
      case 'type':
      case 'import_statement':
      case 'import_from_statement':
      case 'future_import_statement':
      case 'global_statement':
      case 'nonlocal_statement':
      case 'string_content':
        return;
      case 'decorated_definition': {
        const definition = childByField(node, 'definition');
        if (definition) visitDefinition(definition, node, context);
        return;
      }
      case 'function_definition':
      case 'class_definition':
        visitDefinition(node, node, context);
        return;
      case 'expression_statement': {
        // At module and class level an assignment that declares a unit is that unit's code.
        const from = context.scope.kind === 'function' ? context.from : collected.symbolOf.get(node) ?? context.from;
        for (const child of node.children) visit(child, { scope: context.scope, from, statement: node });
        return;
      }
      case 'assignment':
        visitAssignment(node, context);
        return;
      case 'augmented_assignment': {
        const left = childByField(node, 'left');
        const right = childByField(node, 'right');
        if (right) visit(right, context);
        if (left) visitTarget(left, context, 'update');
        return;
      }
      case 'delete_statement':
        for (const child of node.children) if (child.named) visitTarget(child, context, 'delete');
        return;
      case 'for_statement': {
        const left = childByField(node, 'left');
        for (const child of node.children) if (child.named && child !== left) visit(child, context);
        if (left && left.type !== 'identifier') visitTarget(left, context, 'write');
        return;
      }
      case 'as_pattern_target':
        for (const child of node.children) if (child.named && child.type !== 'identifier') visitTarget(child, context, 'write');
        return;
      case 'named_expression': {
        const name = childByField(node, 'name');
        const value = childByField(node, 'value');
        const scope = context.scope.functionScope;
        if (name && value && scope.kind !== 'module' && !scope.bindings.has(text(name))) scope.bind(text(name), { kind: 'value', node: value, scope: context.scope });
        if (value) visit(value, context);
        return;
      }
      case 'keyword_argument': {
        const value = childByField(node, 'value');
        if (value) visit(value, context);
        return;
      }
      case 'return_statement': {
        const value = node.children.find((child) => child.named && child.type !== 'comment');
        const scope = context.scope.functionScope;
        const fact = scope.kind === 'function' ? facts.functions[scope.unit] : undefined;
        if (value && fact && (fact.returned?.length ?? 0) < 3) {
          const returned = reader.valueOf(value, context.scope);
          if (returned.kind !== 'opaque') (fact.returned ??= []).push(returned);
        }
        if (value) visit(value, context);
        return;
      }
      case 'call':
        visitCall(node, context);
        return;
      case 'identifier':
      case 'attribute': {
        const read = reader.pathOf(node, context.scope);
        if (mayReach(read.path)) addUse({ from: context.from, line: lineOf(node.start), path: read.path, access: 'read' });
        if (read.inner) visit(read.inner, context);
        return;
      }
      case 'lambda':
        visitNested(node, context, 'lambda');
        return;
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression':
        visitNested(node, context, 'comprehension');
        return;
      default:
        for (const child of node.children) if (child.named) visit(child, context);
    }
  };

  for (const declaration of collected.declarations) {
    if (declaration.unit.kind !== 'variable') continue;
    facts.variables[declaration.unit.symbol] = variableFact(declaration.node, declaration.unit.symbol.replace(/^.*\./, ''), reader, moduleScope, source);
  }
  for (const statement of root.children) visit(statement, { scope: moduleScope, from: '' });
  return facts;
}

/** The name a parameter binds, and whether it gathers the rest (`*args`, `**kwargs`, annotated or not). */
function parameterName(parameter: TreeNode): { name?: TreeNode; splat: boolean } {
  if (parameter.type === 'identifier') return { name: parameter, splat: false };
  const named = childByField(parameter, 'name');
  if (named) return { name: named, splat: false };
  const splat = parameter.type === 'list_splat_pattern' || parameter.type === 'dictionary_splat_pattern' ? parameter
    : parameter.children.find((child) => child.type === 'list_splat_pattern' || child.type === 'dictionary_splat_pattern');
  const holder = splat ?? parameter;
  const name = holder.children.find((child) => child.type === 'identifier');
  return name ? { name, splat: splat !== undefined } : { splat: splat !== undefined };
}

function identifiersIn(node: TreeNode): TreeNode[] {
  if (node.type === 'identifier') return [node];
  return node.children.flatMap(identifiersIn);
}
