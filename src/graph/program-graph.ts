import graphology from 'graphology';
import type { MultiDirectedGraph as MultiDirectedGraphType } from 'graphology';
import { HandbookError } from '../errors.js';
import { quoted } from '../text/quoted.js';
import { closeNames } from './close-names.js';
import { STATIC_SLOT_PREFIX, type Edge, type EdgeKind, type ProgramGraphData, type Slot, type Unit, type UnresolvedCall } from './model.js';

const { MultiDirectedGraph } = graphology;

type NodeAttributes = { unit?: Unit; slot?: Slot };
type EdgeAttributes = { kind: EdgeKind; lines: number[]; via?: Edge['via'] };

export interface Neighbour {
  unit: Unit;
  /** Lines in the calling or referencing unit where the relation occurs. */
  lines: number[];
  via?: Edge['via'];
}

export interface StateAccess {
  unit: Unit;
  lines: number[];
}

/**
 * The program graph behind a small query API. Units and state slots are nodes; every relation
 * is a typed edge. Lookups come in pairs: `getX()` answers undefined, `getXOrThrow()` throws a
 * HandbookError that says what to do.
 */
export class ProgramGraph {
  private readonly data: ProgramGraphData;
  private readonly unitsById = new Map<string, Unit>();
  private readonly slotsById = new Map<string, Slot>();
  /** Built on first use: a sync builds a graph to place units in stages and never looks units up by file or name. */
  private byFile: Map<string, Unit[]> | undefined;
  private bySymbol: Map<string, Unit[]> | undefined;
  private readonly byKind = new Map<EdgeKind, Edge[]>();
  private readonly byKinds = new Map<string, readonly Edge[]>();
  private code: readonly Unit[] | undefined;
  /**
   * Adjacency, built on first use: all relations (for `outEdges`, `inEdges`, `neighbourhood`),
   * and one kind at a time for the single-kind queries (callers, writers, ...), so a sync that
   * only asks for writers and readers never indexes the calls.
   */
  private adjacency: { outgoing: Map<string, Edge[]>; incoming: Map<string, Edge[]> } | undefined;
  private readonly adjacencyByKind = new Map<EdgeKind, { outgoing: Map<string, Edge[]>; incoming: Map<string, Edge[]> }>();
  private graphology: MultiDirectedGraphType<NodeAttributes, EdgeAttributes> | undefined;

  constructor(data: ProgramGraphData) {
    this.data = data;
    for (const unit of data.units) this.unitsById.set(unit.id, unit);
    for (const slot of data.slots) this.slotsById.set(slot.id, slot);
    for (const edge of data.edges) {
      const ofKind = this.byKind.get(edge.kind);
      if (ofKind) ofKind.push(edge);
      else this.byKind.set(edge.kind, [edge]);
    }
  }

  /** Out- and in-lists of edges whose ends are both in the graph, in the order given. */
  private index(edges: Iterable<Edge>): { outgoing: Map<string, Edge[]>; incoming: Map<string, Edge[]> } {
    const outgoing = new Map<string, Edge[]>();
    const incoming = new Map<string, Edge[]>();
    const units = this.unitsById;
    const slots = this.slotsById;
    for (const edge of edges) {
      if ((!units.has(edge.from) && !slots.has(edge.from)) || (!units.has(edge.to) && !slots.has(edge.to))) continue;
      const out = outgoing.get(edge.from);
      if (out) out.push(edge);
      else outgoing.set(edge.from, [edge]);
      const into = incoming.get(edge.to);
      if (into) into.push(edge);
      else incoming.set(edge.to, [edge]);
    }
    return { outgoing, incoming };
  }

  private get outgoing(): Map<string, Edge[]> {
    this.adjacency ??= this.index(this.data.edges);
    return this.adjacency.outgoing;
  }

  private get incoming(): Map<string, Edge[]> {
    this.adjacency ??= this.index(this.data.edges);
    return this.adjacency.incoming;
  }

  private adjacencyOf(kind: EdgeKind): { outgoing: Map<string, Edge[]>; incoming: Map<string, Edge[]> } {
    let adjacency = this.adjacencyByKind.get(kind);
    if (!adjacency) this.adjacencyByKind.set(kind, (adjacency = this.index(this.byKind.get(kind) ?? [])));
    return adjacency;
  }

