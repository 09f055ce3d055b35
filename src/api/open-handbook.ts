import path from 'node:path';
import type { EdgeKind } from '../graph/model.js';
import { ProgramGraph } from '../graph/program-graph.js';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { openDatabase, databasePathFor, type HandbookDatabase } from '../store/open-database.js';
import { currentGenerationOrThrow, readGraph, readOrganized, readSearchTerms, type GenerationInfo } from '../store/generations.js';
import { assertHandbookOf } from '../store/handbook-repository.js';
import type { OrganizedHandbook, RegisterEntry } from '../organize/model.js';
import { registerOfHandbook } from '../organize/state-register.js';
import type { BuildSummary } from './build-summary.js';

export interface Handbook {
  root: string;
  database: string;
  generation: GenerationInfo;
  summary: BuildSummary;
  graph: ProgramGraph;
  organized: OrganizedHandbook;
  register: RegisterEntry[];
  /** Serialized search terms by unit id, when asked for. */
  searchTerms: Map<string, string>;
}

export interface OpenHandbookOptions {
  database?: string;
  /** false leaves out the unresolved calls, which only the graph export and the build summary need. */
  withUnresolved?: boolean;
  withSearchTerms?: boolean;
  /** Only these relations, for a reader that follows no others (routing); every kind by default. */
  edgeKinds?: readonly EdgeKind[];
}

/**
 * The stored build summary, naming the repository and database it was read from: a handbook in
 * the repository's own .handbook folder moves with it, and the summary written at build time
 * would name the old place (or, for a copy, another handbook), as `sync` does not.
 */
export function summaryAsRead(generation: GenerationInfo, root: string, database: string): BuildSummary {
  return { ...(generation.summary as BuildSummary), root, database };
}

/**
 * Reads the current generation of a built handbook, read-only, after checking that it is this
 * repository's: `read` runs in one read transaction, so on one snapshot of the store. A build
 * that switches to a new generation and deletes this one meanwhile would otherwise leave what
 * was read first (the graph) without what was read after (its stages).
 */
export function readCurrentHandbook<T>(
  root: string,
  options: { database?: string },
  read: (connection: HandbookDatabase, generation: GenerationInfo, root: string) => T,
): { root: string; database: string; rows: T } {
  const absoluteRoot = assertRepositoryRoot(root);
  const database = databasePathFor(absoluteRoot, options.database);
  const resolvedRoot = path.resolve(absoluteRoot);
  const connection = openDatabase(database, 'read');
  try {
    const rows = connection.transaction(() => {
      const generation = currentGenerationOrThrow(connection);
      assertHandbookOf(absoluteRoot, database, generation.root);
      return read(connection, generation, resolvedRoot);
    })();
    return { root: resolvedRoot, database, rows };
  } finally {
    connection.close();
  }
}

/** Loads the current generation of a built handbook, read-only. */
export function openHandbook(root: string, options: OpenHandbookOptions = {}): Handbook {
  const { root: resolvedRoot, database, rows } = readCurrentHandbook(root, options, (connection, generation) => ({
    generation,
    graph: readGraph(connection, generation.id, { unresolved: options.withUnresolved !== false, ...(options.edgeKinds ? { edgeKinds: options.edgeKinds } : {}) }),
    organized: readOrganized(connection, generation.id),
    searchTerms: options.withSearchTerms ? readSearchTerms(connection, generation.id) : new Map<string, string>(),
  }));
  const { generation, organized, searchTerms } = rows;
  const graph = new ProgramGraph(rows.graph);
  const register = registerOfHandbook(graph, organized);
  return { root: resolvedRoot, database, generation, summary: summaryAsRead(generation, resolvedRoot, database), graph, organized, register, searchTerms };
}
