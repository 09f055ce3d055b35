import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { type FileHash, sourceFileSchema, type UnitLocation, unitSchema } from '../graph/model.js';
import { compareText } from '../graph/order.js';
import type { HandbookDatabase } from './open-database.js';

const fileHashSchema = sourceFileSchema.pick({ path: true, hash: true }) satisfies z.ZodType<FileHash>;
const unitLocationSchema = unitSchema.pick({ id: true, kind: true, file: true, symbol: true, startLine: true, endLine: true, hash: true }) satisfies z.ZodType<UnitLocation>;

export interface StoredLocations {
  /** By path, as the whole graph lists them. */
  files: FileHash[];
  /** By id, as the whole graph lists them. */
  units: UnitLocation[];
}

/**
 * The files and units of a generation, only as far as judging them against the live tree needs:
 * what `status` checks every entry with. The whole graph (edges, slots, the units' words) is
 * most of a large handbook's reading time and none of that check.
 */
export function readStoredLocations(database: HandbookDatabase, generation: number): StoredLocations {
  const files = database.prepare('SELECT path, hash FROM files WHERE generation = ?').all(generation);
  const units = database
    .prepare('SELECT id, kind, file, symbol, start_line AS startLine, end_line AS endLine, hash FROM units WHERE generation = ?')
    .all(generation);
  try {
    return {
      files: z.array(fileHashSchema).parse(files).sort((a, b) => compareText(a.path, b.path)),
      units: z.array(unitLocationSchema).parse(units).sort((a, b) => compareText(a.id, b.id)),
    };
  } catch (error) {
    throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds rows this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
  }
}
