import { type Edge, EDGE_KINDS, type ProgramGraphData, type Unit, UNIT_KINDS } from '../graph/model.js';
import type { OrganizedHandbook, Stage } from '../organize/model.js';
import type { PackedSearchIndex } from '../route/search-index.js';

/**
 * What the routing snapshot holds, laid out as flat arrays and tables. V8 reads typed arrays back
 * as they were written, but each of tens of thousands of small objects (edges with their lines,
 * units, stage members) and each copy of a unit's id costs it time and leaves garbage; reading
 * the file costs about 3 ms a megabyte here. Units, slots and stage members are referred to by
 * position: units first, then slots.
 */
export interface PackedHandbook {
  files: ProgramGraphData['files'];
  slots: ProgramGraphData['slots'];
  units: PackedUnits;
  edges: PackedEdges;
  organized: Omit<OrganizedHandbook, 'stages'> & { stages: PackedStage[] };
  index: Omit<PackedSearchIndex, 'unitIds' | 'postingWeight'> & {
    /** The index's documents, as positions of units. */
    documents: Int32Array;
    /** Weights in hundredths: the build rounds every weight to two decimals. */
    postingHundredths: Uint16Array;
  };
}

/** Units column by column; a unit's id is its file's path, and `#symbol` for any unit but a file. */
interface PackedUnits {
  paths: string[];
  /** Index into `paths`. */
  file: Int32Array;
  /** Index into UNIT_KINDS. */
  kind: Uint8Array;
  symbol: string[];
  startLine: Int32Array;
  endLine: Int32Array;
  signature: string[];
  doc: string[];
  exported: Uint8Array;
  hash: string[];
  literals: string[];
  words: string[];
  /** Position of the parent unit, -1 for none. */
  parent: Int32Array;
}

interface PackedEdges {
  /** Position of the unit or slot an edge starts at, or -(k + 1) for the k-th of `strayEnds`. */
  from: Int32Array;
  to: Int32Array;
  /** Ends that are neither a unit nor a slot of the graph, kept so the graph reads back as it was. */
  strayEnds: string[];
  /** Index into EDGE_KINDS. */
  kind: Uint8Array;
  /** Index into VIAS. */
  via: Uint8Array;
  /** Per edge, where its lines start in `lines` (one more entry than edges). */
  lineStart: Int32Array;
  lines: Int32Array;
}

type PackedStage = Omit<Stage, 'members'> & { members: { unit: Int32Array; score: Float64Array; primary: Uint8Array } };

const VIAS = [undefined, 'direct', 'dispatch'] as const;
const MAX_HUNDREDTHS = 0xffff;

/** A handbook whose contents do not fit this layout (a unit id not made of its path and symbol, a weight finer than hundredths) throws: it is not snapshotted. */
export function packHandbook(graph: ProgramGraphData, organized: OrganizedHandbook, index: PackedSearchIndex): PackedHandbook {
  const positions = new Map<string, number>();
  graph.units.forEach((unit, position) => positions.set(unit.id, position));
  graph.slots.forEach((slot, at) => {
    if (!positions.has(slot.id)) positions.set(slot.id, graph.units.length + at);
  });
  const positionOf = (id: string): number => {
    const position = positions.get(id);
    if (position === undefined) throw new Error(`no unit or slot ${id}`);
    return position;
  };
  const stages = organized.stages.map(({ members, ...stage }) => ({
    ...stage,
    members: {
      unit: Int32Array.from(members, (member) => positionOf(member.unit)),
      score: Float64Array.from(members, (member) => member.score),
      primary: Uint8Array.from(members, (member) => (member.primary ? 1 : 0)),
    },
  }));
  const { unitIds, postingWeight, ...rest } = index;
  const postingHundredths = Uint16Array.from(postingWeight, (weight) => {
    const hundredths = Math.round(weight * 100);
    if (hundredths / 100 !== weight || hundredths < 0 || hundredths > MAX_HUNDREDTHS) throw new Error(`a search weight of ${weight}`);
    return hundredths;
  });
  return {
    files: graph.files,
    slots: graph.slots,
    units: packUnits(graph.units, positions),
    edges: packEdges(graph.edges, positions),
    organized: { ...organized, stages },
    index: { ...rest, documents: Int32Array.from(unitIds, positionOf), postingHundredths },
  };
}

export function unpackHandbook(packed: PackedHandbook): { graph: ProgramGraphData; organized: OrganizedHandbook; index: PackedSearchIndex; documents: Unit[] } {
  const units = unpackUnits(packed.units);
  const ends = units.map((unit) => unit.id);
  for (const slot of packed.slots) ends.push(slot.id);
  const unitAt = (position: number): Unit => {
    const unit = units[position];
    if (!unit) throw new Error(`no unit at ${position}`);
    return unit;
  };
  // Plain loops: TypedArray.from and Array.from with a mapping function cost several times more here.
  const stages: Stage[] = packed.organized.stages.map(({ members, ...stage }) => {
    const unpacked: Stage['members'] = new Array(members.unit.length);
    for (let at = 0; at < unpacked.length; at += 1) unpacked[at] = { unit: unitAt(members.unit[at]!).id, score: members.score[at]!, primary: members.primary[at] === 1 };
    return { ...stage, members: unpacked };
  });
  const { documents: positions, postingHundredths, ...rest } = packed.index;
  const documents: Unit[] = new Array(positions.length);
  const unitIds: string[] = new Array(positions.length);
  for (let at = 0; at < positions.length; at += 1) {
    documents[at] = unitAt(positions[at]!);
    unitIds[at] = documents[at]!.id;
  }
  const postingWeight = new Float64Array(postingHundredths.length);
  for (let at = 0; at < postingWeight.length; at += 1) postingWeight[at] = postingHundredths[at]! / 100;
  const index: PackedSearchIndex = { ...rest, unitIds, postingWeight };
  return {
    graph: { files: packed.files, units, edges: unpackEdges(packed.edges, ends), slots: packed.slots, unresolved: [] },
    organized: { ...packed.organized, stages },
    index,
    documents,
  };
}

