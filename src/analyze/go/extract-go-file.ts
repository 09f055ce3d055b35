import { shortHash } from '../../graph/content-hash.js';
import type { DeclarationDigest, ExtractedFile, FileInput } from '../front-end.js';
import { extractNeverThrowing, fileUnitOf, parseText } from '../syntax/read-syntax-file.js';
import type { Unit } from '../../graph/model.js';
import { collectImportFacts } from './collect-go-facts.js';
import { readGoDeclarations } from './go-declaration-parts.js';
import { emptyGoFacts, type GoFacts } from './go-facts.js';

/** The digest entry of a file's package clause and imports: what the file brings in; no Go name can take this one. */
export const IMPORTS_ENTRY = '*imports';


/** One Go file's units and facts; never throws (see extractNeverThrowing). */
export function extractGoFile(file: FileInput): ExtractedFile<GoFacts> {
  return extractNeverThrowing(file, extract, emptyGoFacts);
}

function extract(file: FileInput): ExtractedFile<GoFacts> {
  const text = file.text;
  const parsed = parseText('go', file);
  const { root, errors, lineOf } = parsed;
  const extracted: ExtractedFile<GoFacts> = { units: [], parseErrors: errors.count, digest: {}, facts: emptyGoFacts() };
  if (errors.first) extracted.warning = { line: lineOf(errors.first.offset), message: errors.first.message };
  if (file.test) {
    // A test file shows which tests reach a change through its imports; its own code is not analyzed.
    extracted.units = [fileUnitOf(file)];
    extracted.facts = { ...emptyGoFacts(), ...collectImportFacts(root, text, lineOf) };
    extracted.digest = declarationDigest([], extracted.facts);
    return extracted;
  }
  extracted.facts = { ...emptyGoFacts(), ...collectImportFacts(root, text, lineOf) };
  extracted.units = [fileUnitOf(file), ...readGoDeclarations(root, parsed, file, extracted.facts)];
  extracted.digest = declarationDigest(extracted.units.slice(1), extracted.facts);
  return extracted;
}

/**
 * What the file shows other files, name by name: each declared unit's kind and signature, and its
 * package clause with its imports. An edit inside a body changes no entry; one to a head (a
 * signature, a field, a variable's first characters) or to an import does.
 */
function declarationDigest(units: readonly Unit[], facts: Pick<GoFacts, 'package' | 'imports'>): DeclarationDigest {
  const digest: DeclarationDigest = {};
  for (const unit of units) digest[unit.symbol] = shortHash(`${unit.kind}\u0000${unit.signature}`);
  digest[IMPORTS_ENTRY] = shortHash(JSON.stringify([facts.package, facts.imports.map((fact) => [fact.path, fact.alias ?? null])]));
  return digest;
}
