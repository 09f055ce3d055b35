import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { packHandbook, unpackHandbook } from '../../src/api/packed-snapshot.js';
import { openRoutingHandbook } from '../../src/api/routing-snapshot.js';
import type { ProgramGraphData, Unit } from '../../src/graph/model.js';
import type { OrganizedHandbook } from '../../src/organize/model.js';
import { packSearchIndex } from '../../src/route/search-index.js';
import { askHandbook, buildHandbook, openHandbook, syncHandbook } from '../../src/index.js';
import { ROUTED_EDGE_KINDS } from '../../src/route/route-request.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

describe('the routing snapshot beside the database', () => {
  it('answers as the store does, follows every write of the store, and survives a damaged file', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    const snapshot = `${database}.routing`;
    await buildHandbook(repo, { database });
    const first = await askHandbook(repo, 'where is secret masking done?', { database });
    expect(existsSync(snapshot)).toBe(true);
    const again = await askHandbook(repo, 'where is secret masking done?', { database });
    expect(again).toEqual(first);

    // A sync writes the store: the next answer comes from the new content, not from the old snapshot.
    writeFileSync(path.join(repo, 'src/security/vault.ts'), '/** Scrubs credentials from captured shell transcripts. */\nexport function scrubTranscript(text: string): string {\n  return text;\n}\n');
    await syncHandbook(repo, { database });
    const after = await askHandbook(repo, 'where are shell transcripts scrubbed of credentials?', { database });
    expect(after.locations.map((location) => location.symbol)).toContain('scrubTranscript');

    // A torn or foreign file is read past; the store answers and the snapshot is written again.
    writeFileSync(snapshot, Buffer.concat([readFileSync(snapshot).subarray(0, 16), Buffer.from('not a snapshot')]));
    expect(await askHandbook(repo, 'where are shell transcripts scrubbed of credentials?', { database })).toEqual(after);
    expect(readFileSync(snapshot).length).toBeGreaterThan(1_000);
  });

  it('gives from the snapshot the graph, the register and the stage coupling the store gives', async () => {
    const repo = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    const fromStore = openRoutingHandbook(repo, { database, edgeKinds: ROUTED_EDGE_KINDS });
    const fromSnapshot = openRoutingHandbook(repo, { database, edgeKinds: ROUTED_EDGE_KINDS });
    // Edges are stored as flat arrays: every kind, end, line and dispatch mark comes back as it was.
    const edges = fromStore.handbook.graph.toData().edges;
    expect(edges.some((edge) => edge.via === 'dispatch') && edges.some((edge) => edge.lines.length > 1)).toBe(true);
    expect(fromSnapshot.handbook.graph.toData()).toEqual(fromStore.handbook.graph.toData());
    expect(fromSnapshot.stageCoupling).toEqual(fromStore.stageCoupling);
    expect(fromSnapshot.stageCoupling.length).toBeGreaterThan(0);
    expect(fromSnapshot.handbook.register).toEqual(openHandbook(repo, { database, edgeKinds: ROUTED_EDGE_KINDS }).register);
    expect(fromSnapshot.index.size).toBe(fromStore.index.size);
  });
});

describe('the packed layout of a snapshot', () => {
  const unit = (file: string, symbol: string, parent?: string): Unit => ({
    id: symbol ? `${file}#${symbol}` : file, kind: symbol ? 'function' : 'file', file, symbol, startLine: 1, endLine: 3, signature: `${symbol}()`, doc: 'Masks secrets.', exported: true, hash: 'h', literals: 'token', words: 'value mask', ...(parent ? { parent } : {}),
  });
  const graph = (): ProgramGraphData => ({
    files: [],
    units: [unit('a.ts', ''), unit('a.ts', 'f', 'a.ts'), unit('a.ts', 'g', 'a.ts')],
    edges: [
      { kind: 'calls', from: 'a.ts#f', to: 'a.ts#g', lines: [2, 3], via: 'dispatch' },
      { kind: 'writes', from: 'a.ts#g', to: 'a.ts#state', lines: [1] },
      { kind: 'calls', from: 'a.ts#g', to: 'elsewhere.ts#h', lines: [2] },
    ],
    slots: [{ id: 'a.ts#state', kind: 'module-variable', file: 'a.ts', owner: 'a.ts', name: 'state', line: 1, type: '' }],
    unresolved: [],
  });
  const organized = (): OrganizedHandbook => ({
    stager: 'offline',
    stages: [{ id: 's', name: 'S', description: '', summary: '', position: 0, members: [{ unit: 'a.ts#f', score: 0.25, primary: true }, { unit: 'a.ts#g', score: 0.5, primary: false }], entryPoints: [], exits: [] }],
    unassigned: [],
  } as unknown as OrganizedHandbook);

  it('reads back the graph, stages and index it was given, edges to ends outside the graph included', () => {
    const data = graph();
    const units = data.units.slice(1);
    const index = packSearchIndex(units);
    const unpacked = unpackHandbook(v8.deserialize(v8.serialize(packHandbook(data, organized(), index))));
    expect(unpacked.graph).toEqual(data);
    expect(unpacked.organized).toEqual(organized());
    expect(unpacked.index).toEqual(index);
    expect(unpacked.documents).toEqual(units);
  });

  it('refuses what it cannot hold, so that no snapshot is written for it', () => {
    const data = graph();
    const index = packSearchIndex(data.units.slice(1));
    expect(index.postingWeight.length).toBeGreaterThan(0);
    expect(() => packHandbook(data, organized(), { ...index, postingWeight: index.postingWeight.map((weight) => weight + 0.001) })).toThrow(/search weight/);
    const renamed = { ...data, units: data.units.map((each) => (each.symbol === 'g' ? { ...each, id: 'a.ts#other' } : each)) };
    expect(() => packHandbook(renamed, { ...organized(), stages: [] }, index)).toThrow(/not named by its path and symbol/);
  });
});
