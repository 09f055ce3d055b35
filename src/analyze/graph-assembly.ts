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
    // In canonical order, kept so: the next assembly takes these out of the edges without a sort.
    const sortedHeritage = [...heritage].sort(compareEdges);
    const slotLists = new Map<string, readonly Slot[]>();
    for (const [path, file] of files) slotLists.set(path, slotsOf(file));
    let rows: Map<string, FileRows>;
    let graph: ProgramGraphData;
    if (!previous || changed === 'all') {
      rows = new Map([...files].map(([path, file]) => [path, rowsOf(file)]));
      graph = canonicalize(withRows({ files: [], units: [], edges: [...sortedHeritage], slots: slotsFrom(slotLists), unresolved: [] }, rows.values()));
    } else {
      rows = new Map(previous.rows);
      const gone = withRows(emptyGraph(), [...changed].flatMap((path) => previous.rows.get(path) ?? []));
      const now: FileRows[] = [];
      for (const path of changed) {
        const file = files.get(path);
        if (file === undefined) rows.delete(path);
        else {
          // Kept in canonical order: when the file changes again, its rows come out of the lists without a sort.
          const row = sortedRows(rowsOf(file));
          rows.set(path, row);
          now.push(row);
        }
      }
      // Each file's lists are sorted already and two files' rows never tie (a row starts in its file), nor do heritage
      // edges with a file's (their kinds differ): merged, not sorted again.
      const fresh: ProgramGraphData = {
        files: now.map((row) => row.record).sort(compareFiles),
        units: now.reduce<readonly Unit[]>((all, row) => mergeDisjoint(all, row.units, compareUnits), []) as Unit[],
        edges: now.reduce<readonly Edge[]>((all, row) => mergeDisjoint(all, row.edges, compareEdges), sortedHeritage) as Edge[],
        slots: [],
        unresolved: now.reduce<readonly UnresolvedCall[]>((all, row) => mergeDisjoint(all, row.unresolved, compareUnresolved), []) as UnresolvedCall[],
      };
      // Slots are kept whole unless some file names other slots than it did: a body edit seldom makes one. Not only
      // changed files: a session may refresh the records an unchanged file holds of a slot declared in a changed one.
      const slotsKept = previous.slotsOf.size === slotLists.size && [...slotLists].every(([path, list]) => sameSlots(previous.slotsOf.get(path), list));
      graph = {
        files: mergeFew(withoutFew(previous.graph.files, gone.files, compareFiles), fresh.files, compareFiles),
        units: mergeFew(withoutFew(previous.graph.units, gone.units, compareUnits), fresh.units, compareUnits),
        edges: mergeFew(withoutFew(previous.graph.edges, mergeFew(gone.edges, previous.heritage, compareEdges), compareEdges), fresh.edges, compareEdges),
        slots: slotsKept ? previous.graph.slots : slotsFrom(slotLists),
        unresolved: mergeFew(withoutFew(previous.graph.unresolved, gone.unresolved, compareUnresolved), fresh.unresolved, compareUnresolved),
      };
    }
    this.assembled = { graph, rows, slotsOf: slotLists, heritage: sortedHeritage };
    this.changed = new Set();
    return graph;
  }
}

/** A file's rows, each list in canonical order (copies: the session's own lists stay as they are). */
function sortedRows(row: FileRows): FileRows {
  return {
    record: row.record,
    units: [...row.units].sort(compareUnits),
    edges: [...row.edges].sort(compareEdges),
    unresolved: [...row.unresolved].sort(compareUnresolved),
  };
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

/**
 * The first index at or after `from` whose row sorts after `row` (or the length): a search that
 * gallops from `from` (1, 2, 4, ... rows on) before it halves. A file's rows land side by side, so
 * most searches end within a step or two of the last, where a plain binary search would pay log n
 * comparisons for each of a large file's thousands of rows.
 */
function firstAfter<T>(many: readonly T[], row: T, from: number, compare: (a: T, b: T) => number, orEqual: boolean): number {
  const before = (other: T): boolean => (orEqual ? compare(other, row) < 0 : compare(other, row) <= 0);
  let low = from;
  let step = 1;
  // Every row in [from, low) sorts before `row` (or with it); the probe is `step` rows past low.
  while (low + step - 1 < many.length && before(many[low + step - 1]!)) {
    low += step;
    step *= 2;
  }
  let high = Math.min(many.length, low + step - 1);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(many[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Merges a few sorted rows into many sorted ones (a row equal to some of many goes after them). */
export function mergeFew<T>(many: readonly T[], few: readonly T[], compare: (a: T, b: T) => number): T[] {
  const merged: T[] = [];
  let from = 0;
  for (const row of few) {
    const at = firstAfter(many, row, from, compare, false);
    for (let index = from; index < at; index += 1) merged.push(many[index]!);
    merged.push(row);
    from = at;
  }
  for (let index = from; index < many.length; index += 1) merged.push(many[index]!);
  return merged;
}

/**
 * A sorted list without some of its rows (the very objects): the rows taken out are put in order
 * when they are not (a file's rows come in canonical order once it has changed, but in the order
 * it declared them from a cold analysis), then each is found by a search
 * that gallops on from the last, and rows of equal order are told apart by identity.
 */
export function withoutFew<T>(many: readonly T[], few: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (few.length === 0) return [...many];
  let ordered = few;
  for (let index = 1; index < few.length; index += 1) {
    if (compare(few[index - 1]!, few[index]!) > 0) {
      ordered = [...few].sort(compare);
      break;
    }
  }
  const drop = new Set<T>(few);
  const kept: T[] = [];
  let from = 0;
  // Whether rows of equal order wait for their run to be read: until then none is taken out by identity alone.
  let pending = false;
  for (let index = 0; index < ordered.length; index += 1) {
    const row = ordered[index]!;
    const next = ordered[index + 1];
    // A file's rows stand side by side: most rows taken out are the very next row, known without a comparison.
    if (!pending && many[from] === row) {
      from += 1;
      continue;
    }
    // Rows equal in order to the last one taken out start where it stood: search from there, not past it.
    const start = firstAfter(many, row, from, compare, true);
    for (let at = from; at < start; at += 1) kept.push(many[at]!);
    from = start;
    // The run of rows equal to this one: keep those not taken out, up to the next row in the list that sorts after it.
    if (next !== undefined && compare(next, row) === 0) {
      pending = true;
      continue;
    }
    pending = false;
    while (from < many.length && compare(many[from]!, row) === 0) {
      if (!drop.has(many[from]!)) kept.push(many[from]!);
      from += 1;
    }
  }
  for (let at = from; at < many.length; at += 1) kept.push(many[at]!);
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
