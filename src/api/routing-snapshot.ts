import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import writeFileAtomic from 'write-file-atomic';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { shortHash } from '../graph/content-hash.js';
import type { EdgeKind } from '../graph/model.js';
import { ProgramGraph } from '../graph/program-graph.js';
import type { RegisterEntry } from '../organize/model.js';
import { packSearchIndex, parseStoredSearchTerms, UnitSearchIndex } from '../route/search-index.js';
import { registerOfHandbook } from '../organize/state-register.js';
import { currentGenerationOrThrow, type GenerationInfo } from '../store/generations.js';
import { assertHandbookOf } from '../store/handbook-repository.js';
import { databasePathFor, openDatabase } from '../store/open-database.js';
import { SCHEMA_VERSION } from '../store/schema.js';
import { type Handbook, openHandbook, summaryAsRead } from './open-handbook.js';
import { type PackedHandbook, packHandbook, unpackHandbook } from './packed-snapshot.js';

/** Bump when what the snapshot holds, or how the store's rows are read into it, changes. */
const SNAPSHOT_FORMAT = 5;
const KEY_BYTES = 16;

interface Snapshot {
  handbook: PackedHandbook;
  stageCoupling: string[][];
}

/** A handbook as routing reads it: its search index built, and the stages its shared state couples. */
export interface RoutingHandbook {
  handbook: Handbook;
  index: UnitSearchIndex;
  /** The stages each shared state slot couples, each set once. */
  stageCoupling: string[][];
}

function stageCouplingOf(register: readonly RegisterEntry[]): string[][] {
  const sets = new Map<string, string[]>();
  for (const entry of register) {
    const stages = [...entry.stages].sort();
    sets.set(stages.join('\u0000'), stages);
  }
  return [...sets].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, stages]) => stages);
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
  const { graph: data, organized, index, documents } = unpackHandbook(snapshot.handbook);
  const graph = new ProgramGraph(data);
  let register: RegisterEntry[] | undefined;
  const handbook: Handbook = {
    root,
    database,
    generation,
    summary: summaryAsRead(generation, root, database),
    graph,
    organized,
    // Routing reads the stage coupling kept in the snapshot; the register itself is built only for a reader that asks.
    get register() {
      return (register ??= registerOfHandbook(graph, organized));
    },
    searchTerms: new Map(),
  };
  return { handbook, index: new UnitSearchIndex(documents, index), stageCoupling: snapshot.stageCoupling };
}

/**
 * The handbook as routing reads it (units, the relations it follows, stages, search index),
 * kept beside the database as one V8-serialized file: reading and checking the store's rows
 * is most of what an `ask` costs, and the store changes only when a build or sync writes it.
 * The first read after a write reads the store and leaves a snapshot for the next; a snapshot
 * that cannot be written (a read-only folder) is only a lost shortcut.
 */
export function openRoutingHandbook(root: string, options: { database?: string; edgeKinds: readonly EdgeKind[] }): RoutingHandbook {
  const absoluteRoot = assertRepositoryRoot(root);
  const database = databasePathFor(absoluteRoot, options.database);
  const connection = openDatabase(database, 'read');
  let generation: GenerationInfo;
  try {
    generation = currentGenerationOrThrow(connection);
  } finally {
    connection.close();
  }
  // Checked here too: a snapshot answers without opening the handbook.
  assertHandbookOf(absoluteRoot, database, generation.root);
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
  const units = handbook.graph.codeUnits();
  const packed = packSearchIndex(units, parseStoredSearchTerms(handbook.searchTerms));
  const stageCoupling = stageCouplingOf(handbook.register);
  try {
    const snapshot: Snapshot = { handbook: packHandbook(handbook.graph.toData(), handbook.organized, packed), stageCoupling };
    writeFileAtomic.sync(file, Buffer.concat([Buffer.from(key, 'latin1'), v8.serialize(snapshot)]));
  } catch {
    // Only a shortcut is lost: the folder is read-only, or the handbook has what the packed layout cannot hold.
  }
  return { handbook, index: new UnitSearchIndex(units, packed), stageCoupling };
}
