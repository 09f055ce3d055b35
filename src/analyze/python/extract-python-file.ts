import type { ExtractedFile, FileInput } from '../front-end.js';
import type { Unit } from '../../graph/model.js';
import { parserFor } from '../syntax/tree-sitter.js';
import { collectFacts } from './collect-facts.js';
import { collectImports } from './module-facts.js';
import { collectUnits } from './collect-units.js';
import { declarationDigest } from './declaration-digest.js';
import { nameRecord, type PythonFacts } from './python-facts.js';
import { copyTree, lineLocator, syntaxErrorsOf } from '../syntax/syntax-tree.js';
import { fileTokens, unitHasher } from './unit-tokens.js';
import { collectVocabulary } from './unit-vocabulary.js';

export function emptyFacts(): PythonFacts {
  return { imports: [], names: nameRecord(), starImports: [], locals: [], classes: nameRecord(), functions: nameRecord(), variables: nameRecord(), uses: [] };
}

function fileUnitOf(file: FileInput): Unit {
  return { id: file.path, kind: 'file', file: file.path, symbol: '', startLine: 1, endLine: Math.max(1, file.lines), signature: file.path, doc: '', exported: false, hash: file.hash, literals: '', words: '' };
}

/**
 * One Python file's units and facts. Never throws: tree-sitter recovers from any syntax error
 * (Python 2, a half-typed edit) and the units are read from what parsed; should reading fail all
 * the same, the file keeps its file unit and says why in its warning.
 */
export function extractPythonFile(file: FileInput): ExtractedFile<PythonFacts> {
  try {
    return extract(file);
  } catch (error) {
    return {
      units: [fileUnitOf(file)],
      parseErrors: 1,
      warning: { line: 1, message: `could not read the file: ${(error as Error).message ?? String(error)}`.slice(0, 200) },
      digest: {},
      facts: emptyFacts(),
    };
  }
}

function extract(file: FileInput): ExtractedFile<PythonFacts> {
  const text = file.text;
  const tree = parserFor('python').parse(text);
  if (!tree) throw new Error('the parser returned no tree');
  let root;
  let errors;
  try {
    errors = syntaxErrorsOf(tree);
    root = copyTree(tree);
  } finally {
    tree.delete();
  }
  const lineOf = lineLocator(text);
  const extracted: ExtractedFile<PythonFacts> = { units: [], parseErrors: errors.count, digest: {}, facts: emptyFacts() };
  if (errors.first) extracted.warning = { line: lineOf(errors.first.offset), message: errors.first.message };
  if (file.test) {
    // A test file shows which tests reach a change through its imports; its own code is not analyzed.
    extracted.units = [fileUnitOf(file)];
    extracted.facts.imports = collectImports(root, text, lineOf);
    extracted.digest = declarationDigest([], extracted.facts);
    return extracted;
  }
  const tokens = fileTokens(root, text);
  const collected = collectUnits(root, file.path, file.hash, file.lines, text, lineOf, unitHasher(tokens));
  collectVocabulary(collected.declarations, text);
  extracted.units = collected.units;
  extracted.facts = collectFacts(root, text, lineOf, collected);
  extracted.digest = declarationDigest(collected.declarations, extracted.facts);
  return extracted;
}
