import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import writeFileAtomic from 'write-file-atomic';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { shortHash } from '../graph/content-hash.js';
import type { EdgeKind, ProgramGraphData } from '../graph/model.js';
import { ProgramGraph } from '../graph/program-graph.js';
import type { OrganizedHandbook } from '../organize/model.js';
import { parseStoredSearchTerms, type SearchTerms } from '../route/search-index.js';
import { registerOfHandbook } from '../organize/state-register.js';
import { currentGenerationOrThrow, type GenerationInfo } from '../store/generations.js';
import { databasePathFor, openDatabase } from '../store/open-database.js';
import { SCHEMA_VERSION } from '../store/schema.js';
import type { BuildSummary } from './build-summary.js';
import { type Handbook, openHandbook } from './open-handbook.js';

/** Bump when what the snapshot holds, or how the store's rows are read into it, changes. */
const SNAPSHOT_FORMAT = 1;
const KEY_BYTES = 16;

interface Snapshot {
  graph: ProgramGraphData;
  organized: OrganizedHandbook;
  /** As stored: parsed objects cost more to read back than the text costs to parse. */
  searchTerms: Array<[string, string]>;
}

/** A handbook as routing reads it, with each unit's search terms parsed. */
export interface RoutingHandbook {
  handbook: Handbook;
  searchTerms: Map<string, SearchTerms>;
}

/**
 * What every write of the store changes: a new generation, or an update of the current one in
 * place (which stamps its time, commit and summary again). A snapshot made under another key
 * is of another handbook.
 */
function snapshotKey(database: string, generation: GenerationInfo, edgeKinds: readonly EdgeKind[]): string {
  return shortHash(JSON.stringify([SNAPSHOT_FORMAT, SCHEMA_VERSION, database, generation.id, generation.createdAt, generation.commit, generation.summary, edgeKinds]));
}

function handbookOf(root: string, database: string, generation: GenerationInfo, snapshot: Snapshot): RoutingHandbook {
  const graph = new ProgramGraph(snapshot.graph);
  const register = registerOfHandbook(graph, snapshot.organized);
  return {
    handbook: { root, database, generation, summary: generation.summary as BuildSummary, graph, organized: snapshot.organized, register, searchTerms: new Map() },
    searchTerms: parseStoredSearchTerms(new Map(snapshot.searchTerms)),
  };
}

/**
 * The handbook as routing reads it (units, the relations it follows, stages, search terms),
 * kept beside the database as one V8-serialized file: reading and checking the store's rows
 * is most of what an `ask` costs, and the store changes only when a build or sync writes it.
 * The first read after a write reads the store and leaves a snapshot for the next; a snapshot
 * that cannot be written (a read-only folder) is only a lost shortcut.
 */
export function openRoutingHandbook(root: string, options: { database?: string; edgeKinds: readonly EdgeKind[] }): RoutingHandbook {
  const absoluteRoot = assertRepositoryRoot(root);
  const database = databasePathFor(absoluteRoot, options.database);
  const connection = openDatabase(database, { create: false });
  let generation: GenerationInfo;
  try {
    generation = currentGenerationOrThrow(connection);
  } finally {
    connection.close();
  }
  const key = snapshotKey(database, generation, options.edgeKinds);
  const file = `${database}.routing`;
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    bytes = undefined;
  }
  if (bytes && bytes.subarray(0, KEY_BYTES).toString('latin1') === key) {
    try {
      return handbookOf(absoluteRoot, database, generation, v8.deserialize(bytes.subarray(KEY_BYTES)) as Snapshot);
    } catch {
      // A torn or foreign file is read past: the store answers, and the snapshot is written again.
    }
  }
  const handbook = openHandbook(absoluteRoot, { ...(options.database ? { database: options.database } : {}), withUnresolved: false, withSearchTerms: true, edgeKinds: options.edgeKinds });
  // Keyed by the generation read first: a write that landed since leaves a key no later read matches.
  const searchTerms = parseStoredSearchTerms(handbook.searchTerms);
  const snapshot: Snapshot = { graph: handbook.graph.toData(), organized: handbook.organized, searchTerms: [...handbook.searchTerms] };
  try {
    writeFileAtomic.sync(file, Buffer.concat([Buffer.from(key, 'latin1'), v8.serialize(snapshot)]));
  } catch {
    // Only a shortcut is lost.
  }
  return { handbook, searchTerms };
}
