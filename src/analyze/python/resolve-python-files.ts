import type { Slot } from '../../graph/model.js';
import type { ExtractedFile, ResolvedFiles } from '../front-end.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import { moduleVariableSlot } from '../syntax/file-resolution.js';
import { finishFiles } from '../syntax/kept-resolutions.js';
import { KeptUses } from '../syntax/kept-uses.js';
import type { PythonFacts } from './python-facts.js';
import { PythonProgram, splitId } from './python-program.js';
import { surfaceOf } from './python-surface.js';
import { declaredNamesOf, resolveUses, type FileUses } from './resolve-uses.js';

/** Imports that are compiler directives, not modules a file is built on. */
const NOT_MODULES = new Set(['__future__']);

/**
 * Resolves every Python file at once: imports, containment, calls, references and state, by the
 * scopes and imports of each file and the modules of the whole repository. A pure function of
 * the extracted files: the same files in any order give the same resolution.
 */
export function resolvePythonFiles(files: ReadonlyMap<string, ExtractedFile<PythonFacts>>, memo?: object): ResolvedFiles {
  const program = new PythonProgram(files);
  const names = declaredNamesOf(program);
  const kept = KEPT.reusable(files, memo);
  const uses = new Map<string, FileUses>();
  for (const path of program.paths) uses.set(path, kept?.get(path) ?? resolveUses(program, path, program.factsOf(path)!.uses, names));
  KEPT.remember(memo, files, uses);

  const state = stateVariables(program, uses);
  const resolutions = finishFiles(program.paths, uses, {
    units: (path) => files.get(path)!.units,
    accesses: (fileUses) => fileUses.variables,
    currentSlot: (slot) => currentSlot(program, slot),
    state: { has: (id) => state.has(id), slotOf: (id) => moduleVariableSlot(program.units.get(id)!) },
    addImports: (path, fileUses) => {
      const externalImports = new Set<string>();
      addImports(program, path, fileUses.sink, externalImports);
      return externalImports;
    },
  }, memo);
  return { files: resolutions, heritage: heritageOf(program) };
}

/** Each file's uses, kept for the next resolution of the same session's files. */
const KEPT = new KeptUses<PythonFacts, FileUses>(surfaceOf);

/** A field's slot as the class declares it now: a kept resolution holds the line its owner's file had then. */
function currentSlot(program: PythonProgram, slot: Slot): Slot {
  const field = program.classFact(slot.owner)?.fields[slot.name];
  return { ...slot, line: field?.line ?? 1, type: field?.type ?? '' };
}

/**
 * The module variables that are state: those holding a container or a call's result (code can
 * change them in place), and those some code writes after their definition (through `global`, a
 * module-level reassignment, an item or method that mutates them), in any file. A variable that
 * is neither is a constant: its uses are references.
 */
function stateVariables(program: PythonProgram, uses: ReadonlyMap<string, FileUses>): Set<string> {
  const state = new Set<string>();
  for (const fileUses of uses.values()) for (const access of fileUses.variables) if (access.write) state.add(access.id);
  for (const fileUses of uses.values()) {
    for (const access of fileUses.variables) {
      const [file, symbol] = splitId(access.id);
      if (program.factsOf(file)?.variables[symbol]?.mutable) state.add(access.id);
    }
  }
  return state;
}

/**
 * `import a.b` imports a.b's file; `from a.b import c` a.b's file and, when c is a submodule,
 * c's file too; relative imports from the importing file's package. An absolute import of a name
 * the repository does not hold is an external package.
 */
function addImports(program: PythonProgram, file: string, sink: EdgeSink, externalImports: Set<string>): void {
  for (const fact of program.factsOf(file)!.imports) {
    const names = fact.names?.map((name) => name.name) ?? [];
    const module = program.modules.resolve(fact, file, fact.names ? names : []);
    if (!module) {
      const external = program.externalPackage(file, fact);
      if (external !== undefined && !NOT_MODULES.has(external)) externalImports.add(external);
      continue;
    }
    if (module.file && module.file !== file) sink.add('imports', file, module.file, fact.line);
    for (const name of fact.names ?? []) {
      const submodule = program.modules.submodule(module, name.name);
      if (submodule?.file && submodule.file !== file) sink.add('imports', file, submodule.file, name.line);
    }
  }
}

/** Each class's bases that are classes of the repository: the `extends` edges. */
function heritageOf(program: PythonProgram): ReturnType<EdgeSink['list']> {
  const heritage = new EdgeSink();
  const classIds = [...program.units.values()].filter((unit) => unit.kind === 'class').map((unit) => unit.id).sort();
  for (const classId of classIds) for (const base of program.baseClassesOf(classId)) heritage.add('extends', classId, base.id, base.line);
  return heritage.list();
}
