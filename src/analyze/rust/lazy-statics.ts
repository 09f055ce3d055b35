import { childByField, type RustNode } from './rust-syntax.js';

/** A static declared inside a `lazy_static!` or `thread_local!` block, read from the macro's tokens. */
export interface LazyStatic {
  /** The `static` token: the node the unit is declared by. */
  keyword: RustNode;
  name: string;
  public: boolean;
  /** From `static` through the closing `;`. */
  start: number;
  end: number;
  /** The tokens of its type and of its initializer. */
  type: RustNode[];
  value: RustNode[];
  /** The doc comments right before it, inside the macro. */
  docs: RustNode[];
}

const STATIC_MACROS = new Set(['lazy_static', 'thread_local']);

/**
 * The statics a `lazy_static! { static ref NAME: T = expr; }` or `thread_local! { static NAME: T
 * = expr; }` declares. Their bodies are token trees, not syntax: each declaration is read from its
 * tokens, `static [ref] NAME : type = value ;`.
 */
export function lazyStatics(invocation: RustNode, source: string): LazyStatic[] {
  if (invocation.type !== 'macro_invocation') return [];
  const macro = childByField(invocation, 'macro');
  const name = macro ? source.slice(macro.start, macro.end).split('::').pop()!.trim() : '';
  const tree = invocation.children.find((child) => child.type === 'token_tree');
  if (!STATIC_MACROS.has(name) || !tree) return [];
  const all = tree.children.slice(1, -1);
  const tokens = all.filter((token) => token.type !== 'line_comment' && token.type !== 'block_comment');
  const text = (token: RustNode | undefined): string => (token ? source.slice(token.start, token.end) : '');
  const found: LazyStatic[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    if (text(tokens[index]) !== 'static') continue;
    const keyword = tokens[index]!;
    const isPublic = text(tokens[index - 1]) === 'pub' || text(tokens[index - 1]).startsWith('pub(') || (text(tokens[index - 1]).startsWith('(') && text(tokens[index - 2]) === 'pub');
    let at = index + 1;
    if (text(tokens[at]) === 'ref') at += 1;
    const nameToken = tokens[at];
    if (nameToken?.type !== 'identifier') continue;
    let end = at + 1;
    while (end < tokens.length && text(tokens[end]) !== ';') end += 1;
    const body = tokens.slice(at + 1, end);
    const equals = body.findIndex((token) => text(token) === '=');
    const type = (equals < 0 ? body : body.slice(0, equals)).filter((token) => text(token) !== ':');
    const first = !isPublic ? keyword.start : text(tokens[index - 1]) === 'pub' ? tokens[index - 1]!.start : tokens[index - 2]!.start;
    const docs: RustNode[] = [];
    for (let at = all.findIndex((token) => token.start >= first) - 1; at >= 0 && (all[at]!.type === 'line_comment' || all[at]!.type === 'block_comment'); at -= 1) docs.unshift(all[at]!);
    found.push({
      keyword, name: text(nameToken), public: isPublic, start: keyword.start, end: tokens[end]?.end ?? tokens[end - 1]!.end,
      type, value: equals < 0 ? [] : body.slice(equals + 1), docs,
    });
    index = end;
  }
  return found;
}
