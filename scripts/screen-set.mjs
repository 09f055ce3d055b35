// Scores one request set in this process, with the figures ../shared/bench/score.mjs computes,
// for screening a ranking change across every set in seconds instead of minutes: score.mjs runs
// a process per request (and a build per set), which is what makes `bench:ask -- --plan` on seven
// sets take ten minutes or more. The screen ranks each request exactly as `ask --json --limit 20`
// and `plan --json` do on an unchanged checkout (test/scripts/screen-set.test.ts holds it to that);
// figures that are published still come from score.mjs through bench:ask and bench:plan.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** How many locations score.mjs asks for, and how many sites `plan` routes. */
export const ASK_LIMIT = 20;
export const PLAN_CANDIDATES = 40;

const last = (symbol) => String(symbol ?? '').split('.').pop();
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const primaryGold = (request) => request.gold.filter((gold) => (gold.role ?? 'primary') === 'primary');

/** score.mjs's `score`: hit@5 and file recall over distinct files, symbol recall over the first ten locations. */
export function askFigures(request, locations) {
  const gold = primaryGold(request);
  const goldFiles = [...new Set(gold.map((entry) => entry.file))];
  const seen = [];
  for (const location of locations) if (location.file && !seen.includes(location.file)) seen.push(location.file);
  const top5 = seen.slice(0, 5);
  const top10 = seen.slice(0, 10);
  const first10 = locations.slice(0, 10);
  const symbolHits = gold.filter((entry) => first10.some((location) => location.file === entry.file && last(location.symbol) === last(entry.symbol))).length;
  return {
    hit5: goldFiles.some((file) => top5.includes(file)) ? 1 : 0,
    fileR10: goldFiles.filter((file) => top10.includes(file)).length / goldFiles.length,
    symR10: symbolHits / gold.length,
    all10: goldFiles.every((file) => top10.includes(file)) ? 1 : 0,
  };
}

function precisionRecall(predicted, gold) {
  const p = new Set(predicted);
  const g = new Set(gold);
  const hits = [...p].filter((item) => g.has(item)).length;
  const precision = p.size ? hits / p.size : 0;
  const recall = g.size ? hits / g.size : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** score.mjs's `planScore`: targets against the primary gold, by file and by file and last symbol part. */
export function planFigures(request, targets) {
  const gold = primaryGold(request);
  const file = precisionRecall(targets.map((target) => target.file), gold.map((entry) => entry.file));
  const symbol = precisionRecall(targets.map((target) => `${target.file}#${last(target.symbol)}`), gold.map((entry) => `${entry.file}#${last(entry.symbol)}`));
  return { fileP: file.precision, fileR: file.recall, fileF1: file.f1, symP: symbol.precision, symR: symbol.recall, symF1: symbol.f1 };
}

/** Means rounded as score.mjs rounds them. */
export function summarize(rows, keys) {
  return Object.fromEntries(keys.map((key) => [key, +mean(rows.map((row) => row[key])).toFixed(3)]));
}

/**
 * The built library's routing and planning, loaded from `dist` (the screen measures the build,
 * as bench:ask measures the CLI).
 */
export async function loadRanking(dist) {
  const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
  const [{ openRoutingHandbook }, { parseRequest }, { routeRequest, ROUTED_EDGE_KINDS }, { planOffline }, { openHandbook }] = await Promise.all([
    load('api/routing-snapshot.js'),
    load('route/request-terms.js'),
    load('route/route-request.js'),
    load('plan/offline-planner.js'),
    load('api/open-handbook.js'),
  ]);
  return { openRoutingHandbook, parseRequest, routeRequest, ROUTED_EDGE_KINDS, planOffline, openHandbook };
}

/**
 * The locations `ask` gives for a request (file and symbol), and with `plan` the offline plan's
 * targets, over a handbook opened once (`limit` locations: score.mjs asks for 20). Candidates are the router's as `ask` takes them; on a
 * checkout that has not changed since its build every one is live where the build found it.
 */
export function screenRequests(ranking, repo, requests, { plan, limit = ASK_LIMIT }) {
  const { handbook, index, stageCoupling } = ranking.openRoutingHandbook(repo, { edgeKinds: ranking.ROUTED_EDGE_KINDS });
  const full = plan ? ranking.openHandbook(repo, { withUnresolved: false }) : undefined;
  return requests.map((request) => {
    const parsed = ranking.parseRequest(request.request.trim());
    const routed = parsed.terms.size === 0 ? [] : ranking.routeRequest(parsed, handbook.graph, handbook.organized, stageCoupling, index).locations;
    const locations = routed.slice(0, limit).map(({ unit }) => ({ file: unit.file, symbol: unit.symbol }));
    if (!plan || request.kind !== 'change') return { request, locations };
    const top = routed[0]?.score ?? 1;
    const sites = routed.slice(0, PLAN_CANDIDATES).map((site) => ({
      file: site.unit.file,
      symbol: site.unit.symbol,
      // As ask reports it, and the planner reads it: relative to the best, to three places.
      score: Math.round((site.score / top) * 1000) / 1000,
      why: site.why,
      stage: site.stage ?? null,
    }));
    const draft = ranking.planOffline({ root: full.root, request: request.request.trim(), sites, graph: full.graph, register: full.register, generation: full.generation.id });
    return { request, locations, targets: draft.targets.map((target) => ({ file: target.file, symbol: target.symbol })) };
  });
}

/** A report in score.mjs's shape (project figures, per request, plans), which bench:compare reads. */
export function screenReport(set, screened, { plan }) {
  const rows = screened.map(({ request, locations }) => ({ id: request.id, type: request.type, ...askFigures(request, locations) }));
  const report = { set: set.repo, commit: set.commit, requests: set.requests.length, project: summarize(rows, ['hit5', 'fileR10', 'symR10', 'all10']), per_request: rows };
  if (plan) {
    const planRows = screened.filter(({ targets }) => targets).map(({ request, targets }) => ({ id: request.id, ...planFigures(request, targets) }));
    report.plan = summarize(planRows, ['fileP', 'fileR', 'fileF1', 'symP', 'symR', 'symF1']);
    report.plan_per_request = planRows;
  }
  return report;
}
