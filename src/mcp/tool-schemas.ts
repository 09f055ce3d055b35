import { z } from 'zod';
import { MAX_REQUEST_CHARACTERS } from '../api/ask-handbook.js';
import { SKIP_REASONS } from '../graph/model.js';
import { behaviorSchema, overviewSchema, stageSchema, stagerSchema } from '../organize/model.js';
import { editPlanSchema } from '../plan/edit-plan.js';

/**
 * What each tool takes and returns. Inputs are strict: an argument the tool does not know is a
 * mistake worth reporting, not one to ignore. Outputs mirror the CLI's `--json` shapes, plus
 * `freshness`, which says what the server re-synced before answering.
 */

const line = z.number().int().positive();

/**
 * Names a model passes back: far longer than any id or path in a repository, yet bounded, since a
 * refusal repeats the name it could not find and a runaway argument would come back whole.
 */
const name = z.string().min(1).max(1_000);
/** Linux's PATH_MAX; a longer path names no file. */
const filePath = z.string().min(1).max(4_096);
/** Content hashes are the first 16 hex digits of a SHA-256, as entry and plan give them. */
const contentHash = z.string().regex(/^[0-9a-f]{16}$/, 'expected the 16 hex digits an earlier answer gave as hash');

export const freshnessSchema = z
  .object({
    generation: z.number().int().describe('The handbook generation the answer was read from.'),
    synced: z
      .object({ added: z.array(z.string()), modified: z.array(z.string()), removed: z.array(z.string()) })
      .describe('Source files that changed on disk since the previous answer and were re-analyzed before this one; empty lists when nothing changed.'),
    frozen: z
      .array(z.object({ unit: z.string(), reason: z.string() }))
      .describe('Entries named in this answer whose code is gone from disk: do not rely on them. Normally empty, since every answer is re-synced first.'),
  })
  .describe('How current the answer is.');

const liveStatusSchema = z.enum(['fresh', 'changed', 'moved', 'frozen']);

export const askInput = z
  .object({
    request: z.string().trim().min(1).max(MAX_REQUEST_CHARACTERS).describe('A behaviour in plain words, e.g. "where are secrets masked before logging?" or "what decides when the agent loop stops?".'),
    limit: z.number().int().min(1).max(500).optional().describe('How many locations to return, best first (default 20).'),
  })
  .strict();

export const askOutput = z.object({
  request: z.string(),
  stager: stagerSchema,
  router: z.string().describe('offline: the deterministic router; a model spec when a model ranked the locations.'),
  locations: z.array(
    z.object({
      file: z.string().describe('Path from the repository root.'),
      symbol: z.string().describe('Dotted name inside the file, e.g. AgentLoop.run.'),
      line,
      endLine: line,
      hash: contentHash.describe('Content hash of the code as it stands now; pass it with file and symbol to resolve later to learn whether that code changed or moved.'),
      stage: z.string().nullable().describe('The execution stage the code belongs to.'),
      behavior: z.object({ id: z.string(), name: z.string() }).nullable().describe('The behaviour of that stage the code belongs to (read it with the behavior tool).'),
      score: z.number().describe('Relevance relative to the best location (1).'),
      why: z.string(),
      status: z.enum(['fresh', 'changed', 'moved']).describe('fresh: as the handbook has it; changed: edited since, lines are the live ones; moved: the same code now stands in another file, and file, symbol and lines say where.'),
    }),
  ),
  frozen: z.number().int().describe('Matches left out because their code is gone.'),
  note: z.string().optional().describe('Why nothing was found, when nothing was.'),
  freshness: freshnessSchema,
});

export const emptyInput = z.object({}).strict();

export const overviewOutput = overviewSchema.extend({ freshness: freshnessSchema });

/** About 10 KB of members: a page of a large harness's biggest stage (1,600 members, 200 KB whole) stays well inside what clients pass to a model. */
export const STAGE_PAGE = 100;

export const stageInput = z
  .object({
    id: name.describe('A stage id as listed by the overview tool, e.g. "agent-loop".'),
    offset: z.number().int().min(0).optional().describe('Members to skip, for the next page: the nextOffset of the previous answer (default 0).'),
    limit: z.number().int().min(1).max(500).optional().describe(`Members per page (default ${STAGE_PAGE}).`),
  })
  .strict();

/** A behaviour as a stage lists it: its members are counted here and listed by the behavior tool. */
export const behaviorSummarySchema = behaviorSchema.omit({ members: true }).extend({ memberCount: z.number().int() });

