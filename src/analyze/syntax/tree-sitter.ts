import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

export type { Node as SyntaxNode, Tree as SyntaxTree, TreeCursor as SyntaxTreeCursor } from 'web-tree-sitter';

/**
 * Tree-sitter's WASM runtime and the grammars analysis reads, loaded once when this module is
 * first imported. The grammar files ship inside the grammars' own npm packages (built for the
 * runtime's ABI), so nothing is compiled or downloaded at install. Loading is asynchronous, so it
 * happens here, at import: parsing after it is synchronous, as the rest of analysis is.
 */
const require = createRequire(import.meta.url);
await Parser.init();
const load = (name: string): Promise<Language> => Language.load(require.resolve(`tree-sitter-${name}/tree-sitter-${name}.wasm`));
const [python, go, rust] = await Promise.all([load('python'), load('go'), load('rust')]);
const grammars = { python, go, rust };

export type GrammarName = keyof typeof grammars;

const parsers = new Map<GrammarName, Parser>();

/** A parser for one grammar, made once per process: a parser holds no state between parses. */
export function parserFor(grammar: GrammarName): Parser {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(grammars[grammar]);
    parsers.set(grammar, parser);
  }
  return parser;
}
