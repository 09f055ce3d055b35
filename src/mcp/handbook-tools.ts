import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { askHandbook } from '../api/ask-handbook.js';
import { handbookStatus } from '../api/handbook-status.js';
import { liveResolverOf } from '../api/live-resolution.js';
import { HandbookError } from '../errors.js';
import type { Unit } from '../graph/model.js';
import type { Neighbour, StateAccess } from '../graph/program-graph.js';
import { type LiveDeclaration, liveDeclarationOf } from '../locate/live-declaration.js';
import { type LivePlace, livePlaceJson, livePlacesOf, liveLinesOf, liveSpotOf } from '../locate/live-place.js';
import type { ResolvedLocation } from '../locate/live-resolver.js';
import { behaviorById, type RegisterEntry, type StageMember, type StateAccessRecord, stageById } from '../organize/model.js';
import type { FreshHandbook, FreshView } from './fresh-handbook.js';
import { resolveLocator } from './resolve-locator.js';
import * as schemas from './tool-schemas.js';

type ObjectSchema = z.ZodObject;

interface ToolDefinition<Input extends ObjectSchema, Output extends ObjectSchema> {
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: ToolAnnotations;
  /** The answer and one line saying what it holds, for clients that show text. */
  run: (args: z.output<Input>, view: FreshView) => Promise<{ summary: string; value: z.input<Output> }>;
}

