import type { Edge, Slot, Unit, UnresolvedCall } from '../graph/model.js';
import type { Language } from './languages.js';
import type { RecentTrees } from './syntax/recent-trees.js';

/**
 * What a file shows other files, name by name: each name it declares with a hash of the
 * declaration behind it. Stored per file; a language's re-sync reads it to tell which names an
 * edit changed.
 */
export type DeclarationDigest = Record<string, string>;

/** What resolving one file yields: its part of the graph, kept per file so a re-sync can replace just that part. */
export interface FileResolution {
  edges: Edge[];
  unresolved: UnresolvedCall[];
  /** The state slots this file's units read or write, wherever they are declared. */
  slots: Slot[];
  externalImports: string[];
  callSites: number;
  resolvedCalls: number;
  /** The line of each resolved call site, sorted: what a re-sync of part of the file keeps or drops. Absent when read back from the store. */
  resolvedCallLines?: readonly number[];
}

/** One file as a front end reads it. */
export interface FileInput {
  /** From the repository root, with forward slashes. */
  path: string;
  /** UTF-8 text (a byte-order mark dropped); bytes that are not UTF-8 arrive as U+FFFD. */
  text: string;
  /** sha256 (16 hex) of the raw bytes: the file unit's hash. */
  hash: string;
  lines: number;
  /** A test file: it gets its file unit and its imports only (which tests reach a change), as for TypeScript. */
  test: boolean;
  /** For a file parsed before in a warm session: the trees to parse it against incrementally. */
  recentTrees?: RecentTrees;
}

/** A file's units and the syntactic facts its language resolves across files later. */
export interface ExtractedFile<Facts = unknown> {
  /** The file unit first, then every declaration, in source order. */
  units: Unit[];
  /** Syntax errors found (0 for a clean parse); units are still read from what parsed. */
  parseErrors: number;
  /** The first syntax error, for the build's warnings. */
  warning?: { line: number; message: string };
  digest: DeclarationDigest;
  /** What the front end's resolver needs of the file (imports, call sites, bases, accesses); opaque to the core. */
  facts: Facts;
}

/** A whole language's files resolved at once. */
export interface ResolvedFiles {
  /** Every file's resolution (test files' included: their imports), by path. */
  files: Map<string, FileResolution>;
  /** `extends` and `implements` edges of the whole language, which the graph keeps apart from any file's rows. */
  heritage: Edge[];
}

/**
 * A language read through a syntax tree: extraction is per file and needs no other file;
 * resolution takes every file of the language at once, by scope and imports, and is cheap
 * enough to redo whole on every change, so a sync equals a cold build by construction.
 */
export interface SyntaxFrontEnd<Facts = unknown> {
  readonly language: Language;
  /** Whether a path is test code (its units are not analyzed, its imports are). */
  isTestPath(path: string): boolean;
  extract(file: FileInput): ExtractedFile<Facts>;
  /**
   * `memo` is an object the caller keeps across resolutions of the same language (the same one
   * each time): a front end may keep what it resolved there and reuse it for files a change cannot
   * reach. Files it got before in the very same ExtractedFile objects are unchanged. The answer is
   * what resolving without it gives.
   */
  resolve(files: ReadonlyMap<string, ExtractedFile<Facts>>, memo?: object): ResolvedFiles;
}
