import { z } from 'zod';
import { EDGE_KINDS, UNIT_KINDS } from '../graph/model.js';

/**
 * The web viewer's JSON API, shared by the server, the static site and the browser app. This
 * module imports nothing but zod and the graph's kind lists, so the app's bundle can take it
 * whole. Objects are strict: a field the contract does not name is a server bug.
 */

const line = z.number().int().positive();

/** A place in the code a view links to: a unit and the line to show in its file, as the build recorded them. */
export const siteSchema = z.strictObject({ unit: z.string(), symbol: z.string(), file: z.string(), line });
export type Site = z.infer<typeof siteSchema>;

const liveStatusSchema = z.enum(['fresh', 'changed', 'moved', 'frozen']);

/**
 * Where a listed unit's code stands now, in the unit answer's own live words, given only when that
 * is not where the build put it: its status, and unless it is gone from disk (frozen, `reason` says
 * why) the file and symbol that hold it now and its lines there. A view shows these; the build's
 * fields stay the link. A unit without them is fresh at the build's place: a handbook in step with
 * the code lists the build's places alone.
 */
const liveFields = {
  status: liveStatusSchema.optional(),
  reason: z.string().optional(),
  liveFile: z.string().optional(),
  liveSymbol: z.string().optional(),
  liveLine: line.optional(),
  liveEndLine: line.optional(),
};

/** A site with where its unit's code stands now: a stage's entry point. */
export const liveSiteSchema = siteSchema.extend(liveFields);
export type LiveSite = z.infer<typeof liveSiteSchema>;

/** A slot's writer or reader: `line` is its first access, as the build recorded it. */
export const accessSiteSchema = liveSiteSchema.extend({
  /** That access where it stands now, when the accessor is not in place; absent too when its code changed or is gone, as no line of the build's says where the access is then. */
  liveAccessLine: line.optional(),
});
export type AccessSite = z.infer<typeof accessSiteSchema>;

export const errorResponseSchema = z.strictObject({ error: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const overviewResponseSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  generation: z.number().int().positive(),
  /** 'offline', or the model that placed the units. */
  stager: z.string(),
  stages: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      position: z.number().int().nonnegative(),
      summary: z.string(),
      unitCount: z.number().int().nonnegative(),
      entryPoints: z.array(liveSiteSchema),
    }),
  ),
  /** State shared across stages: `Owner.field` and the stages it couples. */
  coupling: z.array(z.strictObject({ slot: z.string(), stages: z.array(z.string()) })),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;

export const stageResponseSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  position: z.number().int().nonnegative(),
  summary: z.string(),
  members: z.array(
    z.strictObject({ unit: z.string(), symbol: z.string(), kind: z.enum(UNIT_KINDS), file: z.string(), line, endLine: line, primary: z.boolean(), ...liveFields }),
  ),
  entryPoints: z.array(liveSiteSchema),
  /** The primary members divided into behaviours (every primary member in exactly one); members are unit ids listed in `members`. */
  behaviors: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      summary: z.string(),
      members: z.array(z.string()),
      entryPoints: z.array(z.string()),
      files: z.array(z.string()),
      writes: z.array(z.string()),
      reads: z.array(z.string()),
    }),
  ),
});
export type StageResponse = z.infer<typeof stageResponseSchema>;