const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** Registers the eight tools; each answers from a handbook synced with the disk just before. */
export function registerHandbookTools(server: McpServer, fresh: FreshHandbook, log: (line: string) => void): void {
  const define = <Input extends ObjectSchema, Output extends ObjectSchema>(name: string, tool: ToolDefinition<Input, Output>): void => {
    const inputSchema: ObjectSchema = tool.input;
    server.registerTool(
      name,
      { title: tool.title, description: tool.description, inputSchema, outputSchema: tool.output, annotations: tool.annotations },
      // The SDK has parsed the arguments with `input` already; its callback type only loses track of which object schema that was.
      (args) =>
        answerSafely(name, log, () =>
          fresh.answer(async (view) => {
            const { summary, value } = await tool.run(args as z.output<Input>, view);
            const structured = tool.output.parse(value) as Record<string, unknown>;
            // Clients that read only text get the same answer as JSON after the line for a person.
            return { content: [{ type: 'text', text: `${summary}${syncedNote(view)}\n\n${JSON.stringify(structured)}` }], structuredContent: structured };
          }),
        ),
    );
  };

  define('ask', {
    title: 'Find where a behaviour is implemented',
    description:
      'Find every place in this repository that implements a behaviour. Give a request in plain words ("where are secrets masked before logging?", "what stops the agent loop?"); get the matching code ranked best first, each with file, symbol, start and end line, content hash, the execution stage it belongs to, and why it matched. Every location is checked against the files on disk before it is returned. Use this first when you need to know where to look; then call entry on a location for its callers and callees. Keep the hash: resolve with file, symbol and hash tells you later whether that code changed or moved.',
    input: schemas.askInput,
    output: schemas.askOutput,
    annotations: READS,
    run: async ({ request, limit }, view) => {
      const result = await askHandbook(view.root, request, { ...view.database, ...(limit === undefined ? {} : { limit }) });
      const top = result.locations.slice(0, 3).map((location) => `${location.file}:${location.line} ${location.symbol}`);
      const summary = result.locations.length === 0 ? `nothing found: ${result.note ?? 'no match'}` : `${result.locations.length} locations, best: ${top.join('; ')}`;
      return { summary, value: { ...result, freshness: await view.freshness() } };
    },
  });

  define('overview', {
    title: 'Overview of the codebase',
    description:
      'What this codebase is and how it runs, as the handbook has organized it: its title and description, its execution stages in order (id, name, one line each, number of members), its entry points (exported code nothing else calls), and the shared state that couples stages. Start here when the codebase is new to you; pass a stage id to the stage tool to see that stage\'s code.',
    input: schemas.emptyInput,
    output: schemas.overviewOutput,
    annotations: READS,
    run: async (_args, view) => {
      const { overview } = view.handbook().organized;
      return {
        summary: `${overview.title}: ${overview.stages.length} stages (${overview.stages.map((stage) => stage.id).join(', ')}), ${overview.entryPoints.length} entry points`,
        value: { ...overview, freshness: await view.freshness(overview.entryPoints) },
      };
    },
  });

  define('stage', {
    title: 'One execution stage',
    description:
      `One execution stage of the codebase: its summary, its members (units of code by id, each primary or secondary with a score), the members other stages call into (entryPoints) and the members that call into other stages (exits). A large stage comes in pages of members (${schemas.STAGE_PAGE} by default, with the counts of the whole stage); pass nextOffset back as offset for the next. Stage ids come from the overview tool. Unit ids look like src/path/file.ts#Class.method; pass one to entry for its location and relations.`,
    input: schemas.stageInput,
    output: schemas.stageOutput,
    annotations: READS,
    run: async ({ id, offset = 0, limit = schemas.STAGE_PAGE }, view) => {
      const { organized } = view.handbook();
      const stage = stageById(organized, id);
      const ordered = membersByBehavior(stage.members, stage.behaviors);
      // Entry points and exits are members too, so each page names only its own: a page stays bounded and reads whole.
      const members = ordered.slice(offset, offset + limit);
      const onPage = new Set(members.map((member) => member.unit));
      // In the page's order, so the pages read in turn give the whole stage's lists.
      const entered = new Set(stage.entryPoints);
      const leaving = new Set(stage.exits);
      const entryPoints = members.map((member) => member.unit).filter((unit) => entered.has(unit));
      const exits = members.map((member) => member.unit).filter((unit) => leaving.has(unit));
      const next = offset + members.length < stage.members.length ? offset + members.length : undefined;
      const page = members.length === stage.members.length ? '' : members.length === 0 ? `; no members past ${stage.members.length}` : `; members ${offset + 1}-${offset + members.length} here${next === undefined ? '' : `, offset ${next} for more`}`;
      return {
        summary: `stage ${stage.position + 1} "${stage.name}" (${stage.id}): ${stage.members.filter((member) => member.primary).length} members, ${stage.entryPoints.length} entry points${page}`,
        value: {
          stager: organized.stager, ...stage, members, entryPoints, exits,
          behaviors: stage.behaviors.map(({ members: units, ...behavior }) => ({ ...behavior, memberCount: units.length })),
          memberCount: stage.members.length, entryPointCount: stage.entryPoints.length, exitCount: stage.exits.length,
          ...(next === undefined ? {} : { nextOffset: next }),
          freshness: await view.freshness(onPage),
        },
      };
    },
  });

  define('behavior', {
    title: 'One behaviour of a stage',
    description:
      'One behaviour of an execution stage: units of code that work together on one thing (found offline from calls, shared state and files, and named from their words), with a summary, its members (unit ids), the members called from outside it (entryPoints), the state it writes and reads (register slots) and its files. Behaviour ids come from the stage tool. Pass a member id to entry for its location and relations.',
    input: schemas.behaviorInput,
    output: schemas.behaviorOutput,
    annotations: READS,
    run: async ({ id }, view) => {
      const { organized } = view.handbook();
      const { stage, behavior } = behaviorById(organized, id);
      return {
        summary: `behaviour "${behavior.name}" (${behavior.id}) of stage ${stage.id}: ${behavior.members.length} members, ${behavior.entryPoints.length} entry points`,
        value: { stager: organized.stager, stage: stage.id, ...behavior, freshness: await view.freshness(new Set(behavior.members)) },
      };
    },
  });

  define('entry', {
    title: 'One unit of code with its callers and callees',
    description:
      `One unit of code (function, method, class, interface, variable, ...): its locator (file, symbol, line, endLine, hash), kind, signature, doc comment, the stage it belongs to, the units that call it and the units it calls, each where its code stands now (file, symbol, line, endLine and status, as for the unit itself; a frozen one has no lines), with the lines of each call. A heavily called unit's callers and callees come in pages (${schemas.RELATION_PAGE} of each by default, with callerCount and calleeCount); pass nextOffset back as offset for the next. Pass a unit id as other answers give it (src/agent/loop.ts#AgentLoop.run) or a symbol that names exactly one unit (AgentLoop.run). Keep the hash: resolve tells you later whether that code changed or moved.`,
    input: schemas.entryInput,
    output: schemas.entryOutput,
    annotations: READS,
    run: async ({ unit: reference, offset = 0, limit = schemas.RELATION_PAGE }, view) => {
      const handbook = view.handbook();
      const unit = handbook.graph.getUnitOrThrow(reference);
      // One resolver for the unit, the neighbours listed and the freshness block, so they agree and each file is read once.
      const resolver = liveResolverOf(handbook);
      const live = await resolver.resolve(unit);
      const memberships = handbook.organized.stages.flatMap((stage) => stage.members.filter((member) => member.unit === unit.id).map((member) => ({ stage: stage.id, primary: member.primary })));
      const allCallers = handbook.graph.callers(unit.id);
      const allCallees = handbook.graph.callees(unit.id);
      const { first: callers, second: callees, next, note } = pageOfBoth(allCallers, allCallees, offset, limit);
      const stage = memberships.find((membership) => membership.primary)?.stage ?? null;
      // The locator points where the code stands now, so a moved unit's lines come with their file.
      const at = liveSpotOf(unit, live);
      const [livingCallers, livingCallees] = await Promise.all([livePlacesOf(callers, resolver), livePlacesOf(callees, resolver)]);
      return {
        summary: `${unit.id} at ${at.file}:${live.line}-${live.endLine} (${live.status}), stage ${stage ?? 'none'}, ${allCallers.length} callers, ${allCallees.length} callees${note}`,
        value: {
          unit: {
            id: unit.id, kind: unit.kind, file: at.file, symbol: at.symbol, line: live.line, endLine: live.endLine,
            // The hash of the code shown, as ask gives it, so that resolve later judges that code and not the build's; gone code has none.
            ...(live.status === 'frozen' ? {} : { hash: live.hash }),
            signature: unit.signature, doc: unit.doc, exported: unit.exported, status: live.status, ...(live.reason ? { reason: live.reason } : {}),
          },
          stage,
          alsoIn: memberships.filter((membership) => !membership.primary).map((membership) => membership.stage),
          // A caller's calls lie in the caller's code, a callee's in this unit's: each moves with the code it lies in.
          callers: livingCallers.map((caller) => neighbourJson(caller, caller.listed.unit, caller.live)),
          callees: livingCallees.map((callee) => neighbourJson(callee, unit, live)),
          callerCount: allCallers.length,
          calleeCount: allCallees.length,
          ...(next === undefined ? {} : { nextOffset: next }),
          freshness: await view.freshness([unit.id, ...[...callers, ...callees].map((neighbour) => neighbour.unit.id)], resolver),
        },
      };
    },
  });

  define('register', {
    title: 'The state register',
    description:
      `The state register: shared state (class fields, properties of shared objects, module variables) and the execution stages it couples. Without arguments: every piece of state that two or more stages touch, with how many units write and read it, ${schemas.REGISTER_PAGE} at a time (pass nextOffset back as offset for the next page); pass stage to keep the state that stage shares. Each piece of state comes with where it is declared now (file and line, with the status of the code holding the declaration; no line when that code changed since the build or is gone). Pass slot instead of stage (an id from that list, or Owner.field) for one piece of state with the units that write it and read it, each where its code stands now (file, symbol, line, endLine and status, as entry gives callers; a frozen one has no lines), with the lines of its writes or reads (at), ${schemas.RELATION_PAGE} of each at a time, paged the same way. Read it before changing state or code that touches state: a write reaches every reader, in every stage listed.`,
    input: schemas.registerInput,
    output: schemas.registerOutput,
    annotations: READS,
    run: async ({ slot: reference, stage, offset: askedOffset, limit: askedLimit }, view) => {
      // A slot's answer is one piece of state, every writer and reader whatever their stage: to
      // drop a stage silently would answer a question not asked.
      if (reference !== undefined && stage !== undefined) {
        throw new HandbookError('INVALID_INPUT', 'register takes slot or stage, not both', "a slot's answer names every stage it couples; pass stage without slot for the state that stage shares");
      }
      const handbook = view.handbook();
      // One resolver for the declarations, the writers and readers listed and the freshness block, so they agree and each file is read once.
      const resolver = liveResolverOf(handbook);
      const declarationOf = (entry: RegisterEntry) => liveDeclarationOf(handbook.graph.getSlotOrThrow(entry.slot), (id) => handbook.graph.getUnit(id), resolver);
      const counted = ({ slot, kind, type, stages, writers, readers }: RegisterEntry, declared: LiveDeclaration) => ({ slot, kind, type, ...declared, stages, writerCount: writers.length, readerCount: readers.length });
      if (reference !== undefined) {
        const slot = handbook.graph.getSlotOrThrow(reference).id;
        const entry = handbook.register.find((candidate) => candidate.slot === slot);
        if (!entry) {
          return {
            summary: `${slot} is read or written by one unit at most, so it is not in the register`,
            value: { stager: handbook.organized.stager, slots: [], slotCount: 0, freshness: await view.freshness() },
          };
        }
        const { first, second, next, note } = pageOfBoth(entry.writers, entry.readers, askedOffset ?? 0, askedLimit ?? schemas.RELATION_PAGE);
        const accesses = (records: readonly StateAccessRecord[]): Promise<Array<LivePlace<StateAccess>>> =>
          livePlacesOf(records.map((record) => ({ unit: handbook.graph.getUnitOrThrow(record.unit), lines: record.lines })), resolver);
        const [{ declaring, declared }, writers, readers] = await Promise.all([declarationOf(entry), accesses(first), accesses(second)]);
        return {
          summary: `${slot}: ${entry.writers.length} writers, ${entry.readers.length} readers, stages ${entry.stages.join(', ')}${note}`,
          value: {
            stager: handbook.organized.stager,
            // Writes and reads lie in the writer's or reader's own code, so each moves with it.
            slots: [{ ...counted(entry, declared), writers: writers.map(accessJson), readers: readers.map(accessJson) }],
            slotCount: 1,
            ...(next === undefined ? {} : { nextOffset: next }),
            freshness: await view.freshness([declaring.id, ...[...first, ...second].map((access) => access.unit)], resolver),
          },
        };
      }
      const offset = askedOffset ?? 0;
      const limit = askedLimit ?? schemas.REGISTER_PAGE;
      if (stage !== undefined) stageById(handbook.organized, stage);
      // The whole register of a large harness runs to megabytes; what couples stages is what a change must respect, and fits a model's context.
      const shared = handbook.register.filter((entry) => entry.stages.length > 1 && (stage === undefined || entry.stages.includes(stage)));
      const slots = await Promise.all(shared.slice(offset, offset + limit).map(async (entry) => counted(entry, (await declarationOf(entry)).declared)));
      const next = offset + slots.length < shared.length ? offset + slots.length : undefined;
      const page = slots.length === shared.length ? '' : slots.length === 0 ? `; none past ${shared.length}` : `; ${offset + 1}-${offset + slots.length} here${next === undefined ? '' : `, offset ${next} for more`}`;
      return {
        summary: `${shared.length} pieces of state shared across stages${stage === undefined ? '' : ` with ${stage}`}${page}; pass slot for writers and readers`,
        value: { stager: handbook.organized.stager, slots, slotCount: shared.length, ...(next === undefined ? {} : { nextOffset: next }), freshness: await view.freshness() },
      };
    },
  });

  define('resolve', {
    title: 'Check a locator against the live code',
    description:
      'Check where a locator from an earlier answer points now. Give file and symbol, and the hash if you have it (ask, entry and plan give hashes). The answer is fresh (the code is there as given), changed (the symbol is there but its code was edited; the live lines are given), moved (the same code now stands elsewhere; movedTo says where) or frozen (it is gone; reason says why), judged against the files on disk this moment. Call it before editing at lines you were given a while ago.',
    input: schemas.resolveInput,
    output: schemas.resolveOutput,
    annotations: READS,
    run: async ({ file, symbol, hash }, view) => {
      const resolved = await resolveLocator(view.handbook(), { file, symbol, hash });
      const lines = resolved.line === undefined ? '' : ` at lines ${resolved.line}-${resolved.endLine}`;
      return { summary: `${resolved.file}#${resolved.symbol}: ${resolved.status}${lines}${resolved.reason ? ` (${resolved.reason})` : ''}`, value: { ...resolved, freshness: await view.freshness() } };
    },
  });

  define('plan', {
    title: 'Plan a change without making it',
    description:
      'Turn a change request into an edit plan, without editing any source file: the targets to change (file, symbol, lines, hash, what to do and why), the code to read first, the files in scope, the checks to run and the risks through shared state. The plan is checked against the live code and comes back accepted, or rejected with its failures. It is saved as JSON and Markdown under .handbook/plans/ (the only files this tool writes). Deterministic and offline; no model is called.',
    input: schemas.planInput,
    output: schemas.planOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ request }, view) => {
      // Planning checks with the compiler; imported here, the server answers the client's first messages without loading it.
      const { planRequest } = await import('../api/plan-request.js');
      const { plan, files } = await planRequest(view.root, request, view.database);
      const failures = plan.failures.length === 0 ? '' : `: ${plan.failures.length} failures, first: ${plan.failures[0]}`;
      return { summary: `plan ${plan.id} ${plan.status}, ${plan.targets.length} targets in ${plan.scope.length} files${failures}`, value: { plan, files, freshness: await view.freshness() } };
    },
  });

  define('status', {
    title: 'Is the handbook in step with the code',
    description:
      'Every entry of the handbook checked against the files on disk: counts of fresh, changed, moved and frozen entries and which ones, source files the handbook does not hold yet, files it holds that are gone, and files it holds that analysis now leaves out (with why), the commit it was built at and the current one, and the acceptance records of earlier harness runs. The server re-syncs before every answer, so this normally says fresh; call it to confirm, or when an answer looks wrong.',
    input: schemas.emptyInput,
    output: schemas.statusOutput,
    annotations: READS,
    run: async (_args, view) => {
      const report = await handbookStatus(view.root, view.database);
      const counts = Object.entries(report.counts).map(([status, count]) => `${count} ${status}`).join(', ');
      return { summary: `${report.fresh ? 'fresh' : 'stale'}: ${counts}, ${report.newFiles.length} new files`, value: { ...report, freshness: await view.freshness(report.frozen.map((entry) => entry.unit)) } };
    },
  });
}

