import { z } from 'zod';

/** What a unit is. `file` units are the coarse view; every other kind is a declaration. */
export const UNIT_KINDS = [
  'file',
  'class',
  'interface',
  'type',
  'enum',
  'function',
  'method',
  'constructor',
  'accessor',
  'variable',
  'property',
] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export const EDGE_KINDS = [
  'contains',
  'imports',
  'calls',
  'instantiates',
  'extends',
  'implements',
  'references',
  'reads',
  'writes',
] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/** Heritage edges are resolved for the whole tree on every analysis, apart from any file's own edges. */
export const HERITAGE_KINDS: ReadonlySet<EdgeKind> = new Set(['extends', 'implements']);

export const unitSchema = z.object({
  /** `path/from/root.ts#Outer.inner`; a file unit's id is its path. */
  id: z.string(),
  kind: z.enum(UNIT_KINDS),
  file: z.string(),
  /** Dotted path inside the file (`Class.method`); empty for a file unit. */
  symbol: z.string(),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  signature: z.string(),
  doc: z.string(),
  exported: z.boolean(),
  /** sha256 (16 hex) of the unit's tokens, literals verbatim, so a move or re-indent is not a change; a file unit hashes its bytes. */
  hash: z.string(),
  /** Distinct words of the string literals in the unit's own body (not nested units'), space-separated. */
  literals: z.string(),
  /** Distinct words of the identifiers and comments in the unit's own body, space-separated, capped: its vocabulary for search. */
  words: z.string(),
  /** The unit that contains this one; undefined for a file. */
  parent: z.string().optional(),
});
export type Unit = z.infer<typeof unitSchema>;

/** A unit as a locator names it: where the build found it and the hash of its code. */
export type UnitLocation = Pick<Unit, 'id' | 'kind' | 'file' | 'symbol' | 'startLine' | 'endLine' | 'hash'>;

export const edgeSchema = z.object({
  kind: z.enum(EDGE_KINDS),
  from: z.string(),
  to: z.string(),
  /** 1-based lines of every occurrence, ascending. */
  lines: z.array(z.number().int().positive()),
  /** How a call was resolved when it was not a direct declaration: through an interface or an override. */
  via: z.enum(['direct', 'dispatch']).optional(),
  /**
   * How the edge was found when no type checker vouched for it: `scope`, through the scopes and
   * imports of its file (a language read from its syntax alone); `name`, by a member's name and
   * arity alone (every class of the repository with such a method). Absent when the TypeScript
   * checker resolved it.
   */
  resolution: z.enum(['scope', 'name']).optional(),
});
export type EdgeResolution = NonNullable<z.infer<typeof edgeSchema>['resolution']>;
export type Edge = z.infer<typeof edgeSchema>;

export const UNRESOLVED_REASONS = ['external', 'dynamic', 'unknown'] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

/** A call the checker could not tie to a unit of the repository: kept with its text, never guessed. */
export const unresolvedCallSchema = z.object({
  from: z.string(),
  text: z.string(),
  line: z.number().int().positive(),
  /** external: the callee comes from a package outside the repo; dynamic: a parameter, local or computed value; unknown: no symbol. */
  reason: z.enum(UNRESOLVED_REASONS),
});
export type UnresolvedCall = z.infer<typeof unresolvedCallSchema>;

export const SLOT_KINDS = ['field', 'property', 'module-variable'] as const;

/**
 * What starts the symbol of a static member's slot (`file#static Owner.name`): a class's static
 * and its instance member of one name are two properties, of the constructor and of each
 * instance. A space, which no identifier holds, keeps it apart from a member named `static`.
 */
export const STATIC_SLOT_PREFIX = 'static ';

/** A piece of state that units read or write: a class field, a property of a shared type, a module variable. */
export const slotSchema = z.object({
  /** `file#Owner.name` for a field or property (`file#static Owner.name` for a static one), the variable's unit id for a module variable. */
  id: z.string(),
  kind: z.enum(SLOT_KINDS),
  file: z.string(),
  owner: z.string(),
  name: z.string(),
  line: z.number().int().positive(),
  type: z.string(),
});
export type Slot = z.infer<typeof slotSchema>;

export const SKIP_REASONS = [
  'node_modules',
  'build-output',
  'declaration',
  'vendored',
  'generated',
  'too-large',
  'binary',
  'unreadable',
  'symlink-outside',
  'symlink-loop',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const sourceFileSchema = z.object({
  path: z.string(),
  size: z.number().int().nonnegative(),
  /** sha256 (16 hex) of the raw bytes. */
  hash: z.string(),
  lines: z.number().int().nonnegative(),
  test: z.boolean(),
  parseErrors: z.number().int().nonnegative(),
  /** Modules imported from outside the repository (`openai`, `node:child_process`), sorted: what the file is built on. */
  externalImports: z.array(z.string()),
});
export type SourceFileRecord = z.infer<typeof sourceFileSchema>;

/** A file as the build read it: its path and the hash of its bytes, what tells whether it changed since. */
export type FileHash = Pick<SourceFileRecord, 'path' | 'hash'>;

/** Everything analysis knows about a repository, in a plain, serializable, deterministic form. */
export interface ProgramGraphData {
  files: SourceFileRecord[];
  units: Unit[];
  edges: Edge[];
  slots: Slot[];
  unresolved: UnresolvedCall[];
}
