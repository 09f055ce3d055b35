import { HandbookError } from '../errors.js';
import { LiveResolver, type LocatorStatus } from '../locate/live-resolver.js';
import type { Stager } from '../organize/model.js';
import { parseRequest } from '../route/request-terms.js';
import { ROUTED_EDGE_KINDS, routeRequest, type RouteTrace } from '../route/route-request.js';
import { openRoutingHandbook } from './routing-snapshot.js';

export const MAX_REQUEST_CHARACTERS = 2_000;

export interface AskOptions {
  database?: string;
  /** Locations to return (default 20). */
  limit?: number;
  /** Add the routing trace: terms searched, stages picked, seeds expanded. */
  explain?: boolean;
}

export interface AskLocation {
  file: string;
  symbol: string;
  line: number;
  endLine: number;
  stage: string | null;
  score: number;
  why: string;
  status: Exclude<LocatorStatus, 'frozen'>;
}

export interface AskResult {
  request: string;
  /** How the handbook was organized; routing itself is always the offline router. */
  stager: Stager;
  router: 'offline';
  locations: AskLocation[];
  /** Candidates left out because their code is gone since the build. */
  frozen: number;
  /** Why nothing was found, when nothing was. */
  note?: string;
  /** With `explain`: how the request was routed. */
  explain?: RouteTrace;
}

/**
 * Answers "where is X done": routes the request through the handbook and re-resolves every
 * location against the live files before returning it; code that is gone is counted, not shown.
 */
export async function askHandbook(root: string, request: string, options: AskOptions = {}): Promise<AskResult> {
  const text = request.trim();
  if (text.length === 0) throw new HandbookError('INVALID_INPUT', 'the request is empty', 'ask about a behaviour, e.g. "where is secret masking done?"');
  if (text.length > MAX_REQUEST_CHARACTERS)
    throw new HandbookError('INVALID_INPUT', `the request is ${text.length} characters long`, `ask in a sentence or two (at most ${MAX_REQUEST_CHARACTERS} characters)`);
  const limit = options.limit ?? 20;
  const { handbook, index, stageCoupling } = openRoutingHandbook(root, { ...(options.database ? { database: options.database } : {}), edgeKinds: ROUTED_EDGE_KINDS });
  const parsed = parseRequest(text);
  const base = { request: text, stager: handbook.organized.stager, router: 'offline' as const };
  if (parsed.terms.size === 0) return { ...base, locations: [], frozen: 0, note: 'the request has no words the handbook can match: only common words, or another language' };

  const { locations: routed, trace } = routeRequest(parsed, handbook.graph, handbook.organized, stageCoupling, index);
  const explained = options.explain ? { explain: trace } : {};
  if (routed.length === 0) return { ...base, locations: [], frozen: 0, note: 'no unit of the handbook matches the words of the request', ...explained };

  const resolver = new LiveResolver(handbook.root, handbook.graph.toData().files, async (file, source) => (await import('../analyze/parse-live-file.js')).parseLiveFile(file, source));
  const top = routed[0]!.score;
  const locations: AskLocation[] = [];
  let frozen = 0;
  for (const candidate of routed) {
    if (locations.length >= limit) break;
    const resolved = await resolver.resolve(candidate.unit);
    if (resolved.status === 'frozen') {
      frozen += 1;
      continue;
    }
    locations.push({
      file: candidate.unit.file,
      symbol: candidate.unit.symbol,
      line: resolved.line,
      endLine: resolved.endLine,
      stage: candidate.stage ?? null,
      score: Math.round((candidate.score / top) * 1000) / 1000,
      why: resolved.status === 'changed' ? `${candidate.why} (changed since the build)` : candidate.why,
      status: resolved.status,
    });
  }
  return { ...base, locations, frozen, ...explained };
}
