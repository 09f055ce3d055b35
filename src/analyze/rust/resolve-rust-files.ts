import type { Slot, Unit } from '../../graph/model.js';
import type { ExtractedFile, ResolvedFiles } from '../front-end.js';
import { EdgeSink } from '../syntax/edge-sink.js';
import { fileOfKey } from './crate-index.js';
import type { RustFacts } from './rust-facts.js';
import { RustProgram } from './rust-program.js';
import { type DeclaredNames, declaredNamesOf, fieldSlot, resolveUses, type FileUses } from './resolve-uses.js';
import { finishFiles } from '../syntax/kept-resolutions.js';
import { KeptPrograms, KeptUses, surfaceKey, unitsSurface } from '../syntax/kept-uses.js';

/** What resolving another Rust file can read of this one (see surfaceKey): its modules, imports, items, macros, types, traits, impls, functions, statics and units. */
function surfaceOf(extracted: ExtractedFile<RustFacts>): string {
  const { uses: _uses, locals, ...head } = extracted.facts;
  return surfaceKey({ ...head, units: unitsSurface(extracted) }, locals);
}

/** Each file's uses, kept for the next resolution of the same session's files. */
const KEPT = new KeptUses<RustFacts, FileUses>(surfaceOf);

/** The program and method names of a session's last resolution. */
const PROGRAMS = new KeptPrograms<RustFacts, { program: RustProgram; names: DeclaredNames }>();
import type { Landing } from './rust-values.js';

/**
 * Resolves every Rust file at once: `use` and `mod` imports, containment, calls, references,
 * state and heritage, by the module trees of the repository's crates and its impl blocks. A pure
 * function of the extracted files: the same files in any order give the same resolution.
 */
export function resolveRustFiles(files: ReadonlyMap<string, ExtractedFile<RustFacts>>, memo?: object): ResolvedFiles {
  const kept = KEPT.reusable(files, memo);
  // When no file shows the others another surface, the last program stands, patched with the files that changed.
  const { program, names } = PROGRAMS.program(
    files,
    memo,
    kept !== undefined,
    () => {
      const built = new RustProgram(files);
      return { program: built, names: declaredNamesOf(built) };
    },
    (last, changed) => last.program.patch(changed),
  );
  const uses = new Map<string, FileUses>();
  for (const path of program.paths) uses.set(path, kept?.get(path) ?? resolveUses(program, path, program.factsOf(path)!.uses, names));
  KEPT.remember(memo, files, uses);

  const state = stateStatics(program, uses);
  const resolutions = finishFiles(program.paths, uses, {
    units: (path) => files.get(path)!.units,
    accesses: (fileUses) => fileUses.statics,
    currentSlot: (slot) => fieldSlot(program, slot.id),
    state: { has: (id) => state.has(id), slotOf: (id) => staticSlot(program.units.get(id)!, program) },
    addImports: (path, fileUses) => {
      const externalImports = new Set(fileUses.externalCrates);
      addImports(program, path, fileUses.sink, externalImports);
      return externalImports;
    },
  }, memo);
  return { files: resolutions, heritage: heritageOf(program) };
}

/**
 * The statics that are state: `static mut`, a static of an interior-mutable type (a Mutex, an
 * atomic, a OnceLock), a `lazy_static!` or `thread_local!`, and any static some code writes. A
 * const, or a static nothing can change, is a constant: its uses are references.
 */
function stateStatics(program: RustProgram, uses: ReadonlyMap<string, FileUses>): Set<string> {
  const state = new Set<string>();
  for (const fileUses of uses.values()) {
    for (const access of fileUses.statics) {
      const fact = staticFact(program, access.id);
      if (fact?.kind === 'static' && (fact.mutable || access.write)) state.add(access.id);
    }
  }
  return state;
}

function staticFact(program: RustProgram, id: string): RustFacts['statics'][string] | undefined {
  const hash = id.lastIndexOf('#');
  return program.factsOf(id.slice(0, hash))?.statics[id.slice(hash + 1)];
}

function staticSlot(unit: Unit, program: RustProgram): Slot {
  const type = /:\s*([^=]+?)\s*(?:=|$)/.exec(unit.signature)?.[1] ?? '';
  const owner = unit.parent ?? unit.file;
  return { id: unit.id, kind: 'module-variable', file: unit.file, owner: program.units.has(owner) ? owner : unit.file, name: unit.symbol, line: unit.startLine, type };
}

const PATH_KEYWORDS = new Set(['crate', 'self', 'super', '::']);

/**
 * `use a::b::C` imports the file of module a::b (the module the path names last), and C's own
 * file when C is a module; a glob imports its module's file; `mod x;` imports x's file. A path
 * whose first segment is an outside crate (or std) is an external import of that crate.
 */
function addImports(program: RustProgram, file: string, sink: EdgeSink, externalImports: Set<string>): void {
  const facts = program.factsOf(file)!;
  for (const declaration of facts.modules) {
    const target = program.crates.childFile(program.moduleKey(file, declaration.scope), declaration.name);
    if (target !== undefined && target !== file) sink.add('imports', file, target, declaration.line);
  }
  for (const fact of facts.imports) {
    const key = program.moduleKey(file, fact.scope);
    const modules: string[] = [];
    let last: Landing | undefined;
    const segments = fact.segments;
    for (let length = 1; length <= segments.length; length += 1) {
      // Each prefix in turn, to keep the modules the path passes through (each answer is memoized); `crate`, `self`, `super` count only as a path's end.
      last = program.resolvePath(key, segments.slice(0, length), segments[length]);
      if (last.value.kind !== 'module') break;
      if (!PATH_KEYWORDS.has(segments[length - 1]!) || length === segments.length) modules.push(last.value.key);
    }
    if (!last) continue;
    if (last.value.kind === 'external') {
      externalImports.add(last.value.crate);
      continue;
    }
    const named = modules[modules.length - 1];
    if (named === undefined) continue;
    // The module holding the item a path ends on, and the module itself when the path ends on one (`use crate::tools::{self, shell}`).
    const holder = last.value.kind === 'module' ? modules[modules.length - 2] : named;
    for (const module of new Set([holder, last.value.kind === 'module' ? named : undefined])) {
      if (module === undefined) continue;
      const target = fileOfKey(module);
      if (target !== file) sink.add('imports', file, target, fact.line);
    }
  }
}

/** `implements` (a type → each repository trait it has an impl of) and `extends` (a trait → its repository supertraits). */
function heritageOf(program: RustProgram): ReturnType<EdgeSink['list']> {
  const heritage = new EdgeSink();
  for (const edge of program.impls.heritage) heritage.add(edge.kind, edge.from, edge.to, edge.line);
  return heritage.list();
}
