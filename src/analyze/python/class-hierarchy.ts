import { compareText } from '../../graph/order.js';

/** A class's bases as they resolved: classes of the repository in order, and the first base from outside it. */
export interface ResolvedBases {
  repository: Array<{ id: string; line: number }>;
  external?: string;
}

/**
 * The repository's classes in their inheritance: method resolution order and subclasses.
 * The MRO is Python's C3 linearization over the bases that resolve to repository classes (bases
 * from outside the repository have no members the graph knows); where C3 finds no consistent
 * order (Python would refuse the class), a left-to-right depth-first order with each class at its
 * first place stands in, which is C3's answer whenever no class is reached twice.
 */
export class ClassHierarchy {
  private readonly orders = new Map<string, string[]>();
  private readonly underWay = new Set<string>();
  private children: Map<string, string[]> | undefined;
  private readonly descendants = new Map<string, string[]>();

  constructor(
    private readonly classIds: readonly string[],
    private readonly basesOf: (classId: string) => ResolvedBases,
  ) {}

  mro(classId: string): string[] {
    const known = this.orders.get(classId);
    if (known) return known;
    // A class among its own ancestors (bases resolved in a loop) stops the walk there.
    if (this.underWay.has(classId)) return [classId];
    this.underWay.add(classId);
    const bases = this.basesOf(classId).repository.map((base) => base.id).filter((base) => base !== classId);
    const linear = c3(classId, bases, (base) => this.mro(base)) ?? depthFirst(classId, bases, (base) => this.mro(base));
    const order = linear.filter((id, index) => linear.indexOf(id) === index);
    this.underWay.delete(classId);
    this.orders.set(classId, order);
    return order;
  }

  /** The package of the first base from outside the repository along the MRO, if any: members not found may come from it. */
  externalBase(classId: string): string | undefined {
    for (const ancestor of this.mro(classId)) {
      const external = this.basesOf(ancestor).external;
      if (external !== undefined) return external;
    }
    return undefined;
  }

  /** The classes that name `classId` as a base, sorted. */
  subclassesOf(classId: string): readonly string[] {
    if (!this.children) {
      this.children = new Map();
      for (const id of this.classIds) {
        for (const base of this.basesOf(id).repository) {
          const list = this.children.get(base.id) ?? [];
          if (!list.includes(id)) list.push(id);
          this.children.set(base.id, list);
        }
      }
      for (const list of this.children.values()) list.sort(compareText);
    }
    return this.children.get(classId) ?? [];
  }

  /** Every class below `classId`, nearest first, each once. */
  descendantsOf(classId: string): readonly string[] {
    let found = this.descendants.get(classId);
    if (!found) this.descendants.set(classId, (found = this.findDescendants(classId)));
    return found;
  }

  private findDescendants(classId: string): string[] {
    const found: string[] = [];
    const seen = new Set([classId]);
    const queue = [classId];
    while (queue.length > 0) {
      for (const child of this.subclassesOf(queue.shift()!)) {
        if (seen.has(child)) continue;
        seen.add(child);
        found.push(child);
        queue.push(child);
      }
    }
    return found;
  }
}

function c3(classId: string, bases: readonly string[], mroOf: (id: string) => string[]): string[] | undefined {
  const sequences = [...bases.map((base) => [...mroOf(base)]), [...bases]].filter((sequence) => sequence.length > 0);
  const order = [classId];
  while (sequences.length > 0) {
    const head = sequences.map((sequence) => sequence[0]!).find((candidate) => sequences.every((sequence) => sequence.indexOf(candidate) <= 0));
    if (head === undefined) return undefined;
    order.push(head);
    for (const sequence of sequences) if (sequence[0] === head) sequence.shift();
    for (let index = sequences.length - 1; index >= 0; index -= 1) if (sequences[index]!.length === 0) sequences.splice(index, 1);
  }
  return order;
}

function depthFirst(classId: string, bases: readonly string[], mroOf: (id: string) => string[]): string[] {
  const order = [classId];
  for (const base of bases) for (const ancestor of mroOf(base)) if (!order.includes(ancestor)) order.push(ancestor);
  return order;
}
