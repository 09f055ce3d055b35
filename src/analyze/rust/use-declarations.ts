import type { ImportFact } from './rust-facts.js';
import { childByField, isPublic, pathSegments, type RustNode } from './rust-syntax.js';

/**
 * The names a `use` declaration binds, one fact each: `use a::{self, b as c, d::*}` binds `a`
 * (to a), `c` (to a::b) and everything of a::d. `extern crate x as y;` binds y to the crate x.
 */
export function importsOf(declaration: RustNode, scope: string, source: string, lineOf: (offset: number) => number, local = false): ImportFact[] {
  const line = lineOf(declaration.start);
  const publicUse = isPublic(declaration);
  const found: ImportFact[] = [];
  const add = (segments: string[], name: string | undefined, glob: boolean): void => {
    const fact: ImportFact = { scope, segments, glob, public: publicUse, line };
    if (name !== undefined) fact.name = name;
    if (local) fact.local = true;
    found.push(fact);
  };
  if (declaration.type === 'extern_crate_declaration') {
    const name = childByField(declaration, 'name');
    const alias = childByField(declaration, 'alias');
    if (name) add([source.slice(name.start, name.end)], source.slice((alias ?? name).start, (alias ?? name).end), false);
    return found;
  }
  const visit = (node: RustNode, prefix: string[]): void => {
    switch (node.type) {
      case 'use_as_clause': {
        const path = childByField(node, 'path');
        const alias = childByField(node, 'alias');
        const segments = path ? pathSegments(path, source) : undefined;
        if (segments && alias) add(withoutSelf([...prefix, ...segments]), source.slice(alias.start, alias.end), false);
        return;
      }
      case 'use_wildcard': {
        const path = node.children.find((child) => child.named);
        const segments = path ? pathSegments(path, source) ?? [] : [];
        add([...prefix, ...segments], undefined, true);
        return;
      }
      case 'scoped_use_list': {
        const path = childByField(node, 'path');
        const list = childByField(node, 'list');
        const segments = path ? pathSegments(path, source) ?? [] : node.children[0]?.type === '::' ? ['::'] : [];
        if (list) visit(list, [...prefix, ...segments]);
        return;
      }
      case 'use_list':
        for (const child of node.children) if (child.named) visit(child, prefix);
        return;
      default: {
        const segments = pathSegments(node, source);
        if (!segments) return;
        const full = withoutSelf([...prefix, ...segments]);
        if (full.length > 0) add(full, full[full.length - 1], false);
      }
    }
  };
  const argument = childByField(declaration, 'argument');
  if (argument) visit(argument, []);
  return found;
}

/** `a::b::{self}` is a::b. */
function withoutSelf(segments: string[]): string[] {
  return segments.length > 1 && segments[segments.length - 1] === 'self' ? segments.slice(0, -1) : segments;
}
