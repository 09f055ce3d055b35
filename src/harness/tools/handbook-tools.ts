import { z } from 'zod';
import { HandbookError } from '../../errors.js';
import type { Unit } from '../../graph/model.js';
import type { Neighbour, StateAccess } from '../../graph/program-graph.js';
import { type LiveUnit, liveUnitsOf } from '../../locate/live-file-units.js';
import { liveDeclarationOf } from '../../locate/live-declaration.js';
import { livePlacesOf, liveSpotOf } from '../../locate/live-place.js';
import type { LiveResolver, ResolvedLocation } from '../../locate/live-resolver.js';
import { type Stage, type StageMember, stageById } from '../../organize/model.js';
import type { HandbookView, ToolContext } from '../tool-context.js';
import type { ToolContract, ToolOutput } from '../tool-contract.js';
import { declarationPhrase, idPhrase, liveLinesPhrase, ownLinesPhrase, placePhrase } from './place-phrases.js';

/**
 * The planner's navigation tools: the handbook's stages, units, call graph and state register,
 * read-only. `entry` hands out the locator a plan cites, taken from the live file so that a
 * handbook behind the code cannot give the planner a stale one; every other place they print (a
 * unit's lines, its callers', callees' and state accessors', the lines of a call, where a piece of
 * state is declared) is the live one too, since the planner reads and cites what it is shown.
 */

const LISTED_MEMBERS = 80;
const LISTED_NEIGHBOURS = 40;
/** Callers and callees that entry names by id; callers and callees list up to LISTED_NEIGHBOURS with their places. */
const LISTED_IDS = 8;

/** What every navigation tool shares: it only reads, so it may run again and needs no approval. */
const READ_ONLY = { effect: 'read', repeatSafe: true, timeoutMs: 20_000, retries: 1, approval: 'auto' } as const;

const unitInput = z.object({ unit: z.string().trim().min(1).describe('a unit id (path/to/file.ts#Class.method), a file path, or a symbol that names one unit') }).strict();

const overviewInput = z.object({}).strict();

export const overviewTool: ToolContract<z.output<typeof overviewInput>, ToolContext> = {
  name: 'overview',
  description: "The handbook's map of the repository: its execution stages in order, each with a summary and its entry points, and the state shared across stages. Start here.",
  input: overviewInput,
  ...READ_ONLY,
  run: async (_input, context) =>
    withHandbook(context, (handbook) => {
      const { overview, stages } = handbook.organized;
      const peopled = stages.filter((stage) => primaryMembers(stage).length > 0);
      const empty = stages.filter((stage) => primaryMembers(stage).length === 0);
      const lines = [`${overview.title}${overview.description ? `: ${overview.description}` : ''}`, '', 'Stages in execution order (stage {"id": ...} lists one):'];
      for (const stage of peopled) {
        const count = primaryMembers(stage).length;
        lines.push(`${stage.position + 1}. ${stage.id}: ${stage.name} (${count} unit${count === 1 ? '' : 's'}). ${stage.summary}`);
        if (stage.entryPoints.length > 0) lines.push(`   entry points: ${stage.entryPoints.join(', ')}`);
      }
      if (empty.length > 0) lines.push(`Stages with no units here: ${empty.map((stage) => stage.id).join(', ')}`);
      lines.push(`Units in no stage: ${overview.counts.unassigned} of ${overview.counts.units}`);
      if (overview.couplingSlots.length > 0) {
        lines.push('State shared across stages (state {"slot": ...} shows who writes and reads it):');
        for (const slot of overview.couplingSlots) lines.push(`- ${slot.slot}: stages ${slot.stages.join(', ')}; ${slot.writers} writer(s), ${slot.readers} reader(s)`);
      }
      return { ok: true, content: lines.join('\n'), data: { stages: peopled.length } };
    }),
};

const stageInput = z.object({ id: z.string().trim().min(1).describe('a stage id from overview') }).strict();

