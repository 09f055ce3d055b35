import type { SyntaxFrontEnd } from '../front-end.js';
import { extractGoFile } from './extract-go-file.js';
import type { GoFacts } from './go-facts.js';
import { isGoTestPath } from './go-test-paths.js';
import { resolveGoFiles } from './resolve-go-files.js';

export type { GoFacts } from './go-facts.js';

/**
 * Go, read with tree-sitter: each file's units and facts extracted alone, then every file
 * resolved at once by package scope, imports, receiver types and method sets. Edges carry
 * `resolution: 'scope'`, or `'name'` where only names decide: a struct implementing an interface
 * by its method set, a call through an interface reaching every implementation, a call on a
 * value of unknown type tied to methods by name.
 *
 * Where Go leaves a choice, the rules are stated where they are applied:
 * - which repository folder an import path names, and what an external import is called: go-packages.ts;
 * - method sets, promotion through embedding, implements and extends: go-method-sets.ts;
 * - predeclared funcs and conversions are no call sites: go-expression-facts.ts and resolve-go-uses.ts;
 * - which package-level vars are state: resolve-go-files.ts;
 * - `contains` edges from each unit's parent, as the other front ends emit them.
 */
export const goFrontEnd: SyntaxFrontEnd<GoFacts> = {
  // The core's Language lists 'go' once the lead adds it to languages.ts; until then the name is cast.
  language: 'go',
  isTestPath: isGoTestPath,
  extract: extractGoFile,
  resolve: resolveGoFiles,
};