/**
 * One page of two lists read side by side (callers and callees, writers and readers): one offset
 * and limit apply to each, so a single nextOffset walks both, and a page holds at most two limits.
 */
function pageOfBoth<A, B>(first: readonly A[], second: readonly B[], offset: number, limit: number): { first: A[]; second: B[]; next: number | undefined; note: string } {
  const longest = Math.max(first.length, second.length);
  const end = offset + limit;
  const next = end < longest ? end : undefined;
  const note = offset === 0 && next === undefined ? '' : offset >= longest ? `; none past ${longest}` : `; ${offset + 1}-${Math.min(end, longest)} of each here${next === undefined ? '' : `, offset ${next} for more`}`;
  return { first: first.slice(offset, end), second: second.slice(offset, end), next, note };
}

/**
 * A caller or callee where its code stands now: a moved one at its new file and symbol, a frozen one
 * with its recorded file and no lines. The lines of its calls lie in `callsInUnit`, and are left out
 * when that code changed since the build or is gone, since no line of the build's says where they are.
 */
function neighbourJson({ listed: neighbour, live }: LivePlace<Neighbour>, callsInUnit: Unit, callsInLive: ResolvedLocation) {
  return {
    id: neighbour.unit.id,
    ...livePlaceJson(neighbour.unit, live, liveLinesOf(neighbour.lines, callsInUnit, callsInLive)),
    ...(neighbour.via ? { via: neighbour.via } : {}),
  };
}

