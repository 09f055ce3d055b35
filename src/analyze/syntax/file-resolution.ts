import type { Slot, Unit, UnresolvedCall } from '../../graph/model.js';
import { compareSlots, compareText } from '../../graph/order.js';
import type { FileResolution } from '../front-end.js';
import type { ResolvedUses } from './kept-uses.js';

/** A unit's read or write of a module-level variable (a Rust static), as a front end records it. */
export interface VariableAccess {
  from: string;
  id: string;
  line: number;
  read: boolean;
  write: boolean;
}

/** The slot of a module-level variable that is state: the variable's unit, owned by its file. */
export function moduleVariableSlot(unit: Unit): Slot {
  return { id: unit.id, kind: 'module-variable', file: unit.file, owner: unit.file, name: unit.symbol, line: unit.startLine, type: '' };
}

/**
 * One file's rows, finished the same way by every syntax front end once its uses are resolved and
 * the language's state is known: its units' containment, each access to a variable that some code
 * changes as a read or write of state (with its slot), to any other as a reference, and the counts.
 * `uses` is the file's own copy (see copyOfUses): this adds to it.
 */
export function finishFileResolution(
  uses: ResolvedUses & { unresolved: UnresolvedCall[] },
  units: readonly Unit[],
  accesses: readonly VariableAccess[],
  state: { has(id: string): boolean; slotOf(id: string): Slot },
  externalImports: Iterable<string>,
): FileResolution {
  for (const unit of units) if (unit.parent !== undefined) uses.sink.add('contains', unit.parent, unit.id, unit.startLine);
  for (const access of accesses) {
    if (state.has(access.id)) {
      uses.slots.set(access.id, state.slotOf(access.id));
      if (access.read) uses.sink.add('reads', access.from, access.id, access.line);
      if (access.write) uses.sink.add('writes', access.from, access.id, access.line);
    } else uses.sink.add('references', access.from, access.id, access.line);
  }
  const resolvedCallLines = uses.resolvedCallLines.sort((a, b) => a - b);
  return {
    edges: uses.sink.list(),
    unresolved: uses.unresolved,
    slots: [...uses.slots.values()].sort(compareSlots),
    externalImports: [...externalImports].sort(compareText),
    callSites: resolvedCallLines.length + uses.unresolved.length,
    resolvedCalls: resolvedCallLines.length,
    resolvedCallLines,
  };
}
