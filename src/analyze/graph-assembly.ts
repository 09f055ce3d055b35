import { type Edge, type ProgramGraphData, type Slot, type SourceFileRecord, type Unit, type UnresolvedCall } from '../graph/model.js';
import { canonicalize, compareEdges, compareFiles, compareSlots, compareUnits, compareUnresolved } from '../graph/order.js';

/** A file's rows in the graph: what an assembly takes out when the file changes. */
export interface FileRows {
  record: SourceFileRecord;
  units: readonly Unit[];
  edges: readonly Edge[];
  unresolved: readonly UnresolvedCall[];
}

/**
 * One language's graph in canonical order, kept between refreshes. After a refresh that changed a
 * few files, the last graph is reused: those files' rows are taken out and their new rows merged
 * in, so a sync does not sort every edge of the tree again. Heritage edges and slots, recomputed
 * for the whole language on every refresh, are assembled whole. The result equals a cold
 * canonicalization because a file's rows all start in that file (their order against another
 * file's rows never ties) and each list is in a total order.
 */
export class GraphAssembly {
  private assembled: { graph: ProgramGraphData; rows: Map<string, FileRows>; slotsOf: Map<string, readonly Slot[]>; heritage: readonly Edge[] } | undefined;
  private changed: Set<string> | 'all' = 'all';

  /** The next assembly starts over (a full refresh, or the first). */
  changeAll(): void {
    this.changed = 'all';
  }

  /** These files' rows may differ from the last assembly's (added, modified, resolved again, removed). */
  changeFiles(paths: Iterable<string>): void {
    if (this.changed === 'all') return;
    for (const path of paths) this.changed.add(path);
  }

  /**
   * The language's graph from its files (in the session's own order: the last file naming a slot
   * id gives its slot), each file's rows and slots, and the language's heritage edges.
   */
  assemble<File>(files: ReadonlyMap<string, File>, rowsOf: (file: File) => FileRows, slotsOf: (file: File) => readonly Slot[], heritage: readonly Edge[]): ProgramGraphData {
    const previous = this.assembled;
    const changed = this.changed;
    const slotLists = new Map<string, readonly Slot[]>();
    for (const [path, file] of files) slotLists.set(path, slotsOf(file));
    let rows: Map<string, FileRows>;
    let graph: ProgramGraphData;
    if (!previous || changed === 'all') {
      rows = new Map([...files].map(([path, file]) => [path, rowsOf(file)]));
      graph = canonicalize(withRows({ files: [], units: [], edges: [...heritage], slots: slotsFrom(slotLists), unresolved: [] }, rows.values()));
    } else {
      rows = new Map(previous.rows);
      const gone = withRows(emptyGraph(), [...changed].flatMap((path) => previous.rows.get(path) ?? []));
      const now: FileRows[] = [];
      for (const path of changed) {
        const file = files.get(path);
        if (file === undefined) rows.delete(path);
        else {
          const row = rowsOf(file);
          rows.set(path, row);
          now.push(row);
        }
      }
      const fresh = canonicalize(withRows({ files: [], units: [], edges: [...heritage], slots: [], unresolved: [] }, now));
      // Slots are kept whole unless some file names other slots than it did: a body edit seldom makes one. Not only
      // changed files: a session may refresh the records an unchanged file holds of a slot declared in a changed one.
      const slotsKept = previous.slotsOf.size === slotLists.size && [...slotLists].every(([path, list]) => sameSlots(previous.slotsOf.get(path), list));
      graph = {
        files: mergeFew(withoutFew(previous.graph.files, gone.files, compareFiles), fresh.files, compareFiles),
        units: mergeFew(withoutFew(previous.graph.units, gone.units, compareUnits), fresh.units, compareUnits),
        edges: mergeFew(withoutFew(previous.graph.edges, [...gone.edges, ...previous.heritage], compareEdges), fresh.edges, compareEdges),
        slots: slotsKept ? previous.graph.slots : slotsFrom(slotLists),
        unresolved: mergeFew(withoutFew(previous.graph.unresolved, gone.unresolved, compareUnresolved), fresh.unresolved, compareUnresolved),
      };
    }
    this.assembled = { graph, rows, slotsOf: slotLists, heritage };
    this.changed = new Set();
    return graph;
  }
}

