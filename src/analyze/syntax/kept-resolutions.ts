import type { Slot, Unit, UnresolvedCall } from '../../graph/model.js';
import type { FileResolution } from '../front-end.js';
import { finishFileResolution, type VariableAccess } from './file-resolution.js';
import { copyOfUses, type ResolvedUses } from './kept-uses.js';

/**
 * What finishing a file's kept uses reads from outside them: each field slot as its owner declares
 * it now, and for each variable access whether the variable is state and, if so, its slot (null
 * when it is not). Everything else finishing reads (the file's units, its imports) is fixed while
 * its uses are kept: KeptUses keeps them only when no file shows the others another surface.
 */
function finishInputs(
  uses: ResolvedUses,
  accesses: readonly VariableAccess[],
  currentSlot: (slot: Slot) => Slot,
  state: { has(id: string): boolean; slotOf(id: string): Slot },
): Array<Slot | null> {
  const inputs: Array<Slot | null> = [];
  for (const slot of uses.slots.values()) if (slot.kind === 'field') inputs.push(currentSlot(slot));
  for (const access of accesses) inputs.push(state.has(access.id) ? state.slotOf(access.id) : null);
  return inputs;
}

interface Finished {
  uses: ResolvedUses;
  inputs: Array<Slot | null>;
  resolution: FileResolution;
}

/**
 * Finished file resolutions kept between resolutions of a session's files (in the memo object the
 * session hands its front end). A file resolved from the same uses object as last time, whose
 * finishing reads the same slots and state, finishes as it did: its last resolution is handed back
 * as the same object, which the session then knows unchanged without comparing rows. An edit that
 * moves a field or turns a variable into state reaches every file reading it, and only those.
 */
class KeptResolutions {
  private readonly memos = new WeakMap<object, Map<string, Finished>>();

  /** One resolution's use of the kept ones: `finish` a file, then `remember` what was finished. */
  open(memo: object | undefined): { finish(path: string, uses: ResolvedUses, inputs: Array<Slot | null>, make: () => FileResolution): FileResolution; remember(): void } {
    const last = memo ? this.memos.get(memo) : undefined;
    const next = new Map<string, Finished>();
    return {
      finish: (path, uses, inputs, make) => {
        const before = last?.get(path);
        const resolution = before && before.uses === uses && sameInputs(before.inputs, inputs) ? before.resolution : make();
        next.set(path, { uses, inputs, resolution });
        return resolution;
      },
      remember: () => {
        if (memo) this.memos.set(memo, next);
      },
    };
  }
}

function sameInputs(a: ReadonlyArray<Slot | null>, b: ReadonlyArray<Slot | null>): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index]!;
    const y = b[index]!;
    if (x === y) continue;
    if (x === null || y === null) return false;
    if (x.id !== y.id || x.kind !== y.kind || x.file !== y.file || x.owner !== y.owner || x.name !== y.name || x.line !== y.line || x.type !== y.type) return false;
  }
  return true;
}

/** Each file's finished resolution, kept for the next resolution of the same session's files. */
const FINISHED = new KeptResolutions();

/** What finishing a language's files needs of it, once its uses are resolved and its state known. */
export interface FinishLanguage<Uses> {
  units(path: string): readonly Unit[];
  /** The file's accesses to module-level variables (statics in Rust). */
  accesses(uses: Uses): readonly VariableAccess[];
  /** A field's slot as its owner declares it now: a kept resolution holds the line its owner's file had then. */
  currentSlot(slot: Slot): Slot;
  state: { has(id: string): boolean; slotOf(id: string): Slot };
  /** Adds the file's import edges to its copy of the uses, and returns the outside modules it imports. */
  addImports(path: string, uses: Uses): Set<string>;
}

/**
 * Finishes every file of a language from its resolved uses (see finishFileResolution), each on a
 * copy, so that what is kept for the next resolution stays as it was made; a file whose kept uses
 * finish from the same inputs as last time gets its last resolution back.
 */
export function finishFiles<Uses extends ResolvedUses & { unresolved: UnresolvedCall[] }>(
  paths: readonly string[],
  uses: ReadonlyMap<string, Uses>,
  language: FinishLanguage<Uses>,
  memo: object | undefined,
): Map<string, FileResolution> {
  const finished = FINISHED.open(memo);
  // Each field's slot is looked up once per resolution, however many files read it: every file's inputs are taken on every sync.
  const slots = new Map<string, Slot>();
  const currentSlot = (slot: Slot): Slot => {
    let current = slots.get(slot.id);
    if (current === undefined) slots.set(slot.id, (current = language.currentSlot(slot)));
    return current;
  };
  const resolutions = new Map<string, FileResolution>();
  for (const path of paths) {
    const kept = uses.get(path)!;
    const inputs = finishInputs(kept, language.accesses(kept), currentSlot, language.state);
    resolutions.set(path, finished.finish(path, kept, inputs, () => {
      const fileUses = copyOfUses(kept, language.currentSlot);
      const externalImports = language.addImports(path, fileUses);
      return finishFileResolution(fileUses, language.units(path), language.accesses(fileUses), language.state, externalImports);
    }));
  }
  finished.remember();
  return resolutions;
}
