import type { Slot } from '../../graph/model.js';
import type { ExtractedFile, ResolvedFiles } from '../front-end.js';
import type { EdgeSink } from '../syntax/edge-sink.js';
import { moduleVariableSlot } from '../syntax/file-resolution.js';
import { finishFiles } from '../syntax/kept-resolutions.js';
import { KeptPrograms, KeptUses, surfaceKey, unitsSurface } from '../syntax/kept-uses.js';
import type { GoFacts } from './go-facts.js';
import { GoPackages } from './go-packages.js';
import { GoProgram, type TypeEntry } from './go-program.js';
import { type DeclaredNames, declaredNamesOf, fieldSlot, type FileUses, resolveGoUses } from './resolve-go-uses.js';

/** What resolving another Go file can read of this one (see surfaceKey): its package, imports, declarations and units. */
function surfaceOf(extracted: ExtractedFile<GoFacts>): string {
  const facts = extracted.facts;
  return surfaceKey(
    { package: facts.package, imports: facts.imports, declarations: facts.declarations, types: facts.types, functions: facts.functions, variables: facts.variables, units: unitsSurface(extracted) },
    facts.locals,
  );
}

/** Each file's uses, kept for the next resolution of the same session's files. */
const KEPT = new KeptUses<GoFacts, FileUses>(surfaceOf);

/** The program and method names of a session's last resolution. */
const PROGRAMS = new KeptPrograms<GoFacts, { program: GoProgram; names: DeclaredNames }>();

/**
 * Resolves every Go file at once: imports, containment, calls, references, state and the
 * heritage of types, by each file's package scope and imports and the types of the whole
 * repository. A pure function of the extracted files: the same files in any order give the same
 * resolution.
 */
export function resolveGoFiles(files: ReadonlyMap<string, ExtractedFile<GoFacts>>, memo?: object): ResolvedFiles {
  const kept = KEPT.reusable(files, memo);
  // When no file shows the others another surface, the last program stands, patched with the files that changed.
  const { program, names } = PROGRAMS.program(
    files,
    memo,
    kept !== undefined,
    () => {
      const built = new GoProgram(files);
      return { program: built, names: declaredNamesOf(built) };
    },
    (last, changed) => last.program.patch(changed),
  );
  const uses = new Map<string, FileUses>();
  for (const path of program.paths) uses.set(path, kept?.get(path) ?? resolveGoUses(program, path, program.factsOf(path)!.uses, names));
  KEPT.remember(memo, files, uses);

  const state = stateVariables(program, uses);
  const resolutions = finishFiles(program.paths, uses, {
    units: (path) => files.get(path)!.units,
    accesses: (fileUses) => fileUses.variables,
    currentSlot: (slot) => currentFieldSlot(program, slot.id),
    state: { has: (id) => state.has(id), slotOf: (id) => moduleVariableSlot(program.units.get(id)!) },
    addImports: (path, fileUses) => {
      const externalImports = new Set<string>();
      addImports(program, path, fileUses.sink, externalImports);
      return externalImports;
    },
  }, memo);
  return { files: resolutions, heritage: program.members.heritage() };
}

/** Each field's slot as last made, with the type entry it was made from (per program: a new program makes them all again). */
const FIELD_SLOTS = new WeakMap<GoProgram, Map<string, { owner: string; entry: TypeEntry | undefined; slot: Slot }>>();

/**
 * A field's slot as its type declares it now. A patched program keeps the type entries of files no
 * edit touched, and a slot made from the same entry is the same: it is handed back as the same
 * object, which finishing then knows unchanged without comparing it. Every sync asks this for
 * every field every file reads.
 */
function currentFieldSlot(program: GoProgram, id: string): Slot {
  let slots = FIELD_SLOTS.get(program);
  if (!slots) FIELD_SLOTS.set(program, (slots = new Map()));
  const known = slots.get(id);
  if (known && program.types.get(known.owner) === known.entry) return known.slot;
  const owner = id.slice(0, id.lastIndexOf('.'));
  const slot = fieldSlot(program, id);
  slots.set(id, { owner, entry: program.types.get(owner), slot });
  return slot;
}

/**
 * The package-level vars that are state: those some code writes after their declaration (an
 * assignment, `++`, an element set, `append` assigned back, `delete`), in any file. A var no code
 * writes, and every const, is a constant: its uses are references.
 */
function stateVariables(program: GoProgram, uses: ReadonlyMap<string, FileUses>): Set<string> {
  const state = new Set<string>();
  for (const fileUses of uses.values()) {
    for (const access of fileUses.variables) {
      if (!access.write) continue;
      const hash = access.id.lastIndexOf('#');
      if (!program.factsOf(access.id.slice(0, hash))?.variables[access.id.slice(hash + 1)]?.constant) state.add(access.id);
    }
  }
  return state;
}

/**
 * An import of a package of the repository imports each of its files (a package is its files
 * together, and the graph's imports join files); an import from outside is an external import,
 * named by its whole path (`net/http`, `github.com/spf13/cobra`): Go names packages by path.
 */
function addImports(program: GoProgram, file: string, sink: EdgeSink, externalImports: Set<string>): void {
  for (const fact of program.factsOf(file)!.imports) {
    if (!GoPackages.isPackagePath(fact.path)) continue;
    const target = program.packages.resolve(fact.path);
    if (target.kind === 'external') externalImports.add(target.name);
    else if (target.kind === 'package') for (const imported of target.package.files) if (imported !== file) sink.add('imports', file, imported, fact.line);
  }
}
