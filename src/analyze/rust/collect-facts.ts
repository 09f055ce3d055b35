import { BodyReader, type ItemContext } from './body-facts.js';
import type { CollectedUnits } from './collect-units.js';
import { lazyStatics } from './lazy-statics.js';
import { Scope } from './local-scopes.js';
import { emptyFacts, nameRecord, type TraitFact, type TypeDeclarationFact, type TypeFact } from './rust-facts.js';
import { INTERIOR_MUTABLE } from './rust-std.js';
import { attributedItems, childByField, hasAttribute, nameOf, pathAttribute, spelled, type AttributedItem, type RustNode } from './rust-syntax.js';
import { aliasParameters, genericsOf, readType } from './type-facts.js';
import { importsOf } from './use-declarations.js';

/** The unit whose code a macro at item level belongs to: the inline module around it, or the file. */
interface Owner {
  owner: string;
}

/** An impl block being read member by member: what its members are read in, and the members found. */
export interface ImplReading {
  node: RustNode;
  inner: ItemContext;
  types: ReturnType<BodyReader['typeContext']>;
  members: Record<string, string>;
}

/** Where a file's top-level items stand. */
export const TOP_CONTEXT: ItemContext & Owner = { module: '', generics: new Map(), owner: '' };

/**
 * The facts of one file: its modules' items and imports, `mod` declarations, types with their
 * fields, traits, impls, fns' return types, statics, and the uses inside every body, each from the
 * unit whose code holds it. Walks the items as the unit collector did, taking their symbols from
 * it; items are handed in one by one (visitItem, or implHead, implMember, implEnd for an impl read
 * member by member), each after its units were collected.
 */
