import { HandbookError } from '../errors.js';
import type { CreateProviderOptions } from '../llm/create-provider.js';
import type { LocatorStatus } from '../locate/live-resolver.js';
import type { Stager } from '../organize/model.js';
import { parseRequest } from '../route/request-terms.js';
import { ROUTED_EDGE_KINDS, routeRequest, type RouteTrace } from '../route/route-request.js';
import type { RerankCandidate } from '../route/model-rerank.js';
import { createProvider } from './create-provider.js';
import { liveResolverOf } from './live-resolution.js';
import { openRoutingHandbook } from './routing-snapshot.js';

export const MAX_REQUEST_CHARACTERS = 2_000;
/** How many live candidates a model ranks: enough for the sites a lexical router ranks low, few enough to stay a short prompt. */
const MODEL_CANDIDATES = 30;

export interface AskOptions {
  database?: string;
  /** Locations to return (default 20). */
  limit?: number;
  /** Add the routing trace: terms searched, stages picked, seeds expanded. */
  explain?: boolean;
  /** `offline` (default) or a model spec: the model ranks and prunes the offline router's first 30 live candidates (so at most 30 locations). */
  model?: string;
  /** Keys, base URL and retry settings for the model provider; the environment by default. */
  provider?: CreateProviderOptions;
}

export interface AskLocation {
  file: string;
  symbol: string;
  line: number;
  endLine: number;
  /** The content hash of the code as it stands now (the stored one unless it changed): `resolve` with file, symbol and hash later tells whether that code is still there. */
  hash: string;
  stage: string | null;
  /** The behaviour of its stage the unit belongs to: answers are grouped by stage, then by behaviour. */
  behavior: { id: string; name: string } | null;
  score: number;
  why: string;
  status: Exclude<LocatorStatus, 'frozen'>;
}

export interface AskResult {
  request: string;
  /** How the handbook was organized. */
  stager: Stager;
  /** `offline`, or the model spec whose ranking the locations follow (the offline answer when the model failed). */
  router: string;
  /** With a model: how many live candidates it was shown, how many it kept (before `limit`), and why its answer was not used when it was not. */
  model?: { spec: string; candidates: number; kept: number; fallback?: string };
  locations: AskLocation[];
  /** Candidates left out because their code is gone since the build. */
  frozen: number;
  /** Why nothing was found, when nothing was; or why a model's ranking was not used. */
  note?: string;
  /** With `explain`: how the request was routed. */
  explain?: RouteTrace;
}

/**
 * Answers "where is X done": routes the request through the handbook and re-resolves every
 * location against the live files before returning it; code that moved is shown where it stands
 * now, and code that is gone is counted, not shown.
 */
