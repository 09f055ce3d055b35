import type { Slot, Unit } from '../graph/model.js';
import { liveLinesOf, liveSpotOf, type UnitResolver } from './live-place.js';
import type { LocatorStatus, ResolvedLocation } from './live-resolver.js';

/**
 * Where a piece of state is declared now. The build recorded a slot's line only; the code that
 * holds the declaration is a unit, which the live resolver can judge: a module variable's slot is
 * its variable unit, and a field or property lies inside its owner (the class, interface or type
 * alias; for a property of a type literal nested in one, that type). A reader that cites or opens
 * the declaration is shown where that unit stands now, never the build's line passed off as live.
 */

type SlotPlace = Pick<Slot, 'id' | 'file' | 'owner' | 'line'>;

export interface LiveDeclaration {
  /** The file that holds the declaring unit now: the one it moved to when moved, the build's when gone. */
  file: string;
  /** Absent when no line of the build's says where the declaration stands now. */
  line?: number;
  /** The declaring unit's status, as the resolver judged it. */
  status: LocatorStatus;
  reason?: string;
}

/**
 * Where a slot is declared now, and the unit whose code holds the declaration (a reader names it
 * among the units its answer mentions). Analysis makes every slot from a declaration inside a
 * unit, so a slot without one is a broken graph, not an answer.
 */
export async function liveDeclarationOf(slot: SlotPlace, unitOf: (id: string) => Unit | undefined, resolver: UnitResolver): Promise<{ declaring: Unit; declared: LiveDeclaration }> {
  const declaring = declaringUnitOf(slot, unitOf);
  if (!declaring) throw new Error(`no unit of the handbook holds the declaration of ${slot.id} (owner ${slot.owner})`);
  return { declaring, declared: declarationAt(slot, declaring, await resolver.resolve(declaring)) };
}

/**
 * The unit whose code holds a slot's declaration: the slot's own unit (a module variable), else
 * the longest prefix of its owner's path that names a unit (`Owner.nested` lies in Owner).
 */
function declaringUnitOf(slot: SlotPlace, unitOf: (id: string) => Unit | undefined): Unit | undefined {
  const own = unitOf(slot.id);
  if (own) return own;
  const segments = slot.owner.slice(slot.file.length + 1).split('.');
  for (let taken = segments.length; taken > 0; taken -= 1) {
    const owner = unitOf(`${slot.file}#${segments.slice(0, taken).join('.')}`);
    if (owner) return owner;
  }
  return undefined;
}

/**
 * A slot that is its own unit starts where that unit starts, edited or not; one inside its owner
 * moves with the owner's code only while that code is the build's (liveLinesOf), since an edit
 * inside may have moved it.
 */
function declarationAt(slot: SlotPlace, declaring: Unit, live: ResolvedLocation): LiveDeclaration {
  const { file } = liveSpotOf(declaring, live);
  const line = live.status === 'frozen' ? undefined : declaring.id === slot.id ? live.line : liveLinesOf([slot.line], declaring, live)?.[0];
  return { file, ...(line === undefined ? {} : { line }), status: live.status, ...(live.reason ? { reason: live.reason } : {}) };
}