function idOf(path: string, kind: Unit['kind'], symbol: string): string {
  return kind === 'file' ? path : `${path}#${symbol}`;
}

function packUnits(units: readonly Unit[], positions: ReadonlyMap<string, number>): PackedUnits {
  const pathIds = new Map<string, number>();
  const packed: PackedUnits = {
    paths: [],
    file: new Int32Array(units.length),
    kind: new Uint8Array(units.length),
    symbol: [],
    startLine: new Int32Array(units.length),
    endLine: new Int32Array(units.length),
    signature: [],
    doc: [],
    exported: new Uint8Array(units.length),
    hash: [],
    literals: [],
    words: [],
    parent: new Int32Array(units.length),
  };
  units.forEach((unit, at) => {
    if (idOf(unit.file, unit.kind, unit.symbol) !== unit.id) throw new Error(`unit ${unit.id} is not named by its path and symbol`);
    let path = pathIds.get(unit.file);
    if (path === undefined) {
      pathIds.set(unit.file, (path = pathIds.size));
      packed.paths.push(unit.file);
    }
    packed.file[at] = path;
    packed.kind[at] = UNIT_KINDS.indexOf(unit.kind);
    packed.symbol.push(unit.symbol);
    packed.startLine[at] = unit.startLine;
    packed.endLine[at] = unit.endLine;
    packed.signature.push(unit.signature);
    packed.doc.push(unit.doc);
    packed.exported[at] = unit.exported ? 1 : 0;
    packed.hash.push(unit.hash);
    packed.literals.push(unit.literals);
    packed.words.push(unit.words);
    const parent = unit.parent === undefined ? -1 : positions.get(unit.parent);
    if (parent === undefined || parent >= units.length) throw new Error(`unit ${unit.id} has a parent that is not a unit`);
    packed.parent[at] = parent;
  });
  return packed;
}

function unpackUnits(packed: PackedUnits): Unit[] {
  const units: Unit[] = new Array(packed.file.length);
  for (let at = 0; at < units.length; at += 1) {
    const path = packed.paths[packed.file[at]!];
    const kind = UNIT_KINDS[packed.kind[at]!];
    const symbol = packed.symbol[at];
    if (path === undefined || kind === undefined || symbol === undefined) throw new Error(`the snapshot's unit ${at} cannot be read`);
    const unit: Unit = {
      id: idOf(path, kind, symbol),
      kind,
      file: path,
      symbol,
      startLine: packed.startLine[at]!,
      endLine: packed.endLine[at]!,
      signature: packed.signature[at]!,
      doc: packed.doc[at]!,
      exported: packed.exported[at] === 1,
      hash: packed.hash[at]!,
      literals: packed.literals[at]!,
      words: packed.words[at]!,
    };
    units[at] = unit;
  }
  // Parents are named once every unit is.
  for (let at = 0; at < units.length; at += 1) {
    const parent = packed.parent[at]!;
    if (parent >= 0) units[at]!.parent = units[parent]!.id;
  }
  return units;
}

function packEdges(edges: readonly Edge[], positions: ReadonlyMap<string, number>): PackedEdges {
  const strays = new Map<string, number>();
  const endOf = (id: string): number => {
    const position = positions.get(id);
    if (position !== undefined) return position;
    let stray = strays.get(id);
    if (stray === undefined) strays.set(id, (stray = strays.size));
    return -(stray + 1);
  };
  const lineStart = new Int32Array(edges.length + 1);
  const lines: number[] = [];
  const packed = { from: new Int32Array(edges.length), to: new Int32Array(edges.length), kind: new Uint8Array(edges.length), via: new Uint8Array(edges.length) };
  edges.forEach((edge, at) => {
    packed.from[at] = endOf(edge.from);
    packed.to[at] = endOf(edge.to);
    packed.kind[at] = EDGE_KINDS.indexOf(edge.kind);
    packed.via[at] = VIAS.indexOf(edge.via);
    for (const line of edge.lines) lines.push(line);
    lineStart[at + 1] = lines.length;
  });
  return { ...packed, strayEnds: [...strays.keys()], lineStart, lines: Int32Array.from(lines) };
}

function unpackEdges(packed: PackedEdges, ends: readonly string[]): Edge[] {
  const endAt = (position: number): string | undefined => (position >= 0 ? ends[position] : packed.strayEnds[-position - 1]);
  const edges: Edge[] = new Array(packed.from.length);
  for (let at = 0; at < edges.length; at += 1) {
    const lines: number[] = [];
    for (let line = packed.lineStart[at]!; line < packed.lineStart[at + 1]!; line += 1) lines.push(packed.lines[line]!);
    const kind = EDGE_KINDS[packed.kind[at]!];
    const from = endAt(packed.from[at]!);
    const to = endAt(packed.to[at]!);
    if (kind === undefined || from === undefined || to === undefined) throw new Error(`the snapshot's edge ${at} cannot be read`);
    const via = VIAS[packed.via[at]!];
    edges[at] = via ? { kind, from, to, lines, via } : { kind, from, to, lines };
  }
  return edges;
}
