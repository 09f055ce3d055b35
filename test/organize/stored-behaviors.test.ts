import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, openHandbook } from '../../src/index.js';
import { openDatabase } from '../../src/store/open-database.js';
import { FIXTURE, scratchDirectory } from '../helpers/paths.js';

describe('behaviours kept from the store', () => {
  it('stores each stage\'s key, and a new process keeps the behaviours of the stages an edit leaves alone, equal to a cold build', async () => {
    const repo = path.join(scratchDirectory('handbook-stored-behaviors-'), 'repo');
    cpSync(FIXTURE, repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
    await buildHandbook(repo, {});
    const database = path.join(repo, '.handbook', 'handbook.db');
    const keysOf = (): Map<string, string> => {
      const connection = openDatabase(database, 'read');
      try {
        return new Map((connection.prepare('SELECT id, behaviors_key FROM stages').all() as Array<{ id: string; behaviors_key: string }>).map((row) => [row.id, row.behaviors_key]));
      } finally {
        connection.close();
      }
    };
    const before = keysOf();
    expect([...before.values()].every((key) => /^[0-9a-f]{16}$/.test(key))).toBe(true);

    // A new function that calls the masking helper: the security stage's entry points move, the others' inputs may not.
    const file = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport function maskTwice(text: string): string {\n  return maskSecrets(maskSecrets(text));\n}\n`);
    const live = await LiveHandbook.open(repo, {});
    await live.sync();
    live.close();
    const after = keysOf();
    expect(after.get('security')).not.toBe(before.get('security'));
    expect([...after].filter(([stage, key]) => before.get(stage) === key).length).toBeGreaterThan(0);

    const cold = path.join(scratchDirectory('handbook-stored-behaviors-cold-'), 'cold.db');
    await buildHandbook(repo, { database: cold });
    const stagesOf = (db?: string) => openHandbook(repo, db ? { database: db } : {}).organized.stages.map((stage) => stage.behaviors);
    expect(stagesOf()).toEqual(stagesOf(cold));
  });

  it('keeps none of them when another version analyzed the handbook: that version may have grouped otherwise', async () => {
    const repo = path.join(scratchDirectory('handbook-stored-behaviors-version-'), 'repo');
    cpSync(FIXTURE, repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
    await buildHandbook(repo, {});
    const database = path.join(repo, '.handbook', 'handbook.db');
    const raw = openDatabase(database, 'update');
    try {
      // Another version: no analysis number in the settings, and behaviours grouped its way under the same keys.
      const { id, settings } = raw.prepare("SELECT id, settings FROM generations WHERE status = 'complete' ORDER BY id DESC LIMIT 1").get() as { id: number; settings: string };
      const parsed = JSON.parse(settings) as { compiler: string };
      const compiler = JSON.parse(parsed.compiler) as Record<string, unknown>;
      delete compiler.analysis;
      raw.prepare('UPDATE generations SET settings = ? WHERE id = ?').run(JSON.stringify({ ...parsed, compiler: JSON.stringify(compiler) }), id);
      const rows = raw.prepare('SELECT generation, id, behaviors FROM stages').all() as Array<{ generation: number; id: string; behaviors: string }>;
      for (const row of rows) {
        const behaviors = JSON.parse(row.behaviors) as Array<{ name: string }>;
        raw.prepare('UPDATE stages SET behaviors = ? WHERE generation = ? AND id = ?').run(JSON.stringify(behaviors.map((behavior) => ({ ...behavior, name: `old ${behavior.name}` }))), row.generation, row.id);
      }
    } finally {
      raw.close();
    }
    const live = await LiveHandbook.open(repo, {});
    await live.sync();
    live.close();
    const cold = path.join(scratchDirectory('handbook-stored-behaviors-version-cold-'), 'cold.db');
    await buildHandbook(repo, { database: cold });
    const stagesOf = (db?: string) => openHandbook(repo, db ? { database: db } : {}).organized.stages.map((stage) => stage.behaviors);
    expect(stagesOf().flat().some((behavior) => behavior.name.startsWith('old '))).toBe(false);
    expect(stagesOf()).toEqual(stagesOf(cold));
  });
});
