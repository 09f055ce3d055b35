import { z } from 'zod';
import { HandbookError } from '../errors.js';
import { quoted } from '../text/quoted.js';

export const stagerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('offline') }),
  z.object({
    kind: z.literal('llm'),
    model: z.string(),
    /** Units the model left unassigned or answered badly for, assigned by the offline stager instead. */
    fallbackUnits: z.number().int().nonnegative(),
  }),
]);
/** Which stager produced a handbook: every output says it, so offline is never mistaken for a model. */
export type Stager = z.infer<typeof stagerSchema>;

export const stageMemberSchema = z.object({
  unit: z.string(),
  /** Strength of the assignment, 0..1, comparable within a handbook. */
  score: z.number(),
  /** The unit's main stage; a unit may also belong to other stages as a secondary member. */
  primary: z.boolean(),
});
export type StageMember = z.infer<typeof stageMemberSchema>;

/** A behaviour: units of one stage that work together on one thing, found offline from the graph (see behaviors.ts). */
export const behaviorSchema = z.object({
  /** `stage/words`, unique in the handbook. */
  id: z.string(),
  /** The words that set it apart from the stage's other behaviours. */
  name: z.string(),
  summary: z.string(),
  /** Unit ids, sorted; every primary member of the stage is in exactly one behaviour. */
  members: z.array(z.string()),
  /** Members called from outside the behaviour. */
  entryPoints: z.array(z.string()),
  files: z.array(z.string()),
  /** Register slots its members write, and those they only read. */
  writes: z.array(z.string()),
  reads: z.array(z.string()),
});
export type Behavior = z.infer<typeof behaviorSchema>;

export const stageSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  summary: z.string(),
  /** 0-based place along the harness's execution. */
  position: z.number().int().nonnegative(),
  members: z.array(stageMemberSchema),
  /** Members called from units of other stages. */
  entryPoints: z.array(z.string()),
  /** Members that call into other stages. */
  exits: z.array(z.string()),
  /** The primary members divided into behaviours, in the order of their first member. */
  behaviors: z.array(behaviorSchema).default([]),
});
export type Stage = z.infer<typeof stageSchema>;

export const overviewSchema = z.object({
  title: z.string(),
  description: z.string(),
  stager: stagerSchema,
  /** `behaviors` is 0 in a handbook stored before behaviours were found (until its next sync). */
  stages: z.array(z.object({ id: z.string(), name: z.string(), line: z.string(), members: z.number().int(), behaviors: z.number().int().default(0) })),
  entryPoints: z.array(z.string()),
  couplingSlots: z.array(z.object({ slot: z.string(), stages: z.array(z.string()), writers: z.number().int(), readers: z.number().int() })),
  counts: z.object({ files: z.number().int(), units: z.number().int(), assigned: z.number().int(), unassigned: z.number().int(), slots: z.number().int(), registerSlots: z.number().int() }),
});
export type Overview = z.infer<typeof overviewSchema>;

/** The organized handbook: stages in execution order, the units no stage claimed, and the overview. */
export interface OrganizedHandbook {
  stager: Stager;
  stages: Stage[];
  unassigned: string[];
  overview: Overview;
}

/** The behaviour with this id, and its stage; the refusal names the stage's behaviours when the stage part is right, else the stages. */
export function behaviorById(organized: OrganizedHandbook, id: string): { stage: Stage; behavior: Behavior } {
  for (const stage of organized.stages) {
    const behavior = stage.behaviors.find((candidate) => candidate.id === id);
    if (behavior) return { stage, behavior };
  }
  const stage = organized.stages.find((candidate) => id.startsWith(`${candidate.id}/`));
  const hint = stage
    ? `behaviours of ${stage.id}: ${stage.behaviors.map((candidate) => candidate.id).join(', ') || 'none (run `handbook sync` to find them)'}`
    : `a behaviour id is STAGE/NAME, as \`handbook stage STAGE\` lists them; stages: ${organized.stages.map((candidate) => candidate.id).join(', ')}`;
  throw new HandbookError('BEHAVIOR_NOT_FOUND', `no behaviour ${quoted(id)}`, hint);
}

/** The stage with this id; the refusal names the stages there are, so whoever asked can pick one. */
export function stageById(organized: OrganizedHandbook, id: string): Stage {
  const stage = organized.stages.find((candidate) => candidate.id === id);
  if (!stage) throw new HandbookError('STAGE_NOT_FOUND', `no stage ${quoted(id)}`, `stages: ${organized.stages.map((candidate) => candidate.id).join(', ')}`);
  return stage;
}

export interface StateAccessRecord {
  unit: string;
  lines: number[];
}

/** One register row: a piece of shared state with everyone who writes and reads it, and the stages it couples. */
export interface RegisterEntry {
  slot: string;
  kind: string;
  owner: string;
  type: string;
  file: string;
  line: number;
  writers: StateAccessRecord[];
  readers: StateAccessRecord[];
  stages: string[];
}