export async function askHandbook(root: string, request: string, options: AskOptions = {}): Promise<AskResult> {
  const text = request.trim();
  if (text.length === 0) throw new HandbookError('INVALID_INPUT', 'the request is empty', 'ask about a behaviour, e.g. "where is secret masking done?"');
  if (text.length > MAX_REQUEST_CHARACTERS)
    throw new HandbookError('INVALID_INPUT', `the request is ${text.length} characters long`, `ask in a sentence or two (at most ${MAX_REQUEST_CHARACTERS} characters)`);
  const limit = options.limit ?? 20;
  // A missing key or an unknown provider is reported before any work.
  const provider = options.model === undefined ? undefined : await createProvider(options.model, options.provider);
  const { handbook, index, stageCoupling } = openRoutingHandbook(root, { ...(options.database ? { database: options.database } : {}), edgeKinds: ROUTED_EDGE_KINDS });
  const parsed = parseRequest(text);
  const base = { request: text, stager: handbook.organized.stager, router: 'offline' };
  if (parsed.terms.size === 0) {
    // Asked to explain, an answer says what it searched even when that is nothing.
    const nothingSearched = { terms: [], stages: [], coupledStages: [], crossCutting: parsed.crossCutting, seeds: [], files: [], folders: [] };
    return { ...base, locations: [], frozen: 0, note: 'the request has no words the handbook can match: only common words, or another language', ...(options.explain ? { explain: nothingSearched } : {}) };
  }

  const { locations: routed, trace } = routeRequest(parsed, handbook.graph, handbook.organized, stageCoupling, index);
  const explained = options.explain ? { explain: trace } : {};
  if (routed.length === 0) return { ...base, locations: [], frozen: 0, note: 'no unit of the handbook matches the words of the request', ...explained };

  const resolver = liveResolverOf(handbook);
  const behaviorOf = new Map<string, { id: string; name: string }>();
  for (const stage of handbook.organized.stages) for (const { id, name, members } of stage.behaviors) for (const unit of members) behaviorOf.set(unit, { id, name });
  const top = routed[0]!.score;
  const wanted = provider ? MODEL_CANDIDATES : limit;
  const live: Array<{ location: AskLocation; candidate: RerankCandidate }> = [];
  let frozen = 0;
  // What the offline answer alone counts: the candidates left out before `limit` locations were found.
  let frozenOffline = 0;
  for (const candidate of routed) {
    if (live.length >= wanted) break;
    const resolved = await resolver.resolve(candidate.unit);
    if (resolved.status === 'frozen') {
      frozen += 1;
      if (live.length < limit) frozenOffline += 1;
      continue;
    }
    live.push({
      candidate,
      location: {
        // A moved unit is shown where its code stands now; the router's evidence was about that same code.
        ...(resolved.movedTo ?? { file: candidate.unit.file, symbol: candidate.unit.symbol }),
        line: resolved.line,
        endLine: resolved.endLine,
        hash: resolved.hash,
        stage: candidate.stage ?? null,
        behavior: behaviorOf.get(candidate.unit.id) ?? null,
        score: Math.round((candidate.score / top) * 1000) / 1000,
        why: `${candidate.why}${sinceBuild(resolved.status, candidate.unit.id)}`,
        status: resolved.status,
      },
    });
  }
  // Without it, an answer whose every match is gone reads as a handbook that knows nothing of the request.
  const allGone = live.length === 0 ? { note: `the code of every match is gone since the build (${frozen} frozen); run \`handbook sync\` and ask again` } : {};
  const offline = { ...base, locations: live.slice(0, limit).map(({ location }) => location), frozen: frozenOffline, ...explained };
  if (!provider) return { ...offline, ...allGone };
  if (live.length === 0) return { ...offline, note: `every candidate's code is gone since the build (${frozen} frozen): the model was not asked; build again` };

  const { rerankWithModel } = await import('../route/model-rerank.js');
  const outcome = await rerankWithModel(text, live.map(({ candidate }) => candidate), handbook.graph, provider);
  if (outcome.kind === 'failed') {
    return {
      ...offline,
      model: { spec: provider.id, candidates: live.length, kept: 0, fallback: outcome.reason },
      note: `the model's ranking was not used (${outcome.reason}); these are the offline router's locations`,
    };
  }
  // A model's ranking has an order, not relevance values: the score says where in it a location stands.
  const picks = outcome.picks.slice(0, limit);
  const locations = picks.map(({ candidate, reason }, rank) => {
    const { location } = live[candidate]!;
    return { ...location, score: Math.round(((picks.length - rank) / picks.length) * 1000) / 1000, why: `${provider.id}: ${reason} (router: ${location.why})` };
  });
  return {
    ...base,
    router: provider.id,
    locations,
    frozen,
    model: { spec: provider.id, candidates: live.length, kept: outcome.picks.length },
    ...(locations.length === 0 ? { note: `the model judged none of the ${live.length} candidates to implement the request` } : {}),
    ...explained,
  };
}

/** What the location's status adds to its why: nothing when fresh. */
function sinceBuild(status: AskLocation['status'], unit: string): string {
  if (status === 'changed') return ' (changed since the build)';
  if (status === 'moved') return ` (moved since the build from ${unit})`;
  return '';
}
