import { describe, expect, it } from 'vitest';
import { formatOverview, formatStage, formatUnsharedSlot, formatWatchEvent } from '../../src/cli/format.js';
import type { OrganizedHandbook, Stage } from '../../src/organize/model.js';
import type { WatchSyncEvent } from '../../src/watch/watch-handbook.js';

const stage = (entryPoints: string[]): Stage => ({ id: 'startup', name: 'Startup', description: 'Starts', summary: 'Starts.', position: 0, members: [], entryPoints, exits: [], behaviors: [] });

function organized(entryPoints: string[]): OrganizedHandbook {
  return {
    stager: { kind: 'offline' },
    stages: [stage(entryPoints)],
    overview: { title: 't', description: '', stager: { kind: 'offline' }, stages: [], entryPoints, couplingSlots: [], counts: { units: 3, assigned: 3, unassigned: 0, files: 3 } },
  } as unknown as OrganizedHandbook;
}

describe('the text of overview and stage', () => {
  it('names an entry point by its full id when another one shown has the same short name, so the list tells them apart', () => {
    const ids = ['a/one.ts#default', 'b/two.ts#default', 'src/index.ts#main'];
    expect(formatOverview(organized(ids), new Map())).toMatch(/entry points: a\/one\.ts#default, b\/two\.ts#default, main$/m);
    expect(formatStage(stage(ids), organized(ids), new Map())).toMatch(/entry points: a\/one\.ts#default, b\/two\.ts#default, main$/m);
  });

  it('quotes a slot id in the command it suggests when the shell would split or expand it', () => {
    expect(formatUnsharedSlot('src/a.ts#Owner.field')).toMatch(/`handbook graph state src\/a\.ts#Owner\.field`/);
    expect(formatUnsharedSlot("src/über dir/it's.ts#Café.$état")).toMatch(/`handbook graph state 'src\/über dir\/it'\\''s\.ts#Café\.\$état'`/);
  });
});

describe('the text of a watch sync', () => {
  it('says the overview was written again when the project alone changed, not only "synced 0 files"', () => {
    const event = { type: 'sync', events: 1, upToDate: false, added: [], modified: [], removed: [], skipped: [], resolvedFiles: 0, entries: { added: 0, removed: 0, changed: 0 }, restaged: 0, projectChanged: true, unreadable: 0, syntaxErrors: 0, generation: 1, durationMs: 5, time: '2026-01-01T00:00:00.000Z' } satisfies WatchSyncEvent;
    expect(formatWatchEvent(event)).toMatch(/synced 0 files: 0 entries added, 0 changed, 0 removed, 0 restaged; overview written again \(package\.json or the README describe the project otherwise\) \(5 ms\)$/);
    expect(formatWatchEvent({ ...event, projectChanged: false })).not.toMatch(/overview/);
  });
});
