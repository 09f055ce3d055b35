import { clip, collapseWhitespace } from '../../text/clip.js';
import type { BodyContext, BodyReader } from './body-facts.js';
import { extend, isRead } from './expressions.js';
import type { Expression, TypeFact } from './rust-facts.js';
import type { RustNode } from './rust-syntax.js';

/** Words a token tree spells as identifiers that start no path. */
const KEYWORDS = new Set([
  'as', 'async', 'await', 'break', 'const', 'continue', 'dyn', 'else', 'enum', 'extern', 'false', 'fn', 'for', 'if', 'impl', 'in',
  'let', 'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'return', 'static', 'struct', 'trait', 'true', 'type', 'unsafe',
  'use', 'where', 'while', 'yield',
]);

const PATH_STARTS = new Set(['identifier', 'self', 'crate', 'super']);

const MAX_DEPTH = 200;

/**
 * Reads a macro's arguments as code. Tree-sitter leaves them a token tree (a macro may give its
 * tokens any meaning), yet most are expressions: `format!("{}", mask(&out))`, `vec![a.run()]`,
 * `log!(self.name)`. Each chain of a path, `.field`, `.method(...)`, `(...)`, `?` and `[...]` is
 * read as the same expression would be outside a macro: calls, struct literals, nested macros and
 * reads, from the unit whose code holds the macro. Closure parameters in tokens are not bound.
 */
export function scanTokenTree(tokens: readonly RustNode[], context: BodyContext, reader: BodyReader, depth = 0): void {
  // Token trees nested deeper than this (generated data in a `vec!`) are not read: the walk must not exhaust the stack.
  if (depth >= MAX_DEPTH) return;
  const text = (token: RustNode | undefined): string => (token ? reader.text(token) : '');
  const inner = (tree: RustNode): RustNode[] => tree.children.slice(1, -1);
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (token.type === 'token_tree') {
      scanTokenTree(inner(token), context, reader, depth + 1);
      index += 1;
      continue;
    }
    if (!PATH_STARTS.has(token.type) || KEYWORDS.has(text(token)) || text(tokens[index - 1]) === '.' || text(tokens[index - 1]) === "'") {
      index += 1;
      continue;
    }
    const segments = [text(token)];
    let at = index + 1;
    while (text(tokens[at]) === '::') {
      const next = tokens[at + 1];
      if (text(next) === '<') {
        at = skipGenerics(tokens, at + 1, text);
        continue;
      }
      if (!next || !PATH_STARTS.has(next.type)) break;
      segments.push(text(next));
      at += 2;
    }
    const after = tokens[at];
    if (text(after) === '!' && tokens[at + 1]?.type === 'token_tree') {
      reader.addUse(context, token, { root: { kind: 'path', scope: context.module, segments }, steps: [] }, 'macro', `${segments.join('::')}!`);
      scanTokenTree(inner(tokens[at + 1]!), context, reader, depth + 1);
      index = at + 2;
      continue;
    }
    if (after?.type === 'token_tree' && text(after).startsWith('{') && /^[A-Z]/.test(segments[segments.length - 1]!)) {
      const type = typeOfPath(segments, context);
      if (type.kind !== 'opaque') reader.addUse(context, token, { root: { kind: 'struct', type }, steps: [] }, 'instantiate');
      scanTokenTree(inner(after), context, reader, depth + 1);
      index = at + 1;
      continue;
    }
    let expression: Expression = { root: reader.rootOfPath(segments, context), steps: [] };
    let lastName = tokens[at - 1]!;
    let endsInCall = false;
    const callee = (): string => clip(collapseWhitespace(reader.text({ ...token, end: lastName.end })), 120);
    for (;;) {
      const next = tokens[at];
      if (next?.type === 'token_tree' && text(next).startsWith('(')) {
        const last = expression.steps[expression.steps.length - 1];
        // `.name(...)` calls the method `name`; a `(...)` after a path or a call calls the value.
        if (last?.kind === 'field' && text(tokens[at - 1]) === last.name && text(tokens[at - 2]) === '.') expression = { root: expression.root, steps: [...expression.steps.slice(0, -1), { kind: 'method', name: last.name }] };
        else expression = extend(expression, { kind: 'call' });
        reader.addUse(context, token, expression, 'call', callee());
        scanTokenTree(inner(next), context, reader, depth + 1);
        endsInCall = true;
        at += 1;
      } else if (text(next) === '.' && tokens[at + 1] && (tokens[at + 1]!.type === 'identifier' || tokens[at + 1]!.type === 'integer_literal')) {
        const name = text(tokens[at + 1]);
        if (name !== 'await') {
          expression = extend(expression, { kind: 'field', name });
          lastName = tokens[at + 1]!;
          endsInCall = false;
        }
        at += 2;
      } else if (text(next) === '?') {
        expression = extend(expression, { kind: 'try' });
        at += 1;
      } else if (next?.type === 'token_tree' && text(next).startsWith('[')) {
        scanTokenTree(inner(next), context, reader, depth + 1);
        expression = extend(expression, { kind: 'index' });
        endsInCall = false;
        at += 1;
      } else break;
    }
    if (!endsInCall && isRead(expression)) reader.addUse(context, token, expression, 'read');
    index = at;
  }
}

/** Past a turbofish's `<...>`, nested brackets counted. */
function skipGenerics(tokens: readonly RustNode[], open: number, text: (token: RustNode | undefined) => string): number {
  let depth = 0;
  for (let at = open; at < tokens.length; at += 1) {
    const token = text(tokens[at]);
    if (token === '<') depth += 1;
    else if (token === '>') depth -= 1;
    else if (token === '>>') depth -= 2;
    if (depth <= 0) return at + 1;
  }
  return tokens.length;
}

/** The type a struct literal in tokens names. */
function typeOfPath(segments: readonly string[], context: BodyContext): TypeFact {
  if (segments[0] === 'Self') return segments.length === 1 ? context.types.selfType ?? { kind: 'opaque' } : { kind: 'opaque' };
  const bound = context.scope.get(segments[0]!);
  if (typeof bound === 'string') return segments.length === 1 ? { kind: 'item', symbol: bound, args: [] } : { kind: 'opaque' };
  if (bound !== undefined) return { kind: 'path', scope: context.module, segments: [...bound, ...segments.slice(1)], args: [] };
  return { kind: 'path', scope: context.module, segments: [...segments], args: [] };
}