export const stageTool: ToolContract<z.output<typeof stageInput>, ToolContext> = {
  name: 'stage',
  description: 'One execution stage: its summary, entry points, exits, and every unit in it with its file and lines.',
  input: stageInput,
  ...READ_ONLY,
  run: async (input, context) =>
    withHandbook(context, (handbook) =>
      resolving(async () => {
        const stage = stageById(handbook.organized, input.id);
        const members = primaryMembers(stage);
        const lines = [`${stage.position + 1}. ${stage.id}: ${stage.name}`, stage.summary];
        if (stage.entryPoints.length > 0) lines.push(`entry points (called from other stages): ${stage.entryPoints.join(', ')}`);
        if (stage.exits.length > 0) lines.push(`exits (call into other stages): ${stage.exits.join(', ')}`);
        lines.push(`units: ${members.length}`);
        const listed = members.slice(0, LISTED_MEMBERS).flatMap((member) => handbook.graph.getUnit(member.unit) ?? []);
        for (const { listed: { unit }, live } of await livePlacesOf(listed.map((unit) => ({ unit })), handbook.liveResolver())) {
          lines.push(`- ${unit.id} (${unit.kind}, ${ownLinesPhrase(unit, live)})`);
        }
        if (members.length > LISTED_MEMBERS) lines.push(`(${members.length - LISTED_MEMBERS} more: search narrows them down)`);
        return { ok: true, content: lines.join('\n'), data: { stage: stage.id, units: members.length } };
      }),
    ),
};

export const entryTool: ToolContract<z.output<typeof unitInput>, ToolContext> = {
  name: 'entry',
  description:
    "One unit of code: its file and lines, kind, signature, doc, stage, callers and callees, the state it touches, and the locator a plan must cite for it (file, symbol, line, endLine, hash), read from the live file. For a file, the locators of every unit in it.",
  input: unitInput,
  ...READ_ONLY,
  run: async (input, context) =>
    withUnit(context, input.unit, async (handbook, unit) => {
      if (unit.kind === 'file') return fileEntry(handbook, unit);
      const resolver = handbook.liveResolver();
      const live = liveLocator(unit, await resolver.resolve(unit));
      const callers = handbook.graph.callers(unit.id);
      const callees = handbook.graph.callees(unit.id);
      const at = 'gone' in live ? `was at ${unit.file}:${unit.startLine}-${unit.endLine} when the handbook was built` : `at ${live.locator.file}:${live.locator.line}-${live.locator.endLine}`;
      const lines = [`${unit.id} (${unit.kind}${unit.exported ? ', exported' : ''}), stage ${stageOf(handbook, unit.id) ?? 'none'}`, at];
      if (unit.signature) lines.push(`signature: ${unit.signature}`);
      if (unit.doc) lines.push(`doc: ${unit.doc}`);
      lines.push(`callers: ${await idsOf(callers, resolver)}`, `callees: ${await idsOf(callees, resolver)}`);
      const writes = handbook.graph.outEdges(unit.id, 'writes').map((edge) => edge.to);
      const reads = handbook.graph.outEdges(unit.id, 'reads').map((edge) => edge.to);
      if (writes.length > 0) lines.push(`writes state: ${writes.join(', ')}`);
      if (reads.length > 0) lines.push(`reads state: ${reads.join(', ')}`);
      if ('gone' in live) {
        lines.push(live.gone);
        return { ok: false, content: lines.join('\n'), rule: 'stale-handbook' };
      }
      if (live.moved) lines.push(`${live.moved}: the locator below is the live one`);
      else if (live.locator.hash !== unit.hash || live.locator.line !== unit.startLine || live.locator.endLine !== unit.endLine) {
        lines.push('the file changed since the handbook was built: the locator below is the live one');
      }
      lines.push(`locator (cite it exactly): ${JSON.stringify(live.locator)}`);
      return { ok: true, content: lines.join('\n'), data: { locator: live.locator } };
    }),
};

export const callersTool: ToolContract<z.output<typeof unitInput>, ToolContext> = {
  name: 'callers',
  description: 'The units that call a unit, each with where it is, its stage and the lines of the calls.',
  input: unitInput,
  ...READ_ONLY,
  run: async (input, context) =>
    withUnit(context, input.unit, async (handbook, unit) => {
      const callers = handbook.graph.callers(unit.id);
      const listed = await livePlacesOf(callers.slice(0, LISTED_NEIGHBOURS), handbook.liveResolver());
      // The call lines lie in each caller's code, so they move with it.
      const rows = listed.map(({ listed: caller, live }) => `${neighbourLine(handbook, caller, live)}: calls it ${liveLinesPhrase(caller.lines, caller.unit, live)}`);
      return { ok: true, content: listing(`callers of ${unit.id}`, rows, callers.length), data: { count: callers.length } };
    }),
};

