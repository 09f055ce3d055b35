import { shortHash } from '../../graph/content-hash.js';
import type { DeclarationDigest } from '../front-end.js';
import type { Declaration } from './collect-units.js';
import type { PythonFacts } from './python-facts.js';

/** The digest entry of a file's imports and `__all__`: what the file brings in and shows; no identifier can take this name. */
export const IMPORTS_ENTRY = '*imports';

/**
 * What the file shows other files, name by name: each declared unit's kind and signature, and its
 * imports. An edit inside a body changes no entry; one to a head (parameters, bases, a variable's
 * first characters) or to an import does.
 */
export function declarationDigest(declarations: readonly Declaration[], facts: Pick<PythonFacts, 'imports' | 'all'>): DeclarationDigest {
  const digest: DeclarationDigest = {};
  for (const { unit } of declarations) digest[unit.symbol] = shortHash(`${unit.kind}\u0000${unit.signature}`);
  digest[IMPORTS_ENTRY] = shortHash(JSON.stringify([facts.imports.map((fact) => [fact.level, fact.name, fact.names?.map((name) => name.name) ?? null]), facts.all ?? null]));
  return digest;
}