export const stageOutput = stageSchema.extend({
  behaviors: z.array(behaviorSummarySchema).describe('The stage divided into behaviours (units that work together on one thing), whole on every page; the behavior tool lists one with its members.'),
  members: stageSchema.shape.members.describe('One page of the members, behaviour by behaviour (primary members in the order of behaviors, then the secondary ones): offset, then up to limit of them.'),
  entryPoints: stageSchema.shape.entryPoints.describe("The members of this page that other stages call."),
  exits: stageSchema.shape.exits.describe('The members of this page that call into other stages.'),
  memberCount: z.number().int().describe('Members of the whole stage.'),
  entryPointCount: z.number().int(),
  exitCount: z.number().int(),
  nextOffset: z.number().int().optional().describe('Present when more members follow: pass it as offset for the next page.'),
  stager: stagerSchema,
  freshness: freshnessSchema,
});

export const behaviorInput = z
  .object({ id: name.describe('A behaviour id as the stage tool lists it, e.g. "tool-execution/shell-output-capture".') })
  .strict();

export const behaviorOutput = behaviorSchema.extend({
  stage: z.string().describe('The id of the stage it belongs to.'),
  stager: stagerSchema,
  freshness: freshnessSchema,
});

const liveStatusWords = 'fresh: its code is as the handbook has it (its lines may have shifted); changed: edited since; moved: the same code now stands at file and symbol; frozen: gone from disk, reason says why.';

/**
 * A listed unit (a caller, a callee, a writer, a reader) where its code stands now, as entry's own
 * locator is: an answer read from a handbook behind the disk still points at the live code.
 */
const livePlaceShape = {
  file: z.string().describe('The file that holds its code now: the one it moved to when moved, the one it was in when frozen.'),
  symbol: z.string().describe('Its name in that file: a moved unit may have a new one.'),
  line: line.optional().describe('Where the unit starts now, in file. Absent when frozen: the code is gone.'),
  endLine: line.optional().describe('Where it ends now. Absent when frozen.'),
  status: liveStatusSchema.describe(liveStatusWords),
  reason: z.string().optional(),
};

const accessSchema = z.object({
  unit: z.string(),
  ...livePlaceShape,
  at: z
    .array(line)
    .optional()
    .describe("Lines where it writes or reads the state now, in its own code. Absent when that code changed since the build or is gone, as no line of the build's says where the access stands then."),
});

/** About 25 KB: the 334 pieces of state gemini-cli-core's stages share ran to 75 KB in one answer. */
export const REGISTER_PAGE = 100;

/**
 * About 10 KB a list, 20 KB for both: a logger's 388 readers ran to 37 KB in one register answer,
 * and a heavily called unit's callers to tens of KB in one entry answer.
 */
export const RELATION_PAGE = 100;

export const registerInput = z
  .object({
    slot: name.optional().describe('One piece of state, with every unit that writes and reads it: a slot id (src/config.ts#HarnessConfig.approvalMode) or Owner.field. Refused together with stage.'),
    stage: name.optional().describe('Without slot: only the state this stage shares with other stages. A stage id from the overview tool.'),
    offset: z.number().int().min(0).optional().describe('Pieces of state to skip, or with slot writers and readers to skip (each list alike), for the next page: the nextOffset of the previous answer (default 0).'),
    limit: z.number().int().min(1).max(500).optional().describe(`Pieces of state per page (default ${REGISTER_PAGE}), or with slot writers and readers per page, each list alike (default ${RELATION_PAGE}).`),
  })
  .strict();

export const registerOutput = z.object({
  stager: stagerSchema,
  slots: z.array(
    z.object({
      slot: z.string().describe('path/to/file.ts#Owner.field, or the unit id of a module variable.'),
      kind: z.string(),
      type: z.string(),
      file: z.string().describe('The file that declares it now: the one the code holding the declaration (the module variable, or the class, interface or type that owns it) moved to when moved, the one it was in when frozen.'),
      line: line.optional().describe("Where it is declared now. Absent when the code holding the declaration changed since the build (an edit inside may have moved it) or is gone: no line of the build's says where it stands then."),
      status: liveStatusSchema.describe(`The code holding the declaration. ${liveStatusWords}`),
      reason: z.string().optional(),
      stages: z.array(z.string()).describe('Stages whose units touch this state: a change to it reaches all of them.'),
      writerCount: z.number().int().describe('Units that write it, in all.'),
      readerCount: z.number().int().describe('Units that read it, in all.'),
      writers: z.array(accessSchema).optional().describe('With slot: one page of the units that write it, each where its code stands now, with the lines of the writes.'),
      readers: z.array(accessSchema).optional().describe('With slot: one page of the units that read it, each where its code stands now, with the lines of the reads.'),
    }),
  ),
  slotCount: z.number().int().describe('Pieces of state in the whole answer, of which slots is one page.'),
  nextOffset: z.number().int().optional().describe('Present when more pieces of state follow, or with slot more writers or readers: pass it as offset for the next page.'),
  freshness: freshnessSchema,
});