export const calleesTool: ToolContract<z.output<typeof unitInput>, ToolContext> = {
  name: 'callees',
  description: 'The units of the repository a unit calls, each with where it is, its stage and the lines of the calls.',
  input: unitInput,
  ...READ_ONLY,
  run: async (input, context) =>
    withUnit(context, input.unit, async (handbook, unit) => {
      const callees = handbook.graph.callees(unit.id);
      const resolver = handbook.liveResolver();
      const [own, listed] = await Promise.all([resolver.resolve(unit), livePlacesOf(callees.slice(0, LISTED_NEIGHBOURS), resolver)]);
      // The call lines lie in this unit's own code, so they move with it, not with the callee; the title says where it went.
      const rows = listed.map(({ listed: callee, live }) => `${neighbourLine(handbook, callee, live)}: called ${liveLinesPhrase(callee.lines, unit, own)}`);
      const title = `callees of ${unit.id}${own.status === 'moved' || own.status === 'frozen' ? ` (${placePhrase(unit, own)})` : ''}`;
      return { ok: true, content: listing(title, rows, callees.length), data: { count: callees.length } };
    }),
};

const stateInput = z.object({ slot: z.string().trim().min(1).describe('a slot id (path/to/file.ts#Owner.field) or Owner.field') }).strict();

export const stateTool: ToolContract<z.output<typeof stateInput>, ToolContext> = {
  name: 'state',
  description: `One piece of state (a field, property or module variable): its type, the stages it couples, and the units that write or read it (the first ${LISTED_NEIGHBOURS} of each, with the whole counts).`,
  input: stateInput,
  ...READ_ONLY,
  run: async (input, context) =>
    withHandbook(context, (handbook) =>
      resolving(async () => {
        const slot = handbook.graph.getSlotOrThrow(input.slot);
        const entry = handbook.register.find((candidate) => candidate.slot === slot.id);
        const resolver = handbook.liveResolver();
        // A logger or a config field has hundreds of readers; each answer goes into the model's context.
        const access = async (list: readonly StateAccess[]): Promise<string[]> =>
          (await livePlacesOf(list.slice(0, LISTED_NEIGHBOURS), resolver)).map(
            ({ listed: { unit, lines }, live }) => `- ${unit.id} (${placePhrase(unit, live)}, stage ${stageOf(handbook, unit.id) ?? 'none'}) ${liveLinesPhrase(lines, unit, live)}`,
          );
        const writers = handbook.graph.writers(slot.id);
        const readers = handbook.graph.readers(slot.id);
        const { declared } = await liveDeclarationOf(slot, (id) => handbook.graph.getUnit(id), resolver);
        const lines = [
          `${slot.id} (${slot.kind}${slot.type ? `: ${slot.type}` : ''}), ${declarationPhrase(declared)}`,
          `couples stages: ${entry && entry.stages.length > 0 ? entry.stages.join(', ') : 'none'}`,
          listing('writers', await access(writers), writers.length),
          listing('readers', await access(readers), readers.length),
        ];
        return { ok: true, content: lines.join('\n'), data: { slot: slot.id, writers: writers.length, readers: readers.length } };
      }, 'the overview lists state shared across stages; entry shows the state a unit touches'),
    ),
};

export const HANDBOOK_TOOLS = [overviewTool, stageTool, entryTool, callersTool, calleesTool, stateTool];

async function withHandbook(context: ToolContext, work: (handbook: HandbookView) => ToolOutput | Promise<ToolOutput>): Promise<ToolOutput> {
  if (!context.handbook) return { ok: false, content: 'this run has no handbook to navigate: use list_files and read_file', rule: 'no-handbook' };
  return work(context.handbook);
}

async function withUnit(context: ToolContext, reference: string, work: (handbook: HandbookView, unit: Unit) => Promise<ToolOutput>): Promise<ToolOutput> {
  return withHandbook(context, (handbook) => resolving(() => work(handbook, handbook.graph.getUnitOrThrow(reference)), 'search and stage list units by id; pass one of those ids'));
}

/**
 * A unit, slot or stage the handbook cannot name is the model's to fix: it is told why, and how to
 * find one; without a hint of the tool's, the error's own (the stages there are) says it.
 */
