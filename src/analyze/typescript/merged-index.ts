import { createUnitIndex, type UnitIndex } from './collect-units.js';

/**
 * Every file's unit index as one, for the resolver, kept across the refreshes of a session: a
 * refresh takes out the indexes of the files that changed and puts in their new ones, instead of
 * merging every file's index again. Names declared in several files are counted, so one file's
 * removal does not drop a name another still declares.
 */
export class MergedUnitIndex {
  private merged = createUnitIndex();
  private readonly parts = new Map<string, UnitIndex>();
  private readonly memberNames = new Map<string, number>();
  private readonly declaredNames = new Map<string, number>();

  /** The merged index of exactly these files' indexes (by path). */
  update(files: ReadonlyMap<string, UnitIndex>): UnitIndex {
    let typesChanged = false;
    let intersectionsChanged = false;
    for (const [path, part] of this.parts) {
      if (files.get(path) === part) continue;
      this.remove(part);
      this.parts.delete(path);
      typesChanged ||= part.typeDeclarations.length > 0;
      intersectionsChanged ||= part.intersections.length > 0;
    }
    for (const [path, part] of files) {
      if (this.parts.has(path)) continue;
      this.add(part);
      this.parts.set(path, part);
      typesChanged ||= part.typeDeclarations.length > 0;
      intersectionsChanged ||= part.intersections.length > 0;
    }
    if (typesChanged) this.merged.typeDeclarations = [...this.parts.values()].flatMap((part) => part.typeDeclarations);
    if (intersectionsChanged) this.merged.intersections = [...this.parts.values()].flatMap((part) => part.intersections);
    return this.merged;
  }

  private add(part: UnitIndex): void {
    const merged = this.merged;
    for (const [id, unit] of part.units) merged.units.set(id, unit);
    for (const [node, id] of part.unitByDeclaration) merged.unitByDeclaration.set(node, id);
    for (const id of part.stateVariables) merged.stateVariables.add(id);
    count(this.memberNames, part.memberNames, 1, merged.memberNames);
    count(this.declaredNames, part.declaredNames, 1, merged.declaredNames);
  }

  private remove(part: UnitIndex): void {
    const merged = this.merged;
    for (const id of part.units.keys()) merged.units.delete(id);
    for (const node of part.unitByDeclaration.keys()) merged.unitByDeclaration.delete(node);
    for (const id of part.stateVariables) merged.stateVariables.delete(id);
    count(this.memberNames, part.memberNames, -1, merged.memberNames);
    count(this.declaredNames, part.declaredNames, -1, merged.declaredNames);
  }
}

function count(counts: Map<string, number>, names: ReadonlySet<string>, step: 1 | -1, present: Set<string>): void {
  for (const name of names) {
    const now = (counts.get(name) ?? 0) + step;
    if (now > 0) {
      counts.set(name, now);
      present.add(name);
    } else {
      counts.delete(name);
      present.delete(name);
    }
  }
}