/** Every file's slots, the last file naming an id giving its slot, in canonical order. */
function slotsFrom(slotLists: ReadonlyMap<string, readonly Slot[]>): Slot[] {
  const slotsById = new Map<string, Slot>();
  for (const list of slotLists.values()) for (const slot of list) slotsById.set(slot.id, slot);
  return [...slotsById.values()].sort(compareSlots);
}

function sameSlots(before: readonly Slot[] | undefined, now: readonly Slot[] | undefined): boolean {
  if (before === now) return true;
  if (!before || !now || before.length !== now.length) return false;
  return before.every((slot, at) => {
    const other = now[at]!;
    if (slot === other) return true;
    const keys = Object.keys(slot) as Array<keyof Slot>;
    return keys.length === Object.keys(other).length && keys.every((key) => slot[key] === other[key]);
  });
}

export function emptyGraph(): ProgramGraphData {
  return { files: [], units: [], edges: [], slots: [], unresolved: [] };
}

/** Appends files' rows to a graph's lists (slots aside: they are kept per slot, not per file). */
export function withRows(graph: ProgramGraphData, rows: Iterable<FileRows>): ProgramGraphData {
  for (const row of rows) {
    graph.files.push(row.record);
    for (const unit of row.units) graph.units.push(unit);
    for (const edge of row.edges) graph.edges.push(edge);
    for (const call of row.unresolved) graph.unresolved.push(call);
  }
  return graph;
}

/** Merges a few sorted rows into many sorted ones: a binary search per new row instead of sorting everything again. */
function mergeFew<T>(many: readonly T[], few: readonly T[], compare: (a: T, b: T) => number): T[] {
  const merged: T[] = [];
  let from = 0;
  for (const row of few) {
    let low = from;
    let high = many.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(many[middle]!, row) <= 0) low = middle + 1;
      else high = middle;
    }
    for (let at = from; at < low; at += 1) merged.push(many[at]!);
    merged.push(row);
    from = low;
  }
  for (let at = from; at < many.length; at += 1) merged.push(many[at]!);
  return merged;
}

/**
 * A sorted list without a few of its rows (the very objects, found by binary search): a sync takes
 * one file's rows out of every row of the language, and a pass testing each row against a set cost more.
 */
function withoutFew<T>(many: readonly T[], few: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (few.length === 0) return [...many];
  // A large file's thousands of rows: one set test per row costs less than a search of every row taken out.
  if (few.length * Math.log2(many.length + 1) > many.length / 4) {
    const gone = new Set(few);
    return many.filter((row) => !gone.has(row));
  }
  const drop = new Set<number>();
  for (const row of few) {
    let low = 0;
    let high = many.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(many[middle]!, row) < 0) low = middle + 1;
      else high = middle;
    }
    // Rows of equal order are told apart by identity.
    for (let at = low; at < many.length && compare(many[at]!, row) === 0; at += 1) {
      if (many[at] === row) {
        drop.add(at);
        break;
      }
    }
  }
  const kept: T[] = [];
  for (let at = 0; at < many.length; at += 1) if (!drop.has(at)) kept.push(many[at]!);
  return kept;
}

/** Merges two sorted lists that share no row of equal order (two languages' rows never tie: their paths differ). */
function mergeDisjoint<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): T[] {
  return a.length >= b.length ? mergeFew(a, b, compare) : mergeFew(b, a, compare);
}

/** Merges the canonical graphs of several languages into one canonical graph. */
export function mergeGraphs(graphs: readonly ProgramGraphData[]): ProgramGraphData {
  if (graphs.length === 0) return emptyGraph();
  return graphs.reduce((a, b) => ({
    files: mergeDisjoint(a.files, b.files, compareFiles),
    units: mergeDisjoint(a.units, b.units, compareUnits),
    edges: mergeDisjoint(a.edges, b.edges, compareEdges),
    slots: mergeDisjoint(a.slots, b.slots, compareSlots),
    unresolved: mergeDisjoint(a.unresolved, b.unresolved, compareUnresolved),
  }));
}
