import type { ExtractedFile, FileInput } from '../front-end.js';
import { extractNeverThrowing, fileUnitOf, parseText } from '../syntax/read-syntax-file.js';
import { collectFacts } from './collect-facts.js';
import { collectImports } from './module-facts.js';
import { collectUnits } from './collect-units.js';
import { declarationDigest } from './declaration-digest.js';
import { nameRecord, type PythonFacts } from './python-facts.js';
import { fileTokens, unitHasher } from './unit-tokens.js';
import { collectVocabulary } from './unit-vocabulary.js';

export function emptyFacts(): PythonFacts {
  return { imports: [], names: nameRecord(), starImports: [], locals: [], classes: nameRecord(), functions: nameRecord(), variables: nameRecord(), uses: [] };
}


/** One Python file's units and facts; never throws (see extractNeverThrowing). */
export function extractPythonFile(file: FileInput): ExtractedFile<PythonFacts> {
  return extractNeverThrowing(file, extract, emptyFacts);
}

function extract(file: FileInput): ExtractedFile<PythonFacts> {
  const text = file.text;
  const { root, errors, lineOf } = parseText('python', file);
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
