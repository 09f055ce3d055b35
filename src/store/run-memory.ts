import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { makeFolder } from '../text/make-folder.js';

/**
 * The long-term memory of one run: durable facts lifted out of the conversation before the
 * harness compacts it. A fact is never deleted; a newer one about the same subject (kind and
 * key) supersedes it and keeps it as history, so every id a summary points to still resolves.
 */

export const FACT_KINDS = ['file_changed', 'check_result', 'decision', 'open_question', 'summary'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export const factInputSchema = z.object({
  kind: z.enum(FACT_KINDS),
  /** The subject: the path of a changed file, the name of a check; a newer fact with the same kind and key supersedes. */
  key: z.string().min(1),
  text: z.string().min(1),
  /** The loop step the fact comes from. */
  step: z.number().int().nonnegative(),
});
export type FactInput = z.input<typeof factInputSchema>;

const factRowSchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(FACT_KINDS),
  key: z.string(),
  text: z.string(),
  step: z.number().int(),
  created: z.string(),
  superseded: z.union([z.literal(0), z.literal(1)]).transform((flag) => flag === 1),
  replaces: z.number().int().positive().nullable(),
});
export type Fact = z.output<typeof factRowSchema>;

export interface Promotion {
  id: number;
  /** False when the current fact for the subject already said the same at the same step. */
  changed: boolean;
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE facts (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    step INTEGER NOT NULL,
    created TEXT NOT NULL,
    superseded INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),
    replaces INTEGER REFERENCES facts (id)
  );
  CREATE UNIQUE INDEX facts_current ON facts (kind, key) WHERE superseded = 0;
`;

const COLUMNS = 'id, kind, key, text, step, created, superseded, replaces';

export function runMemoryPath(runsDirectory: string, runId: string): string {
  return path.join(runsDirectory, runId, 'memory.db');
}

export interface RecallOptions {
  kinds?: readonly FactKind[];
  /** Search superseded facts too. */
  history?: boolean;
}

export class RunMemory {
  private readonly selectCurrent;
  private readonly selectAll;
  private readonly selectById;
  private readonly selectSubject;
  private readonly insert;
  private readonly retire;
  private readonly promoteOne;

  constructor(
    private readonly database: Database.Database,
    readonly file: string,
    private readonly clock: () => Date,
  ) {
    this.selectCurrent = database.prepare(`SELECT ${COLUMNS} FROM facts WHERE superseded = 0 ORDER BY id`);
    this.selectAll = database.prepare(`SELECT ${COLUMNS} FROM facts ORDER BY id`);
    this.selectById = database.prepare(`SELECT ${COLUMNS} FROM facts WHERE id = ?`);
    this.selectSubject = database.prepare(`SELECT ${COLUMNS} FROM facts WHERE kind = ? AND key = ? ORDER BY id`);
    this.insert = database.prepare('INSERT INTO facts (kind, key, text, step, created, replaces) VALUES (?, ?, ?, ?, ?, ?)');
    this.retire = database.prepare('UPDATE facts SET superseded = 1 WHERE id = ?');
    // One transaction a fact: a crash between two promotions keeps every earlier one whole.
    this.promoteOne = database.transaction((fact: z.output<typeof factInputSchema>): Promotion => {
      const current = this.history(fact.kind, fact.key).find((row) => !row.superseded);
      if (current && current.text === fact.text && current.step === fact.step) return { id: current.id, changed: false };
      if (current) this.retire.run(current.id);
      const id = Number(this.insert.run(fact.kind, fact.key, fact.text, fact.step, this.clock().toISOString(), current?.id ?? null).lastInsertRowid);
      return { id, changed: true };
    });
  }

  /** Stores a fact, superseding the current one about the same subject. */
  promote(fact: FactInput): Promotion {
    return this.promoteOne.immediate(factInputSchema.parse(fact));
  }

  /** The current facts, the latest for each subject, oldest first; of one kind when asked. */
  facts(kind?: FactKind): Fact[] {
    const rows = rowsOf(this.selectCurrent.all());
    return kind === undefined ? rows : rows.filter((fact) => fact.kind === kind);
  }

  /** Any fact by id, superseded or not. */
  fact(id: number): Fact | undefined {
    const row = this.selectById.get(id);
    return row === undefined ? undefined : factRowSchema.parse(row);
  }

  /** Every version of one subject, oldest first. */
  history(kind: FactKind, key: string): Fact[] {
    return rowsOf(this.selectSubject.all(kind, key));
  }

  /**
   * Facts whose key or text holds any of the query's words, those holding more words first,
   * then the newest; without a query, every current fact.
   */
  recall(query = '', options: RecallOptions = {}): Fact[] {
    const terms = [...new Set(query.toLowerCase().split(/\s+/).filter((term) => term !== ''))];
    const pool = rowsOf((options.history ? this.selectAll : this.selectCurrent).all()).filter((fact) => options.kinds === undefined || options.kinds.includes(fact.kind));
    if (terms.length === 0) return pool;
    return pool
      .map((fact) => {
        const haystack = `${fact.key}\n${fact.text}`.toLowerCase();
        return { fact, score: terms.filter((term) => haystack.includes(term)).length };
      })
      .filter((match) => match.score > 0)
      .sort((a, b) => b.score - a.score || b.fact.id - a.fact.id)
      .map((match) => match.fact);
  }

  close(): void {
    this.database.close();
  }
}

function rowsOf(rows: unknown[]): Fact[] {
  return rows.map((row) => factRowSchema.parse(row));
}

/** Opens a run's memory, creating it (and its folder) when missing; `:memory:` gives one that lives as long as the object. */
export function openRunMemory(file: string, options: { clock?: () => Date } = {}): RunMemory {
  const inMemory = file === ':memory:';
  if (!inMemory) makeFolder(path.dirname(file));
  let database: Database.Database;
  try {
    database = new Database(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  try {
    database.pragma('busy_timeout = 5000');
    database.pragma('journal_mode = WAL');
    // FULL syncs the log on every commit: a fact promoted is on disk even if the machine, not just the process, goes down.
    database.pragma('synchronous = FULL');
    const version = database.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new HandbookError('DATABASE_TOO_NEW', `the run memory at ${file} has schema ${version}; this version reads up to ${SCHEMA_VERSION}`, 'upgrade harness-handbook to resume this run');
    }
    if (version < SCHEMA_VERSION) {
      // Read again under the write lock: another process may have created the schema since.
      database.transaction(() => {
        if ((database.pragma('user_version', { simple: true }) as number) > 0) return;
        database.exec(SCHEMA);
        database.pragma(`user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    }
    return new RunMemory(database, file, options.clock ?? (() => new Date()));
  } catch (error) {
    database.close();
    if (HandbookError.isInstance(error)) throw error;
    if (error instanceof Error && /SQLITE_BUSY|database is locked/i.test(error.message)) {
      throw new HandbookError('DATABASE_LOCKED', `the run memory at ${file} is locked by another process`, 'wait for the other run to finish and try again', { cause: error });
    }
    throw unreadable(file, error);
  }
}

function unreadable(file: string, cause: unknown): HandbookError {
  return new HandbookError('DATABASE_CORRUPT', `the run memory is not readable: ${file}`, 'delete the file to give the run an empty memory', { cause });
}