export const registerResponseSchema = z.strictObject({
  slots: z.array(
    z.strictObject({
      /** The slot's id: `file#Owner.field`, or a module variable's unit id. */
      slot: z.string(),
      /** `Owner.field`. */
      name: z.string(),
      type: z.string(),
      stages: z.array(z.string()),
      writers: z.array(accessSiteSchema),
      readers: z.array(accessSiteSchema),
    }),
  ),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/**
 * A caller or callee of the unit shown: the site the build recorded (a caller's `line` is its first
 * call, a callee's its first line), with where its code stands now.
 */
export const neighbourSchema = liveSiteSchema.extend({
  /** A caller's first call, where it stands now, when the caller is not in place; absent for a callee, and when the caller's code changed or is gone, as no line of the build's says where the call is then. */
  liveCallLine: line.optional(),
});
export type Neighbour = z.infer<typeof neighbourSchema>;

export const unitResponseSchema = z.strictObject({
  unit: z.strictObject({
    id: z.string(),
    symbol: z.string(),
    kind: z.enum(UNIT_KINDS),
    file: z.string(),
    line,
    endLine: line,
    doc: z.string().optional(),
    signature: z.string().optional(),
    stage: z.string().nullable(),
  }),
  /** How the stored unit stands against the file on disk now. */
  status: liveStatusSchema,
  reason: z.string().optional(),
  /**
   * Where the code stands now: the unit's own file and symbol, or, when it moved, the place the
   * resolver found its exact code; liveLine and liveEndLine are lines of liveFile. A frozen unit
   * keeps its recorded place.
   */
  liveFile: z.string(),
  liveSymbol: z.string(),
  liveLine: line,
  liveEndLine: line,
  /**
   * The content hash of the code as it stands now, as ask gives it: a locator taken from this
   * answer is judged later against the code shown, not the build's. Absent when frozen.
   */
  liveHash: z.string().optional(),
  callers: z.array(neighbourSchema),
  callees: z.array(neighbourSchema),
});
export type UnitResponse = z.infer<typeof unitResponseSchema>;

export const sourceResponseSchema = z.strictObject({ file: z.string(), text: z.string() });
export type SourceResponse = z.infer<typeof sourceResponseSchema>;

/** The library's AskResult, as `handbook ask --json` prints it. */
export const askResponseSchema = z.strictObject({
  request: z.string(),
  stager: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('offline') }),
    z.strictObject({ kind: z.literal('llm'), model: z.string(), fallbackUnits: z.number().int().nonnegative() }),
  ]),
  router: z.string().describe('offline: the deterministic router; a model spec when a model ranked the locations.'),
  locations: z.array(
    z.strictObject({
      file: z.string(),
      symbol: z.string(),
      line,
      endLine: line,
      hash: z.string(),
      stage: z.string().nullable(),
      behavior: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
      score: z.number(),
      why: z.string(),
      status: z.enum(['fresh', 'changed', 'moved']),
    }),
  ),
  frozen: z.number().int().nonnegative(),
  note: z.string().optional(),
});
export type AskResponse = z.infer<typeof askResponseSchema>;

export const graphResponseSchema = z.strictObject({
  stages: z.array(z.strictObject({ id: z.string(), name: z.string(), color: z.string().regex(/^#[0-9a-f]{6}$/) })),
  /** `behavior` is the id of the behaviour of its stage the unit belongs to, which the app clusters by. */
  nodes: z.array(z.strictObject({ id: z.string(), label: z.string(), stage: z.string().nullable(), behavior: z.string().nullable(), kind: z.enum(UNIT_KINDS), file: z.string(), line })),
  /** At most one edge per ordered pair of nodes, never a loop. */
  edges: z.array(z.strictObject({ source: z.string(), target: z.string(), kind: z.enum(EDGE_KINDS) })),
  /** Whether nodes were left out to stay under the cap. */
  truncated: z.boolean(),
});
export type GraphResponse = z.infer<typeof graphResponseSchema>;

/** `event: hello` on /api/events; generation 0 while no handbook is built. */
export const helloEventSchema = z.strictObject({ generation: z.number().int().nonnegative() });
export type HelloEvent = z.infer<typeof helloEventSchema>;

/** `event: sync` on /api/events: the handbook changed; the file lists are empty when the change came from elsewhere (a build). */
export const syncEventSchema = z.strictObject({
  generation: z.number().int().nonnegative(),
  added: z.array(z.string()),
  modified: z.array(z.string()),
  removed: z.array(z.string()),
});
export type SyncEvent = z.infer<typeof syncEventSchema>;

/** data/static.json of a static site: its presence tells the app there is no /api. */
export const staticMarkerSchema = z.strictObject({ static: z.literal(true) });
export type StaticMarker = z.infer<typeof staticMarkerSchema>;