export const entryInput = z
  .object({
    unit: name.describe('A unit id (src/agent/loop.ts#AgentLoop.run) or a symbol that names exactly one unit (AgentLoop.run, maskSecrets).'),
    offset: z.number().int().min(0).optional().describe('Callers and callees to skip (each list alike), for the next page: the nextOffset of the previous answer (default 0).'),
    limit: z.number().int().min(1).max(500).optional().describe(`Callers and callees per page, each list alike (default ${RELATION_PAGE}).`),
  })
  .strict();

/** A caller or callee where its code stands now. */
const neighbourSchema = z.object({
  id: z.string(),
  ...livePlaceShape,
  at: z
    .array(line)
    .optional()
    .describe("Lines where the call is now: in the caller's code for a caller, in this unit's code for a callee. Absent when that code changed since the build or is gone, as no line of the build's says where the call stands then."),
  via: z.enum(['direct', 'dispatch']).optional().describe('dispatch: the call goes through an interface or an override.'),
});

export const entryOutput = z.object({
  unit: z.object({
    id: z.string(),
    kind: z.string(),
    file: z.string(),
    symbol: z.string(),
    line,
    endLine: line,
    hash: contentHash.optional().describe('Content hash of the code as it stands now, at line to endLine; pass it to resolve later to learn whether that code changed or moved. Absent when frozen: the code is gone.'),
    signature: z.string(),
    doc: z.string(),
    exported: z.boolean(),
    status: liveStatusSchema.describe('fresh: the code is as the handbook has it; changed: edited since, lines are the live ones; moved: the same code now stands in another file, and file, symbol and lines say where; frozen: gone from disk.'),
    reason: z.string().optional(),
  }),
  stage: z.string().nullable().describe('The stage the unit mainly belongs to; null when no stage claimed it.'),
  alsoIn: z.array(z.string()).describe('Other stages the unit takes part in.'),
  callers: z.array(neighbourSchema).describe('One page of the units that call it.'),
  callees: z.array(neighbourSchema).describe('One page of the units it calls.'),
  callerCount: z.number().int().describe('Units that call it, in all.'),
  calleeCount: z.number().int().describe('Units it calls, in all.'),
  nextOffset: z.number().int().optional().describe('Present when more callers or callees follow: pass it as offset for the next page.'),
  freshness: freshnessSchema,
});

export const resolveInput = z
  .object({
    file: filePath.describe('Path from the repository root, as an earlier answer gave it.'),
    symbol: name.describe('Dotted name inside the file, e.g. AgentLoop.run.'),
    hash: contentHash.optional().describe('The hash the earlier answer gave (ask, entry and plan return it). With it a change is told apart from no change, and a move to another place is followed.'),
  })
  .strict();

export const resolveOutput = z.object({
  file: z.string(),
  symbol: z.string(),
  status: liveStatusSchema.describe('fresh: the code is there as given; changed: the symbol is there but its code differs from the hash; moved: the same code now stands elsewhere (see movedTo); frozen: it is gone.'),
  line: line.optional(),
  endLine: line.optional(),
  hash: z.string().optional().describe('The live code hash.'),
  movedTo: z.object({ file: z.string(), symbol: z.string(), line, endLine: line }).optional(),
  reason: z.string().optional(),
  freshness: freshnessSchema,
});

export const planInput = z
  .object({ request: z.string().trim().min(1).max(MAX_REQUEST_CHARACTERS).describe('The change wanted, in plain words, e.g. "mask secrets in every capture path".') })
  .strict();

export const planOutput = z.object({
  plan: editPlanSchema,
  files: z.object({ json: z.string(), markdown: z.string() }).describe('Where the plan was saved.'),
  freshness: freshnessSchema,
});

export const statusOutput = z.object({
  root: z.string(),
  builtAt: z.string(),
  builtCommit: z.string().nullable(),
  head: z.string().nullable(),
  counts: z.object({ fresh: z.number().int(), changed: z.number().int(), moved: z.number().int(), frozen: z.number().int() }),
  frozen: z.array(z.object({ unit: z.string(), reason: z.string() })),
  changed: z.array(z.string()),
  moved: z.array(z.object({ unit: z.string(), to: z.string() })),
  newFiles: z.array(z.string()),
  newUnits: z.array(z.string()),
  editedFiles: z.array(z.string()),
  goneFiles: z.array(z.string()),
  skipped: z.array(z.object({ file: z.string(), reason: z.enum(SKIP_REASONS) })),
  compilerSettings: z.string().nullable(),
  projectChanged: z.boolean(),
  fresh: z.boolean(),
  acceptance: z.array(z.object({ runId: z.string(), file: z.string(), valid: z.boolean(), changed: z.array(z.string()), unreadable: z.string().optional() })),
  freshness: freshnessSchema,
});
