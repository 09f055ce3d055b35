import { describe, expect, it } from 'vitest';
import { createUnitIndex, type UnitIndex } from '../../src/analyze/typescript/collect-units.js';
import { MergedUnitIndex } from '../../src/analyze/typescript/merged-index.js';
import type { Unit } from '../../src/graph/model.js';

function unit(id: string): Unit {
  const [file, symbol = ''] = id.split('#');
  return { id, kind: symbol ? 'function' : 'file', file: file!, symbol, startLine: 1, endLine: 1, signature: '', doc: '', exported: false, hash: id, literals: '', words: '' };
}

function indexOf(ids: string[], names: { declared?: string[]; members?: string[]; state?: string[] } = {}): UnitIndex {
  const index = createUnitIndex();
  for (const id of ids) index.units.set(id, unit(id));
  for (const name of names.declared ?? []) index.declaredNames.add(name);
  for (const name of names.members ?? []) index.memberNames.add(name);
  for (const id of names.state ?? []) index.stateVariables.add(id);
  return index;
}

describe('the merged unit index', () => {
  it('equals a merge of the files it was last given, whatever it held before', () => {
    const merged = new MergedUnitIndex();
    const a = indexOf(['a.ts', 'a.ts#run'], { declared: ['run', 'shared'], members: ['send'], state: ['a.ts#run'] });
    const b = indexOf(['b.ts', 'b.ts#walk'], { declared: ['walk', 'shared'], members: ['send', 'close'] });
    let index = merged.update(new Map([['a.ts', a], ['b.ts', b]]));
    expect([...index.units.keys()].sort()).toEqual(['a.ts', 'a.ts#run', 'b.ts', 'b.ts#walk']);
    expect([...index.declaredNames].sort()).toEqual(['run', 'shared', 'walk']);
    expect([...index.memberNames].sort()).toEqual(['close', 'send']);

    // b is edited: `shared` and `send` stay (a still declares them), `walk` and `close` go.
    const edited = indexOf(['b.ts', 'b.ts#stroll'], { declared: ['stroll'] });
    index = merged.update(new Map([['a.ts', a], ['b.ts', edited]]));
    expect([...index.units.keys()].sort()).toEqual(['a.ts', 'a.ts#run', 'b.ts', 'b.ts#stroll']);
    expect([...index.declaredNames].sort()).toEqual(['run', 'shared', 'stroll']);
    expect([...index.memberNames].sort()).toEqual(['send']);
    expect([...index.stateVariables]).toEqual(['a.ts#run']);

    // a is removed: its names and state go with it.
    index = merged.update(new Map([['b.ts', edited]]));
    expect([...index.units.keys()].sort()).toEqual(['b.ts', 'b.ts#stroll']);
    expect([...index.declaredNames]).toEqual(['stroll']);
    expect(index.memberNames.size).toBe(0);
    expect(index.stateVariables.size).toBe(0);
  });
});
