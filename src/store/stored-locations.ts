import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { type FileHash, sourceFileSchema, type UnitLocation, unitSchema } from '../graph/model.js';
import { compareText } from '../graph/order.js';
import type { HandbookDatabase } from './open-database.js';

const fileHashSchema = sourceFileSchema.pick({ path: true, hash: true }) satisfies z.ZodType<FileHash>;
const unitLocationSchema = unitSchema.pick({ id: true, kind: true, file: true, symbol: true, startLine: true, endLine: true, hash: true }) satisfies z.ZodType<UnitLocation>;

/** The files of a generation by path, as the whole graph lists them, with the hash of the bytes the build read. */
export function readFileHashes(database: HandbookDatabase, generation: number): FileHash[] {
  const rows = database.prepare('SELECT path, hash FROM files WHERE generation = ?').all(generation);
  return parsedRows(() => z.array(fileHashSchema).parse(rows).sort((a, b) => compareText(a.path, b.path)));
}

const entryCountSchema = z.array(z.object({ file: z.string(), entries: z.number().int().nonnegative() }));

/**
 * How many entries (units other than the file's own) each file holding a unit holds: all a check
 * needs of a file whose bytes are the build's, since every entry of such a file is fresh as stored.
 */
export function entriesByFile(database: HandbookDatabase, generation: number): Map<string, number> {
  // Counted on the index by file, less the file's own unit (whose id is its path) found by key: reading
  // each unit's kind instead looks every unit up in the table, which took three times as long on gemini-cli.
  const rows = database
    .prepare("SELECT file, count(*) - (SELECT count(*) FROM units AS own WHERE own.generation = units.generation AND own.id = units.file AND own.kind = 'file') AS entries FROM units WHERE generation = ? GROUP BY file")
    .all(generation);
  return new Map(parsedRows(() => entryCountSchema.parse(rows)).map((row) => [row.file, row.entries]));
}

/**
 * The units of these files, by id as the whole graph lists them: read file by file, since a check
 * needs only those of files that changed, and the units of a large handbook take longer to read
 * than its files take to hash.
 */
export function readUnitLocations(database: HandbookDatabase, generation: number, files: Iterable<string>): UnitLocation[] {
  const statement = database.prepare('SELECT id, kind, file, symbol, start_line AS startLine, end_line AS endLine, hash FROM units WHERE generation = ? AND file = ?');
  const rows = [...files].flatMap((file) => statement.all(generation, file));
  return parsedRows(() => z.array(unitLocationSchema).parse(rows).sort((a, b) => compareText(a.id, b.id)));
}

function parsedRows<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new HandbookError('DATABASE_CORRUPT', 'the handbook database holds rows this version cannot read', 'delete .handbook/handbook.db and run `handbook build` again', { cause: error });
  }
}
