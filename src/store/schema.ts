/**
 * Forward-only migrations; `PRAGMA user_version` holds how many have run. A database with a
 * higher version than this list was written by a newer release and is refused, not guessed at.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE generations (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('building', 'complete')),
    created_at TEXT NOT NULL,
    root TEXT NOT NULL,
    commit_sha TEXT,
    summary TEXT
  );
  CREATE TABLE files (
    generation INTEGER NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, hash TEXT NOT NULL,
    lines INTEGER NOT NULL, test INTEGER NOT NULL, parse_errors INTEGER NOT NULL,
    PRIMARY KEY (generation, path)
  ) WITHOUT ROWID;
  CREATE TABLE units (
    generation INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, file TEXT NOT NULL, symbol TEXT NOT NULL,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, signature TEXT NOT NULL, doc TEXT NOT NULL,
    exported INTEGER NOT NULL, hash TEXT NOT NULL, parent TEXT,
    PRIMARY KEY (generation, id)
  ) WITHOUT ROWID;
  CREATE TABLE edges (
    generation INTEGER NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
    lines TEXT NOT NULL, via TEXT
  );
  CREATE INDEX edges_by_source ON edges (generation, source);
  CREATE INDEX edges_by_target ON edges (generation, target);
  CREATE TABLE slots (
    generation INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, file TEXT NOT NULL, owner TEXT NOT NULL,
    name TEXT NOT NULL, line INTEGER NOT NULL, type TEXT NOT NULL,
    PRIMARY KEY (generation, id)
  ) WITHOUT ROWID;
  CREATE TABLE unresolved (
    generation INTEGER NOT NULL, source TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL, reason TEXT NOT NULL
  );
  CREATE INDEX unresolved_by_source ON unresolved (generation, source);
  `,
  `
  ALTER TABLE units ADD COLUMN literals TEXT NOT NULL DEFAULT '';
  ALTER TABLE files ADD COLUMN external_imports TEXT NOT NULL DEFAULT '[]';
  CREATE TABLE stages (
    generation INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, summary TEXT NOT NULL,
    position INTEGER NOT NULL, entry_points TEXT NOT NULL, exits TEXT NOT NULL,
    PRIMARY KEY (generation, id)
  ) WITHOUT ROWID;
  CREATE TABLE stage_members (
    generation INTEGER NOT NULL, stage TEXT NOT NULL, unit TEXT NOT NULL, score REAL NOT NULL, is_primary INTEGER NOT NULL,
    PRIMARY KEY (generation, stage, unit)
  ) WITHOUT ROWID;
  CREATE INDEX stage_members_by_unit ON stage_members (generation, unit);
  CREATE TABLE handbooks (
    generation INTEGER PRIMARY KEY, stager TEXT NOT NULL, overview TEXT NOT NULL, unassigned TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE model_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  `
  ALTER TABLE units ADD COLUMN words TEXT NOT NULL DEFAULT '';
  `,
  `
  CREATE TABLE search_terms (generation INTEGER NOT NULL, unit TEXT NOT NULL, terms TEXT NOT NULL, PRIMARY KEY (generation, unit)) WITHOUT ROWID;
  `,
  `
  ALTER TABLE files ADD COLUMN declarations TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE files ADD COLUMN call_sites INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE files ADD COLUMN resolved_calls INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE generations ADD COLUMN settings TEXT;
  CREATE INDEX units_by_file ON units (generation, file);
  `,
  `
  ALTER TABLE files ADD COLUMN resolved_call_lines TEXT;
  `,
  `
  ALTER TABLE edges ADD COLUMN resolution TEXT;
  `,
  `
  ALTER TABLE stages ADD COLUMN behaviors TEXT NOT NULL DEFAULT '[]';
  `,
  `
  ALTER TABLE stages ADD COLUMN behaviors_key TEXT NOT NULL DEFAULT '';
  `,
  // Lines of edges and unresolved calls become relative to a unit's first line, by the rule of
  // stored-lines.ts (a contains edge into its own file's unit counts from that unit, any other
  // row from its source; a row of no stored unit stays as it is), so an update writes only the
  // rows an edit changed; each unit's digest of its rows (unit-rows.ts) tells which. '' matches no
  // digest: an update reads such a unit's rows back once. Converted in place, so a handbook keeps
  // its analysis across the upgrade.
  `
  ALTER TABLE units ADD COLUMN rows_digest TEXT NOT NULL DEFAULT '';
  UPDATE edges SET lines = (SELECT json_group_array(each.value - anchors.line ORDER BY each.key) FROM json_each(edges.lines) AS each)
  FROM (
    SELECT edge.rowid AS id, coalesce(target.start_line, source.start_line) AS line
    FROM edges AS edge
    JOIN units AS source ON source.generation = edge.generation AND source.id = edge.source
    LEFT JOIN units AS target ON edge.kind = 'contains' AND target.generation = edge.generation AND target.id = edge.target AND target.file = source.file
  ) AS anchors
  WHERE edges.rowid = anchors.id;
  UPDATE unresolved SET line = unresolved.line - units.start_line FROM units WHERE units.generation = unresolved.generation AND units.id = unresolved.source;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
