import { shortHash } from '../../graph/content-hash.js';
import type { DeclarationDigest, ExtractedFile, FileInput } from '../front-end.js';
import { extractNeverThrowing, fileUnitOf, parseText } from '../syntax/read-syntax-file.js';
import { collectGoFacts, collectImportFacts } from './collect-go-facts.js';
import { collectGoUnits, type GoDeclaration } from './collect-go-units.js';
import { emptyGoFacts, type GoFacts } from './go-facts.js';
import { goFileTokens, goUnitHasher } from './go-unit-tokens.js';
import { collectGoVocabulary } from './go-unit-vocabulary.js';

/** The digest entry of a file's package clause and imports: what the file brings in; no Go name can take this one. */
export const IMPORTS_ENTRY = '*imports';


/** One Go file's units and facts; never throws (see extractNeverThrowing). */
export function extractGoFile(file: FileInput): ExtractedFile<GoFacts> {
  return extractNeverThrowing(file, extract, emptyGoFacts);
}

function extract(file: FileInput): ExtractedFile<GoFacts> {
  const text = file.text;
  const { root, errors, lineOf } = parseText('go', file);
  const extracted: ExtractedFile<GoFacts> = { units: [], parseErrors: errors.count, digest: {}, facts: emptyGoFacts() };
  if (errors.first) extracted.warning = { line: lineOf(errors.first.offset), message: errors.first.message };
  if (file.test) {
    // A test file shows which tests reach a change through its imports; its own code is not analyzed.
    extracted.units = [fileUnitOf(file)];
    extracted.facts = { ...emptyGoFacts(), ...collectImportFacts(root, text, lineOf) };
    extracted.digest = declarationDigest([], extracted.facts);
    return extracted;
  }
  const collected = collectGoUnits(root, file.path, file.hash, file.lines, text, lineOf, goUnitHasher(goFileTokens(root, text)));
  collectGoVocabulary(collected.declarations, text);
  extracted.units = collected.units;
  extracted.facts = collectGoFacts(root, text, lineOf, collected);
  extracted.digest = declarationDigest(collected.declarations, extracted.facts);
  return extracted;
}

/**
 * What the file shows other files, name by name: each declared unit's kind and signature, and its
 * package clause with its imports. An edit inside a body changes no entry; one to a head (a
 * signature, a field, a variable's first characters) or to an import does.
 */
function declarationDigest(declarations: readonly GoDeclaration[], facts: Pick<GoFacts, 'package' | 'imports'>): DeclarationDigest {
  const digest: DeclarationDigest = {};
  for (const { unit } of declarations) digest[unit.symbol] = shortHash(`${unit.kind}\u0000${unit.signature}`);
  digest[IMPORTS_ENTRY] = shortHash(JSON.stringify([facts.package, facts.imports.map((fact) => [fact.path, fact.alias ?? null])]));
  return digest;
}