export function factCollector(source: string, lineOf: (offset: number) => number, collected: CollectedUnits) {
  const facts = emptyFacts();
  const reader = new BodyReader(facts, source, lineOf, collected.symbolOf, collected.testOnly, (items, context) => visitItems(items, { ...context, owner: '' }));
  const text = (node: RustNode): string => source.slice(node.start, node.end);

  const visitItems = (items: readonly AttributedItem[], context: ItemContext & Owner): void => {
    for (const item of items) if (!collected.testOnly.has(item.node)) visitItem(item, context);
  };

  const visitItem = (item: AttributedItem, context: ItemContext & Owner): void => {
    const { node } = item;
    const symbol = collected.symbolOf.get(node);
    const name = nameOf(node, source);
    const moduleLevel = context.scope === undefined;
    const declare = (): void => {
      if (!moduleLevel || name === undefined || symbol === undefined) return;
      const items = (facts.items[context.module] ??= nameRecord());
      // The first item of a name is what a path to it reaches (a fn and a module of one name are rare, and never both used).
      items[name] ??= symbol;
    };
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        if (symbol === undefined) return;
        declare();
        reader.readFunction(node, symbol, context);
        return;
      case 'struct_item':
      case 'union_item':
      case 'enum_item':
        if (symbol === undefined) return;
        declare();
        facts.types[symbol] = typeDeclaration(node, context);
        return;
      case 'trait_item':
        if (symbol === undefined || name === undefined) return;
        declare();
        facts.traits[symbol] = traitFact(node, symbol, name, context);
        return;
      case 'impl_item':
        visitImpl(node, context);
        return;
      case 'const_item':
      case 'static_item': {
        if (symbol === undefined) return;
        declare();
        const typeNode = childByField(node, 'type');
        const type = readType(typeNode, reader.typeContext(context), source);
        const mutable = node.type === 'static_item' && (node.children.some((child) => child.type === 'mutable_specifier') || (typeNode !== undefined && INTERIOR_MUTABLE.test(text(typeNode))));
        facts.statics[symbol] = { kind: node.type === 'const_item' ? 'const' : 'static', mutable, ...(type.kind !== 'opaque' ? { type } : {}) };
        const value = childByField(node, 'value');
        if (value) reader.readInitializer(value, symbol, context);
        return;
      }
      case 'type_item': {
        if (symbol === undefined) return;
        declare();
        const generics = aliasParameters(node, new Map(), source);
        const alias = readType(childByField(node, 'type'), { ...reader.typeContext(context), generics }, source);
        facts.types[symbol] = { kind: 'alias', fields: nameRecord(), unitLike: false, variants: [], alias };
        return;
      }
      case 'mod_item': {
        const body = childByField(node, 'body');
        if (!body) {
          if (moduleLevel && name !== undefined) {
            const path = pathAttribute(item.attributes, source);
            facts.modules.push({ scope: context.module, name, line: lineOf(node.start), ...(path !== undefined ? { path } : {}) });
          }
          return;
        }
        if (symbol === undefined) return;
        declare();
        facts.inlineModules.push(symbol);
        visitItems(attributedItems(body.children, source, lineOf), { module: symbol, generics: new Map(), ...(context.scope ? { scope: context.scope } : {}), owner: symbol });
        return;
      }
      case 'macro_definition':
        if (symbol !== undefined && name !== undefined) facts.macros.push({ name, symbol, exported: hasAttribute(item.attributes, source, 'macro_export') });
        return;
      case 'use_declaration':
      case 'extern_crate_declaration':
        if (moduleLevel) facts.imports.push(...importsOf(node, context.module, source, lineOf));
        return;
      case 'foreign_mod_item': {
        const body = childByField(node, 'body');
        if (body) visitItems(attributedItems(body.children, source, lineOf), context);
        return;
      }
      default: {
        const invocation = node.type === 'macro_invocation' ? node : node.children[0];
        if (invocation?.type !== 'macro_invocation') return;
        const statics = lazyStatics(invocation, source);
        if (statics.length === 0) reader.readItemMacro(invocation, context.owner, context);
        for (const lazy of statics) {
          const lazySymbol = collected.symbolOf.get(lazy.keyword);
          if (lazySymbol === undefined) continue;
          if (moduleLevel) (facts.items[context.module] ??= nameRecord())[lazy.name] ??= lazySymbol;
          const type = tokenType(lazy.type, context.module, text);
          facts.statics[lazySymbol] = { kind: 'static', mutable: true, ...(type ? { type } : {}) };
          reader.readTokens(lazy.value, { from: lazySymbol, module: context.module, scope: new Scope(context.scope, true), types: reader.typeContext(context) });
        }
      }
    }
  };

  const typeDeclaration = (node: RustNode, context: ItemContext): TypeDeclarationFact => {
    const generics = genericsOf(node, new Map(), reader.typeContext(context), source);
    const types = { ...reader.typeContext(context), generics };
    const body = childByField(node, 'body');
    const declaration: TypeDeclarationFact = { kind: node.type === 'enum_item' ? 'enum' : node.type === 'union_item' ? 'union' : 'struct', fields: nameRecord(), unitLike: !body, variants: [] };
    if (body?.type === 'field_declaration_list') {
      for (const field of body.children) {
        if (field.type !== 'field_declaration' || collected.symbolOf.get(field) === undefined) continue;
        const fieldName = nameOf(field, source);
        const typeNode = childByField(field, 'type');
        if (fieldName !== undefined) declaration.fields[fieldName] = { line: lineOf(field.start), type: typeNode ? spelled(typeNode, source) : '', fact: readType(typeNode, types, source) };
      }
    } else if (body?.type === 'enum_variant_list') {
      for (const variant of body.children) {
        const variantName = variant.type === 'enum_variant' ? nameOf(variant, source) : undefined;
        if (variantName !== undefined) declaration.variants.push(variantName);
      }
    }
    return declaration;
  };

  const traitFact = (node: RustNode, symbol: string, name: string, context: ItemContext): TraitFact => {
    const own: TypeFact = context.scope === undefined ? { kind: 'path', scope: context.module, segments: [name], args: [] } : { kind: 'item', symbol, args: [] };
    const generics = genericsOf(node, new Map(), reader.typeContext(context), source);
    const inner: ItemContext = { ...context, generics, selfType: { kind: 'traits', traits: [own] } };
    const fact: TraitFact = { supertraits: [], methods: nameRecord() };
    for (const bound of childByField(node, 'bounds')?.children ?? []) {
      if (bound.type !== 'type_identifier' && bound.type !== 'scoped_type_identifier' && bound.type !== 'generic_type') continue;
      fact.supertraits.push({ type: readType(bound, reader.typeContext(inner), source), line: lineOf(bound.start) });
    }
    for (const member of attributedItems(childByField(node, 'body')?.children ?? [], source, lineOf)) {
      const memberNode = member.node;
      const memberName = nameOf(memberNode, source);
      if (collected.testOnly.has(memberNode) || memberName === undefined) continue;
      const memberSymbol = collected.symbolOf.get(memberNode);
      if (memberNode.type === 'function_item' && memberSymbol !== undefined) {
        const returns = reader.readFunction(memberNode, memberSymbol, inner).returns;
        fact.methods[memberName] = { symbol: memberSymbol, ...(returns ? { returns } : {}) };
      } else if (memberNode.type === 'function_signature_item' || memberNode.type === 'function_item') {
        const returns = readType(childByField(memberNode, 'return_type'), reader.typeContext({ ...inner, generics: genericsOf(memberNode, generics, reader.typeContext(inner), source) }), source);
        fact.methods[memberName] = returns.kind === 'opaque' ? {} : { returns };
      } else if (memberNode.type === 'const_item' && memberSymbol !== undefined) {
        facts.statics[memberSymbol] = { kind: 'const', mutable: false };
        const value = childByField(memberNode, 'value');
        if (value) reader.readInitializer(value, memberSymbol, inner);
      }
    }
    return fact;
  };

  const implHead = (node: RustNode, context: ItemContext): ImplReading => {
    const generics = genericsOf(node, context.generics, reader.typeContext(context), source);
    const types = { ...reader.typeContext(context), generics };
    const selfType = readType(childByField(node, 'type'), types, source);
    return { node, inner: { ...context, generics, selfType }, types, members: nameRecord<string>() };
  };

  const implMember = (member: AttributedItem, impl: ImplReading): void => {
    const memberSymbol = collected.symbolOf.get(member.node);
    const memberName = nameOf(member.node, source);
    if (collected.testOnly.has(member.node) || memberSymbol === undefined || memberName === undefined) return;
    impl.members[memberName] ??= memberSymbol;
    if (member.node.type === 'function_item') reader.readFunction(member.node, memberSymbol, impl.inner);
    else if (member.node.type === 'const_item') {
      facts.statics[memberSymbol] = { kind: 'const', mutable: false };
      const value = childByField(member.node, 'value');
      if (value) reader.readInitializer(value, memberSymbol, impl.inner);
    }
  };

  const implEnd = (impl: ImplReading): void => {
    const { node, inner, types } = impl;
    const traitNode = childByField(node, 'trait');
    const trait = traitNode ? readType(traitNode, { ...types, generics: new Map() }, source) : undefined;
    facts.impls.push({ selfType: inner.selfType!, ...(trait ? { trait } : {}), line: lineOf(node.start), members: impl.members });
  };

  const visitImpl = (node: RustNode, context: ItemContext): void => {
    const impl = implHead(node, context);
    for (const member of attributedItems(childByField(node, 'body')?.children ?? [], source, lineOf)) implMember(member, impl);
    implEnd(impl);
  };

  return { facts, reader, visitItem: (item: AttributedItem, context: ItemContext & Owner) => visitItems([item], context), implHead, implMember, implEnd };
}

export type FactCollector = ReturnType<typeof factCollector>;

/** A lazy static's type from its tokens: the path before the first `<`, and its first type argument (`Mutex<Vec<Job>>`). */
function tokenType(tokens: readonly RustNode[], scope: string, text: (node: RustNode) => string): TypeFact | undefined {
  const read = (at: number): { type: TypeFact; next: number } | undefined => {
    const segments: string[] = [];
    let index = at;
    while (index < tokens.length && (tokens[index]!.type === 'identifier' || text(tokens[index]!) === '::')) {
      if (tokens[index]!.type === 'identifier') segments.push(text(tokens[index]!));
      index += 1;
    }
    if (segments.length === 0) return undefined;
    const args: TypeFact[] = [];
    if (index < tokens.length && text(tokens[index]!) === '<') {
      const argument = read(index + 1);
      if (argument) args.push(argument.type);
      let depth = 1;
      for (index += 1; index < tokens.length && depth > 0; index += 1) {
        const token = text(tokens[index]!);
        if (token === '<') depth += 1;
        else if (token === '>') depth -= 1;
        else if (token === '>>') depth -= 2;
      }
    }
    return { type: { kind: 'path', scope, segments, args }, next: index };
  };
  return read(0)?.type;
}
