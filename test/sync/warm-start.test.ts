import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook } from '../../src/index.js';
import * as vocabulary from '../../src/organize/unit-vocabulary.js';
import { copyOfFixture } from '../helpers/paths.js';

// Every unit's words, as the offline stager reads them, counted: what a sync places from scratch.
vi.mock('../../src/organize/unit-vocabulary.js', async (original) => {
  const module = await original<typeof import('../../src/organize/unit-vocabulary.js')>();
  return { ...module, unitTerms: vi.fn(module.unitTerms) };
});

const LONG = 120_000;

/**
 * watch and MCP open a handbook and sync once before any edit. That first sync, finding nothing
 * changed, places the units from the store's analysis without writing, so the first edit after it
 * reads again only the words of the units it changed, as every later edit does, and still stores
 * what a cold build stores.
 */
describe('a kept-open handbook that starts with nothing to sync', () => {
  it('places its units before the first edit, which then re-reads only the edited units', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const live = await LiveHandbook.open(repo);
    const unitTerms = vi.mocked(vocabulary.unitTerms);
    try {
      unitTerms.mockClear();
      expect((await live.sync()).upToDate).toBe(true);
      const placedAtStart = unitTerms.mock.calls.length;
      expect(placedAtStart).toBeGreaterThan(20);

      const file = path.join(repo, 'src/agent/agentLoop.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\}\s*$/, '}\n\nexport function warmStartProbe(): number {\n  return 1;\n}\n'));
      unitTerms.mockClear();
      const summary = await live.sync();
      expect(summary.upToDate).toBe(false);
      const reread = new Set(unitTerms.mock.calls.map(([unit]) => unit.file));
      expect([...reread]).toEqual(['src/agent/agentLoop.ts']);
    } finally {
      live.close();
    }

    const synced = openHandbook(repo);
    const cold = copyOfFixture();
    writeFileSync(path.join(cold, 'src/agent/agentLoop.ts'), readFileSync(path.join(repo, 'src/agent/agentLoop.ts'), 'utf8'));
    await buildHandbook(cold);
    const built = openHandbook(cold);
    expect(synced.organized.stages).toEqual(built.organized.stages);
    expect(synced.graph.toData()).toEqual(built.graph.toData());
  }, LONG);
});