  /**
   * The same graph as a graphology MultiDirectedGraph, for its algorithms and for callers that
   * want one; built on first use, since the queries below answer from plain adjacency lists.
   */
  get graph(): MultiDirectedGraphType<NodeAttributes, EdgeAttributes> {
    if (!this.graphology) {
      const graph = new MultiDirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: true });
      for (const unit of this.data.units) graph.addNode(unit.id, { unit });
      for (const slot of this.data.slots) {
        if (graph.hasNode(slot.id)) graph.mergeNodeAttributes(slot.id, { slot });
        else graph.addNode(slot.id, { slot });
      }
      for (const edges of this.outgoing.values()) {
        for (const edge of edges) {
          const attributes: EdgeAttributes = { kind: edge.kind, lines: edge.lines };
          if (edge.via) attributes.via = edge.via;
          graph.addEdge(edge.from, edge.to, attributes);
        }
      }
      this.graphology = graph;
    }
    return this.graphology;
  }

  /** Edges leaving a unit (calls, references, reads, writes, ...), optionally of one kind. */
  outEdges(id: string, kind?: EdgeKind): readonly Edge[] {
    if (kind) return this.adjacencyOf(kind).outgoing.get(id) ?? [];
    return this.outgoing.get(id) ?? [];
  }

  /** Edges arriving at a unit or slot, optionally of one kind. */
  inEdges(id: string, kind?: EdgeKind): readonly Edge[] {
    if (kind) return this.adjacencyOf(kind).incoming.get(id) ?? [];
    return this.incoming.get(id) ?? [];
  }

  get units(): readonly Unit[] {
    return this.data.units;
  }

  get slots(): readonly Slot[] {
    return this.data.slots;
  }

  get edges(): readonly Edge[] {
    return this.data.edges;
  }

  /** The edges of some kinds, in the order of `edges`: a pass over a few kinds need not read the rest. */
  edgesOfKinds(kinds: Iterable<EdgeKind>): readonly Edge[] {
    const distinct = [...new Set(kinds)];
    // One kind is its own list, not a copy: a sync asks for the writes and the reads this way.
    if (distinct.length === 1) return this.byKind.get(distinct[0]!) ?? [];
    // `edges` is ordered by kind first, so the kinds in text order keep that order. Joined once per
    // set of kinds: organizing asks for the same few sets, and each is tens of thousands of edges.
    const key = distinct.sort().join(' ');
    let joined = this.byKinds.get(key);
    if (!joined) this.byKinds.set(key, (joined = ([] as Edge[]).concat(...distinct.map((kind) => this.byKind.get(kind) ?? []))));
    return joined;
  }

  /** How many edges of each kind, all edges counted (a pass over every edge costs a sync more than this lookup). */
  edgeCount(kind: EdgeKind): number {
    return this.byKind.get(kind)?.length ?? 0;
  }

  get unresolved(): readonly UnresolvedCall[] {
    return this.data.unresolved;
  }

  toData(): ProgramGraphData {
    return this.data;
  }

  getUnit(id: string): Unit | undefined {
    return this.unitsById.get(id);
  }

  /** Accepts a unit id, or a symbol (`Class.method`, `name`) that names exactly one unit. */
  findUnit(reference: string): Unit[] {
    const exact = this.getUnit(reference);
    if (exact) return [exact];
    if (!this.bySymbol) {
      this.bySymbol = new Map();
      for (const unit of this.data.units) {
        for (const name of symbolKeys(unit)) {
          const named = this.bySymbol.get(name);
          if (named) named.push(unit);
          else this.bySymbol.set(name, [unit]);
        }
      }
    }
    return [...(this.bySymbol.get(reference) ?? [])];
  }

  getUnitOrThrow(reference: string): Unit {
    const found = this.findUnit(reference);
    if (found.length === 1) return found[0]!;
    if (found.length === 0) {
      // A slot's id passed where a unit is asked for (`graph show X` after `register`): say which command takes it.
      if (this.slotsNamed(reference).length > 0) throw new HandbookError('UNIT_NOT_FOUND', `${quoted(reference)} is a state slot, not a unit`, 'its writers and readers are under `graph state` and in the register');
      const named = function* (units: readonly Unit[]): Generator<readonly [string, string]> {
        for (const unit of units) {
          for (const key of symbolKeys(unit)) yield [key, unit.id];
          if (/[#/]/.test(reference)) yield [unit.id, unit.id];
        }
      };
      throw new HandbookError('UNIT_NOT_FOUND', `no unit named ${quoted(reference)}`, `${didYouMean(closeNames(reference, named(this.data.units)))}pass a unit id (path/to/file.ts#Class.method) or a symbol name; ask finds units by what they do`);
    }
    const choices = found.slice(0, 5).map((unit) => unit.id).join(', ');
    throw new HandbookError('UNIT_AMBIGUOUS', `${quoted(reference)} names ${found.length} units: ${choices}${found.length > 5 ? ', …' : ''}`, 'pass the full unit id');
  }

  getSlot(id: string): Slot | undefined {
    return this.slotsById.get(id);
  }

  /** The slots a reference names: its id, or every slot whose `Owner.name` / `name` tail it is, a static one's too. */
  private slotsNamed(reference: string): Slot[] {
    const exact = this.getSlot(reference);
    if (exact) return [exact];
    return this.data.slots.filter((slot) => slot.id.endsWith(`#${reference}`) || slot.id.endsWith(`.${reference}`) || slot.id.endsWith(`#${STATIC_SLOT_PREFIX}${reference}`));
  }

  /** Accepts a slot id or its `Owner.name` / `name` tail when that is unique. */
  getSlotOrThrow(reference: string): Slot {
    const exact = this.getSlot(reference);
    if (exact) return exact;
    const matches = this.slotsNamed(reference);
    if (matches.length === 1) return matches[0]!;
    if (matches.length === 0) {
      if (this.findUnit(reference).length > 0) throw new HandbookError('SLOT_NOT_FOUND', `${quoted(reference)} is a unit, not a state slot`, 'graph show, callers and callees take units; pass a slot id (path/to/file.ts#Owner.field) or Owner.field here');
      const named = function* (slots: readonly Slot[]): Generator<readonly [string, string]> {
        for (const slot of slots) {
          const tail = slot.id.slice(slot.id.indexOf('#') + 1);
          yield [tail, slot.id];
          yield [tail.slice(tail.lastIndexOf('.') + 1), slot.id];
          if (/[#/]/.test(reference)) yield [slot.id, slot.id];
        }
      };
      throw new HandbookError('SLOT_NOT_FOUND', `no state slot named ${quoted(reference)}`, `${didYouMean(closeNames(reference, named(this.data.slots)))}pass a slot id (path/to/file.ts#Owner.field) or Owner.field`);
    }
    const choices = matches.slice(0, 5).map((slot) => slot.id).join(', ');
    throw new HandbookError('UNIT_AMBIGUOUS', `${quoted(reference)} names ${matches.length} state slots: ${choices}${matches.length > 5 ? ', …' : ''}`, 'pass the full slot id');
  }

  /** Declarations of non-test files: what stages place and ask searches (a file is a coarser view of its units). */
  codeUnits(): readonly Unit[] {
    // Taken once: a sync asks for them in storing, staging and organizing.
    if (!this.code) {
      const tests = new Set(this.data.files.filter((file) => file.test).map((file) => file.path));
      this.code = this.data.units.filter((unit) => unit.kind !== 'file' && !tests.has(unit.file));
    }
    return this.code;
  }

  unitsOfFile(file: string): Unit[] {
    if (!this.byFile) {
      this.byFile = new Map();
      for (const unit of this.data.units) {
        const inFile = this.byFile.get(unit.file);
        if (inFile) inFile.push(unit);
        else this.byFile.set(unit.file, [unit]);
      }
    }
    return [...(this.byFile.get(file) ?? [])];
  }

  callers(id: string): Neighbour[] {
    return this.related(id, 'in', 'calls');
  }

  callees(id: string): Neighbour[] {
    return this.related(id, 'out', 'calls');
  }

  /** Units that pass this unit by reference (callbacks, registered handlers). */
  referrers(id: string): Neighbour[] {
    return this.related(id, 'in', 'references');
  }

  writers(slotId: string): StateAccess[] {
    return this.related(slotId, 'in', 'writes');
  }

  readers(slotId: string): StateAccess[] {
    return this.related(slotId, 'in', 'reads');
  }

  /** Units within `hops` steps along any relation but containment, nearest first, then by id. */
  neighbourhood(id: string, hops: number, kinds: readonly EdgeKind[] = ['calls', 'references', 'instantiates', 'extends', 'implements', 'reads', 'writes', 'imports']): Array<{ id: string; distance: number }> {
    if (!this.unitsById.has(id) && !this.slotsById.has(id)) return [];
    const allowed = new Set(kinds);
    const distance = new Map<string, number>([[id, 0]]);
    let frontier = [id];
    for (let step = 1; step <= hops && frontier.length > 0; step += 1) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const edge of [...(this.outgoing.get(node) ?? []), ...(this.incoming.get(node) ?? [])]) {
          if (!allowed.has(edge.kind)) continue;
          const other = edge.from === node ? edge.to : edge.from;
          if (distance.has(other)) continue;
          distance.set(other, step);
          next.push(other);
        }
      }
      frontier = next;
    }
    distance.delete(id);
    return [...distance].map(([node, steps]) => ({ id: node, distance: steps })).sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1));
  }

  private related(id: string, direction: 'in' | 'out', kind: EdgeKind): Neighbour[] {
    const adjacency = this.adjacencyOf(kind);
    const edges = (direction === 'in' ? adjacency.incoming : adjacency.outgoing).get(id) ?? [];
    const found: Neighbour[] = [];
    for (const edge of edges) {
      const unit = this.unitsById.get(direction === 'in' ? edge.from : edge.to);
      if (!unit) continue;
      const neighbour: Neighbour = { unit, lines: edge.lines };
      if (edge.via) neighbour.via = edge.via;
      found.push(neighbour);
    }
    return found.sort((a, b) => (a.unit.id < b.unit.id ? -1 : a.unit.id > b.unit.id ? 1 : 0));
  }

}

/** A unit can be named by its full symbol path or by its last segment. */
/** The opening of a hint that offers close names, or nothing when there are none. */
function didYouMean(ids: readonly string[]): string {
  return ids.length === 0 ? '' : `did you mean ${ids.join(', ')}? `;
}

function symbolKeys(unit: Unit): string[] {
  if (!unit.symbol) return [];
  const keys = new Set([unit.symbol]);
  // `Class.id~2` (a setter beside its getter) is also found as `Class.id` and `id`.
  const symbol = unit.symbol.replace(/~\d+$/, '');
  keys.add(symbol);
  keys.add(symbol.slice(symbol.lastIndexOf('.') + 1));
  return [...keys];
}
