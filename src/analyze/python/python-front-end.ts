import type { SyntaxFrontEnd } from '../front-end.js';
import { extractPythonFile } from './extract-python-file.js';
import type { PythonFacts } from './python-facts.js';
import { isPythonTestPath } from './python-test-paths.js';
import { resolvePythonFiles } from './resolve-python-files.js';

export type { PythonFacts } from './python-facts.js';

/**
 * Python, read with tree-sitter: each file's units and facts extracted alone, then every file
 * resolved at once by scopes, imports and class hierarchies. Every edge carries `resolution:
 * 'scope'`, or `'name'` for a call tied to a method by its name alone (resolve-uses.ts).
 *
 * Where Python leaves a choice, the rules are stated where they are applied:
 * - import roots and module names: module-paths.ts;
 * - method resolution order (C3) and overrides: class-hierarchy.ts;
 * - builtins are no call sites: python-builtins.ts;
 * - which module variables are state: resolve-python-files.ts;
 * - `contains` edges from each unit's parent, as the TypeScript front end emits them.
 */
export const pythonFrontEnd: SyntaxFrontEnd<PythonFacts> = {
  language: 'python',
  isTestPath: isPythonTestPath,
  extract: extractPythonFile,
  resolve: resolvePythonFiles,
};
