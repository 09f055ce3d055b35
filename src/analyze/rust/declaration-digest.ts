import { shortHash } from '../../graph/content-hash.js';
import type { DeclarationDigest } from '../front-end.js';
import type { Declaration } from './collect-units.js';
import type { RustFacts } from './rust-facts.js';

/** The digest entry of a file's `use` and `mod` declarations and exported macros: what the file brings in and shows; no identifier can take this name. */
export const IMPORTS_ENTRY = '*imports';

/**
 * What the file shows other files, name by name: each declared unit's kind and signature, and its
 * imports. An edit inside a body changes no entry; one to a head (parameters, fields, a const's
 * first characters) or to a `use` does.
 */
export function declarationDigest(declarations: readonly Declaration[], facts: Pick<RustFacts, 'imports' | 'modules' | 'macros'>): DeclarationDigest {
  const digest: DeclarationDigest = {};
  for (const { unit } of declarations) digest[unit.symbol] = shortHash(`${unit.kind}\u0000${unit.signature}`);
  digest[IMPORTS_ENTRY] = shortHash(JSON.stringify([
    facts.imports.map((fact) => [fact.scope, fact.segments, fact.name ?? null, fact.glob, fact.public, fact.local ?? false]),
    facts.modules.map((fact) => [fact.scope, fact.name, fact.path ?? null]),
    facts.macros.filter((macro) => macro.exported).map((macro) => macro.name),
  ]));
  return digest;
}