/** A writer or reader where its code stands now, as a neighbour is; its writes or reads lie in its own code and move with it. */
function accessJson({ listed: access, live }: LivePlace<StateAccess>) {
  return { unit: access.unit.id, ...livePlaceJson(access.unit, live, liveLinesOf(access.lines, access.unit, live)) };
}


function syncedNote(view: FreshView): string {
  const files = view.sync.added.length + view.sync.modified.length + view.sync.removed.length;
  return files === 0 ? '' : ` (re-synced ${files} changed file${files === 1 ? '' : 's'} first)`;
}

/** A library error is the tool's answer, in its one line; anything else is a bug, logged in full and reported in one line. */
async function answerSafely(tool: string, log: (line: string) => void, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (HandbookError.isInstance(error)) return { content: [{ type: 'text', text: `${error.message}${error.hint ? ` (${error.hint})` : ''}` }], isError: true };
    log(`unexpected error in ${tool}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { content: [{ type: 'text', text: `unexpected error: ${message} (a bug in handbook; the server log on stderr has details)` }], isError: true };
  }
}

/** Primary members in the order of the stage's behaviours, then the secondary ones as the stage lists them. */
function membersByBehavior(members: readonly StageMember[], behaviors: ReadonlyArray<{ members: readonly string[] }>): StageMember[] {
  if (behaviors.length === 0) return [...members];
  const byUnit = new Map(members.filter((member) => member.primary).map((member) => [member.unit, member]));
  const ordered = behaviors.flatMap((behavior) => behavior.members.flatMap((unit) => byUnit.get(unit) ?? []));
  const placed = new Set(ordered.map((member) => member.unit));
  return [...ordered, ...members.filter((member) => !placed.has(member.unit))];
}