async function resolving(work: () => ToolOutput | Promise<ToolOutput>, hint?: string): Promise<ToolOutput> {
  try {
    return await work();
  } catch (error) {
    if (!HandbookError.isInstance(error)) throw error;
    return { ok: false, content: hint === undefined ? `${error.message} (${error.hint})` : `${error.message}: ${hint}`, rule: error.code === 'UNIT_AMBIGUOUS' ? 'ambiguous' : 'not-found' };
  }
}

async function fileEntry(handbook: HandbookView, file: Unit): Promise<ToolOutput> {
  const units = handbook.graph.unitsOfFile(file.file).filter((unit) => unit.kind !== 'file');
  const live = await liveUnits(handbook, file.file);
  const lines = [`${file.file} (file, ${file.endLine} lines): a plan cites the units in it, not the file`];
  if (file.doc) lines.push(`doc: ${file.doc}`);
  if (typeof live === 'string') return { ok: false, content: [...lines, live].join('\n'), rule: 'stale-handbook' };
  lines.push(`units: ${live.length}`);
  for (const unit of live) {
    const known = units.find((candidate) => candidate.symbol === unit.symbol);
    lines.push(`- ${known ? `${known.kind} ` : ''}${JSON.stringify({ file: file.file, symbol: unit.symbol, line: unit.startLine, endLine: unit.endLine, hash: unit.hash })}`);
  }
  return { ok: true, content: lines.join('\n'), data: { units: live.length } };
}

/** The file's units as it is now, or why it holds none, read as the handbook's build reads it. */
async function liveUnits(handbook: HandbookView, file: string): Promise<LiveUnit[] | string> {
  const live = await liveUnitsOf(handbook.readSource, file);
  return 'units' in live ? [...live.units.values()] : `${live.gone}: a plan cannot cite it`;
}

/**
 * Where the unit's code stands now, as the shared live resolver judges it: a unit moved with its
 * code unchanged is cited at its new place, and only code that is gone leaves nothing to cite.
 */
function liveLocator(unit: Unit, live: ResolvedLocation): { locator: { file: string; symbol: string; line: number; endLine: number; hash: string }; moved?: string } | { gone: string } {
  // In the resolver's words, which the plan gate and status use too.
  if (live.status === 'frozen') return { gone: `${live.reason ?? `${unit.symbol} is no longer in ${unit.file}`}: a plan cannot cite it` };
  const at = liveSpotOf(unit, live);
  return { locator: { ...at, line: live.line, endLine: live.endLine, hash: live.hash }, ...(live.movedTo && live.reason ? { moved: live.reason } : {}) };
}

const primaryStages = new WeakMap<HandbookView, Map<string, string>>();

function stageOf(handbook: HandbookView, unitId: string): string | undefined {
  let stages = primaryStages.get(handbook);
  if (!stages) {
    stages = new Map(handbook.organized.stages.flatMap((stage) => primaryMembers(stage).map((member) => [member.unit, stage.id] as const)));
    primaryStages.set(handbook, stages);
  }
  return stages.get(unitId);
}

function primaryMembers(stage: Stage): StageMember[] {
  return stage.members.filter((member) => member.primary);
}

function neighbourLine(handbook: HandbookView, { unit, via }: Neighbour, live: ResolvedLocation): string {
  return `- ${unit.id} (${placePhrase(unit, live)}, stage ${stageOf(handbook, unit.id) ?? 'none'}${via === 'dispatch' ? ', through an interface or override' : ''})`;
}

async function idsOf(neighbours: readonly Neighbour[], resolver: LiveResolver): Promise<string> {
  if (neighbours.length === 0) return 'none';
  const shown = (await livePlacesOf(neighbours.slice(0, LISTED_IDS), resolver)).map(({ listed, live }) => idPhrase(listed.unit, live));
  return `${neighbours.length}: ${shown.join(', ')}${neighbours.length > shown.length ? ', …' : ''}`;
}

/** The rows given are the first of `total`, the ones worth their place in the model's context. */
function listing(title: string, rows: readonly string[], total: number): string {
  if (total === 0) return `${title}: none in the repository's own code`;
  const more = total > rows.length ? [`(${total - rows.length} more not shown)`] : [];
  return [`${title}: ${total}`, ...rows, ...more].join('\n');
}
