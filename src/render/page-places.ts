import type { Unit } from '../graph/model.js';
import type { RegisterEntry } from '../organize/model.js';

/** Where a page shows a piece of code: a file, the line its link opens at, and a word on how the code stands now. */
export interface ShownPlace {
  file: string;
  /** Absent when no line says where the code stands now (it is gone, or changed around a declaration). */
  line?: number;
  /** "(changed)", "(moved from src/a.ts)", "(gone)"; empty while the code is the build's. */
  note: string;
}

/**
 * Where the pages place the code they list. `handbook render` writes the handbook as built; a
 * reader that serves pages while the code may have moved on since (the MCP server) passes where
 * each piece stands now, so a page never links a line that no longer holds what it names.
 */
export interface PagePlaces {
  unit(unit: Unit): ShownPlace;
  /** Where the first of these lines, recorded inside the unit's code (a write, a read), stands; the unit's own place when none is recorded. */
  access(unit: Unit, lines: readonly number[]): ShownPlace;
  /** Where a piece of state is declared. */
  declaration(entry: RegisterEntry): ShownPlace;
  /** The word after a unit named without its place ("(gone)"); empty while its code is the build's. */
  nameNote(id: string): string;
}

/** The places the build recorded. */
export const BUILD_PLACES: PagePlaces = {
  unit: (unit) => ({ file: unit.file, line: unit.startLine, note: '' }),
  access: (unit, lines) => ({ file: unit.file, line: lines[0] ?? unit.startLine, note: '' }),
  declaration: (entry) => ({ file: entry.file, line: entry.line, note: '' }),
  nameNote: () => '',
};
