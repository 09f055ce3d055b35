import type { Slot, Unit } from '../../graph/model.js';
import { compareSlots } from '../../graph/order.js';
import type { ExtractedFile, FileResolution, ResolvedFiles } from '../front-end.js';
import { EdgeSink } from '../syntax/edge-sink.js';
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
  const kept = reusableUses(files, memo);
  const uses = new Map<string, FileUses>();
  for (const path of program.paths) uses.set(path, kept?.get(path) ?? resolveUses(program, path, program.factsOf(path)!.uses, names));
  if (memo) remember(memo, files, uses);

  const state = stateVariables(program, uses);
  const resolved: ResolvedFiles = { files: new Map(), heritage: heritageOf(program) };
  for (const path of program.paths) {
    // A copy: what is kept for the next resolution stays as resolveUses made it.
    const resolvedUses = uses.get(path)!;
    const fileUses: FileUses = {
      ...resolvedUses,
      sink: resolvedUses.sink.clone(),
      slots: new Map([...resolvedUses.slots].map(([id, slot]) => [id, currentSlot(program, slot)])),
      resolvedCallLines: [...resolvedUses.resolvedCallLines],
    };
    const externalImports = new Set<string>();
    addImports(program, path, fileUses.sink, externalImports);
    for (const unit of files.get(path)!.units) if (unit.parent !== undefined) fileUses.sink.add('contains', unit.parent, unit.id, unit.startLine);
    for (const access of fileUses.variables) {
      if (state.has(access.id)) {
        fileUses.slots.set(access.id, moduleSlot(program.units.get(access.id)!));
        if (access.read) fileUses.sink.add('reads', access.from, access.id, access.line);
        if (access.write) fileUses.sink.add('writes', access.from, access.id, access.line);
      } else fileUses.sink.add('references', access.from, access.id, access.line);
    }
    const resolvedCallLines = fileUses.resolvedCallLines.sort((a, b) => a - b);
    const resolution: FileResolution = {
      edges: fileUses.sink.list(),
      unresolved: fileUses.unresolved,
      slots: [...fileUses.slots.values()].sort(compareSlots),
      externalImports: [...externalImports].sort(),
      callSites: resolvedCallLines.length + fileUses.unresolved.length,
      resolvedCalls: resolvedCallLines.length,
      resolvedCallLines,
    };
    resolved.files.set(path, resolution);
  }
  return resolved;
}

/** Each file's uses as last resolved, with the file they were resolved from and its surface. */
type UsesMemo = Map<string, { extracted: ExtractedFile<PythonFacts>; surface: string; uses: FileUses }>;

const memos = new WeakMap<object, UsesMemo>();

/**
 * The uses of the unchanged files, kept from the last resolution, when no change can reach them:
 * the same files as then, and every file that changed (another extraction than the one resolved)
 * shows other files the same surface. An edit inside a function body that leaves what the file
 * declares, imports and returns alone is the common case, and resolves one file instead of all.
 * Undefined when everything must be resolved again.
 */
function reusableUses(files: ReadonlyMap<string, ExtractedFile<PythonFacts>>, memo: object | undefined): Map<string, FileUses> | undefined {
  const last = memo ? memos.get(memo) : undefined;
  if (!last || last.size !== files.size) return undefined;
  const kept = new Map<string, FileUses>();
  for (const [path, extracted] of files) {
    const before = last.get(path);
    if (!before) return undefined;
    if (before.extracted === extracted) kept.set(path, before.uses);
    else if (before.surface !== surfaceOf(extracted)) return undefined;
  }
  return kept;
}

function remember(memo: object, files: ReadonlyMap<string, ExtractedFile<PythonFacts>>, uses: ReadonlyMap<string, FileUses>): void {
  const last = memos.get(memo);
  const next: UsesMemo = new Map();
  for (const [path, extracted] of files) {
    const before = last?.get(path);
    next.set(path, { extracted, surface: before?.extracted === extracted ? before.surface : surfaceOf(extracted), uses: uses.get(path)! });
  }
  memos.set(memo, next);
}

/** A field's slot as the class declares it now: a kept resolution holds the line its owner's file had then. */
function currentSlot(program: PythonProgram, slot: Slot): Slot {
  if (slot.kind !== 'field') return slot;
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

function moduleSlot(unit: Unit): Slot {
  return { id: unit.id, kind: 'module-variable', file: unit.file, owner: unit.file, name: unit.symbol, line: unit.startLine, type: '' };
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
