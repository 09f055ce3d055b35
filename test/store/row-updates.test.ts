import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Edge, ProgramGraphData, Unit } from '../../src/graph/model.js';
import { readGraph } from '../../src/store/generations.js';
import { insertGraphRows, placesOf } from '../../src/store/graph-rows.js';
import { replaceFileRows, replaceHeritage } from '../../src/store/row-updates.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import type { PlaceOf } from '../../src/store/stored-lines.js';

function unit(id: string, startLine: number, endLine: number, parent?: string): Unit {
  const [file, symbol = ''] = id.split('#');
  return {
    id, kind: symbol ? 'class' : 'file', file: file!, symbol, startLine, endLine, signature: id, doc: '', exported: true, hash: `${id}@`, literals: '', words: '',
    ...(parent ? { parent } : {}),
  };
}

/** A store holding `graph` as generation 1, written as a build writes it. */
function storeOf(graph: ProgramGraphData): Database.Database {
  const database = new Database(':memory:');
  for (const migration of MIGRATIONS) database.exec(migration);
  database.prepare("INSERT INTO generations (id, status, created_at, root) VALUES (1, 'complete', '', '')").run();
  insertGraphRows(database, 1, graph, new Map());
  return database;
}

describe('updating heritage edges in place', () => {
  it('rewrites the heritage of a class whose first line moved though its heritage line did not', () => {
    const file = unit('a.ts', 1, 20);
    const other = unit('b.ts', 1, 5);
    const target = unit('b.ts#Y', 1, 3, 'b.ts');
    const before = unit('a.ts#X', 3, 9, 'a.ts');
    const heritage: Edge[] = [{ kind: 'implements', from: 'a.ts#X', to: 'b.ts#Y', lines: [5] }];
    const database = storeOf({ files: [], units: [file, before, other, target], edges: [...heritage], slots: [], unresolved: [] });
    // The class now starts a line lower (a decorator or comment it counts as its own went), its `implements` where it was.
    const after = { ...before, startLine: 4 };
    const places = placesOf([file, after]);
    const placeOf: PlaceOf = (id) => places.get(id) ?? placesOf([other, target]).get(id);
    database.transaction(() => {
      const stood = replaceFileRows(database, 1, new Set(['a.ts']), { files: [], units: [file, after], edges: [{ kind: 'contains', from: 'a.ts', to: 'a.ts#X', lines: [4] }], unresolved: [] }, new Map(), placeOf);
      expect(stood.get('a.ts#X')?.startLine).toBe(3);
      replaceHeritage(database, 1, heritage, placeOf, {
        edges: heritage,
        placeOf: (id) => stood.get(id) ?? placeOf(id),
        moved: (id) => id === 'a.ts#X',
      });
    })();
    const graph = readGraph(database, 1);
    expect(graph.edges.filter((edge) => edge.kind === 'implements')).toEqual(heritage);
    expect(graph.units.find((each) => each.id === 'a.ts#X')?.startLine).toBe(4);
    database.close();
  });
});
