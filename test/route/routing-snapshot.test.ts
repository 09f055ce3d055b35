import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRoutingHandbook } from '../../src/api/routing-snapshot.js';
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
