import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import type { Unit } from '../../src/graph/model.js';
import { readGraph } from '../../src/store/generations.js';
import { openDatabase } from '../../src/store/open-database.js';
import { entriesByFile, readFileHashes, readUnitLocations } from '../../src/store/stored-locations.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const locationOf = ({ id, kind, file, symbol, startLine, endLine, hash }: Unit) => ({ id, kind, file, symbol, startLine, endLine, hash });

describe('stored locations', () => {
  it('read the files, the entries of each file and the units of the files named as the whole graph holds them', async () => {
    const repo = copyOfFixture();
    // A file holding no unit but its own: no entry.
    writeFileSync(path.join(repo, 'src/empty.ts'), '');
    const database = path.join(scratchDirectory(), 'handbook.db');
    const { generation } = await buildHandbook(repo, { database });
    const connection = openDatabase(database, 'read');
    try {
      const graph = readGraph(connection, generation);
      expect(readFileHashes(connection, generation)).toEqual(graph.files.map(({ path: file, hash }) => ({ path: file, hash })));

      const entries = new Map<string, number>();
      for (const unit of graph.units) entries.set(unit.file, (entries.get(unit.file) ?? 0) + (unit.kind === 'file' ? 0 : 1));
      expect(entries.get('src/empty.ts')).toBe(0);
      expect(entriesByFile(connection, generation)).toEqual(entries);

      const named = ['src/tools/shell.ts', 'src/hooks.ts', 'src/empty.ts'];
      expect(readUnitLocations(connection, generation, named)).toEqual(graph.units.filter((unit) => named.includes(unit.file)).map(locationOf));
      expect(readUnitLocations(connection, generation, graph.files.map((file) => file.path))).toEqual(graph.units.map(locationOf));
    } finally {
      connection.close();
    }
  });
});
