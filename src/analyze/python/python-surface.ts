import type { ExtractedFile } from '../front-end.js';
import { surfaceKey, unitsSurface } from '../syntax/kept-uses.js';
import type { PythonFacts } from './python-facts.js';

/** What resolving another Python file can read of this one (see surfaceKey): its imports, module names, classes, functions, variables and units. */
export function surfaceOf(extracted: ExtractedFile<PythonFacts>): string {
  const facts = extracted.facts;
  return surfaceKey(
    {
      imports: facts.imports,
      names: facts.names,
      starImports: facts.starImports,
      all: facts.all ?? null,
      classes: facts.classes,
      functions: facts.functions,
      variables: facts.variables,
      units: unitsSurface(extracted),
    },
    facts.locals,
  );
}
