import { describe, expect, it } from 'vitest';
import type { Edge, ProgramGraphData, Slot, Unit } from '../../src/graph/model.js';
import { canonicalize } from '../../src/graph/order.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
import { buildRegisterState, updateRegisterState } from '../../src/organize/state-register.js';

// Small graphs over three files: a.py and b.py touch slots of c.py and of each other. Each case
// changes one file's rows and compares the updated register with one built from scratch.

const unit = (file: string, symbol: string): Unit => ({
  id: `${file}#${symbol}`, kind: 'function', file, symbol, startLine: 1, endLine: 2, signature: symbol, doc: '', exported: true, hash: symbol, literals: '', words: '',
});
const slot = (file: string, name: string, line = 3): Slot => ({ id: `${file}#State.${name}`, kind: 'field', file, owner: 'State', name, line, type: 'int' });
const access = (kind: 'reads' | 'writes', from: Unit, to: Slot, line = 1): Edge => ({ kind, from: from.id, to: to.id, lines: [line] });

const a1 = unit('a.py', 'load');
const a2 = unit('a.py', 'save');
const b1 = unit('b.py', 'run');
const b2 = unit('b.py', 'stop');
const c1 = unit('c.py', 'State.reset');
const count = slot('c.py', 'count');
const name = slot('c.py', 'name');
const mode = slot('a.py', 'mode');

function graphOf(units: Unit[], slots: Slot[], edges: Edge[]): ProgramGraph {
  const files = [...new Set(units.map((each) => each.file))].map((path) => ({ path, size: 1, hash: path, lines: 9, test: false, parseErrors: 0, externalImports: [] }));
  const data: ProgramGraphData = { files, units: [...units], edges: [...edges], slots: [...slots], unresolved: [] };
  return new ProgramGraph(canonicalize(data));
}

const stageOf = new Map([[a1.id, 'load'], [a2.id, 'store'], [b1.id, 'run'], [b2.id, 'run'], [c1.id, 'store']]);
const order = new Map([['load', 0], ['run', 1], ['store', 2]]);
const units = [a1, a2, b1, b2, c1];
const slots = [count, name, mode];
const before = [
  access('writes', a1, count), access('reads', b1, count), access('reads', b2, count),
  access('writes', c1, name), access('reads', a2, name),
  access('writes', a1, mode),
];

/** The update's register beside a cold one, after `after` replaces file `changed`'s rows. */
function both(changed: string, after: { units?: Unit[]; slots?: Slot[]; edges: Edge[] }) {
  const old = graphOf(units, slots, before);
  const state = buildRegisterState(old, stageOf, order);
  const nowUnits = after.units ?? units;
  const nowEdges = [...before.filter((edge) => !edge.from.startsWith(`${changed}#`)), ...after.edges];
  const now = graphOf(nowUnits, after.slots ?? slots, nowEdges);
  const changedEdges = now.edges.filter((edge) => edge.from.startsWith(`${changed}#`));
  const updated = updateRegisterState(state, now, { files: new Set([changed]), edges: changedEdges }, stageOf, order);
  return { updated: updated.entries, cold: buildRegisterState(now, stageOf, order).entries, before: state.entries };
}

describe('the state register updated after a change', () => {
  it('is built from scratch as one entry per slot two units touch', () => {
    const entries = buildRegisterState(graphOf(units, slots, before), stageOf, order).entries;
    expect(entries.map((entry) => entry.slot)).toEqual([count.id, name.id]);
    expect(entries[0]).toMatchObject({ writers: [{ unit: a1.id }], readers: [{ unit: b1.id }, { unit: b2.id }], stages: ['load', 'run'] });
  });

  it('drops a slot whose second accessor stopped touching it', () => {
    // b.py no longer reads count: b's old accesses must be found through the files they came from.
    const { updated, cold, before: old } = both('b.py', { edges: [] });
    expect(old.map((entry) => entry.slot)).toContain(count.id);
    expect(updated).toEqual(cold);
    expect(cold.map((entry) => entry.slot)).toEqual([name.id]);
  });

  it('adds a slot a changed file now shares, and keeps entries it did not touch as the same objects', () => {
    const { updated, cold, before: old } = both('b.py', { edges: [access('reads', b1, count), access('reads', b2, count), access('reads', b1, mode, 4)] });
    expect(updated).toEqual(cold);
    expect(cold.map((entry) => entry.slot)).toEqual([mode.id, count.id, name.id]);
    expect(updated.find((entry) => entry.slot === name.id)).toBe(old.find((entry) => entry.slot === name.id));
  });

  it('follows a slot whose declaration moved in the changed file, though no unit of it touches the slot', () => {
    const moved = slot('c.py', 'count', 7);
    const { updated, cold } = both('c.py', { slots: [moved, name, mode], edges: [access('writes', c1, name)] });
    expect(updated).toEqual(cold);
    expect(updated.find((entry) => entry.slot === count.id)?.line).toBe(7);
  });

  it('forgets a unit removed with its file', () => {
    const { updated, cold } = both('a.py', { units: [b1, b2, c1], slots: [count, name], edges: [] });
    expect(updated).toEqual(cold);
    expect(cold.map((entry) => entry.slot)).toEqual([count.id]);
  });

  it('takes in the new lines of a changed file', () => {
    const { updated, cold } = both('a.py', { edges: [access('writes', a1, count, 9), access('reads', a2, name, 5), access('writes', a1, mode)] });
    expect(updated).toEqual(cold);
    expect(updated[0]!.writers).toEqual([{ unit: a1.id, lines: [9] }]);
  });
});
