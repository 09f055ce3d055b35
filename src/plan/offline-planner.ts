import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { Unit } from '../graph/model.js';
import { shortName } from '../graph/unit-name.js';
import type { RegisterEntry } from '../organize/model.js';
import { parseRequest } from '../route/request-terms.js';
import type { PlanCheck, PlanContext, PlanDraft, PlanRisk, PlanTarget } from './edit-plan.js';

/** A place the router found for the request, best first. */
export interface RoutedSite {
  file: string;
  symbol: string;
  score: number;
  why: string;
  stage: string | null;
}

export interface OfflinePlanInput {
  root: string;
  request: string;
  sites: readonly RoutedSite[];
  graph: ProgramGraph;
  register: readonly RegisterEntry[];
  generation: number;
}

/** Kinds a plan edits: code that runs. Types and interfaces are read, not targeted, unless nothing else matched. */
const EDITABLE_KINDS = new Set(['function', 'method', 'constructor', 'accessor', 'variable', 'property', 'class']);
/** A site scoring under this share of the best one is a neighbour, not an implementation. */
const TARGET_SHARE = 0.55;
const CROSS_CUTTING_SHARE = 0.25;
const MAX_TARGETS = 6;
const MAX_CROSS_CUTTING_TARGETS = 12;
const CONTEXT_PER_TARGET = 3;
/** How far back through imports a test may reach a target's file and still count as its check. */
const TEST_IMPORT_DEPTH = 4;

/**
 * The offline planner: deterministic, no model. Targets are the routed sites that implement the
 * behavior (the strongest ones, and for a cross-cutting request every strong one), context is
 * their one-hop neighbours and the state they share, checks are the tests that reach the targets
 * through the import graph plus a typecheck, and risks are the shared state a change couples to.
 * It writes no code: it is a precise map of what to change.
 */
export function planOffline(input: OfflinePlanInput): PlanDraft {
  const { graph } = input;
  const crossCutting = parseRequest(input.request).crossCutting;
  const candidates = input.sites.flatMap((site) => {
    const unit = graph.getUnit(`${site.file}#${site.symbol}`);
    return unit && !isTestFile(graph, unit.file) ? [{ site, unit }] : [];
  });
  const editable = candidates.filter(({ unit }) => EDITABLE_KINDS.has(unit.kind));
  const pool = editable.length > 0 ? editable : candidates;
  const best = pool[0]?.site.score ?? 0;
  const share = crossCutting ? CROSS_CUTTING_SHARE : TARGET_SHARE;
  const limit = crossCutting ? MAX_CROSS_CUTTING_TARGETS : MAX_TARGETS;
  const chosen = withoutNested(pool.filter(({ site }) => site.score >= best * share)).slice(0, limit);

  const targets: PlanTarget[] = chosen.map(({ site, unit }) => ({
    ...locatorOf(unit),
    action: 'modify',
    intent: `change ${shortName(unit.id)} so that the request holds here: ${input.request}`,
    why: site.why,
  }));
  const targetIds = new Set(chosen.map(({ unit }) => unit.id));
  const context = contextOf(graph, input.register, chosen.map(({ unit }) => unit), targetIds);
  const scope = [...new Set(targets.map((target) => target.file))].sort();
  return {
    request: input.request,
    summary: summaryOf(input.request, targets, crossCutting),
    targets,
    context,
    scope,
    newFiles: [],
    checks: checksFor(input.root, graph, scope),
    typecheck: existsSync(path.join(input.root, 'tsconfig.json')),
    risks: risksOf(input.register, targetIds),
    generation: input.generation,
    planner: { kind: 'offline' },
  };
}

function locatorOf(unit: Unit): { file: string; symbol: string; line: number; endLine: number; hash: string } {
  return { file: unit.file, symbol: unit.symbol, line: unit.startLine, endLine: unit.endLine, hash: unit.hash };
}

/** A method inside a chosen class is already covered by it, and the narrower site is the better target. */
function withoutNested<T extends { unit: Unit }>(chosen: T[]): T[] {
  return chosen.filter(({ unit }) => !(unit.kind === 'class' && chosen.some((other) => other.unit.file === unit.file && other.unit.symbol.startsWith(`${unit.symbol}.`))));
}

function contextOf(graph: ProgramGraph, register: readonly RegisterEntry[], targets: readonly Unit[], targetIds: ReadonlySet<string>): PlanContext[] {
  const context = new Map<string, PlanContext>();
  const add = (unit: Unit | undefined, relation: string, why: string): void => {
    if (!unit || unit.kind === 'file' || targetIds.has(unit.id) || context.has(unit.id) || isTestFile(graph, unit.file)) return;
    context.set(unit.id, { ...locatorOf(unit), relation, why });
  };
  for (const target of targets) {
    const name = shortName(target.id);
    for (const neighbour of graph.callers(target.id).slice(0, CONTEXT_PER_TARGET)) add(neighbour.unit, 'caller', `calls ${name}`);
    for (const neighbour of graph.callees(target.id).slice(0, CONTEXT_PER_TARGET)) add(neighbour.unit, 'callee', `called by ${name}`);
  }
  for (const entry of register) {
    if (!entry.writers.some((writer) => targetIds.has(writer.unit))) continue;
    const name = slotName(entry);
    for (const reader of entry.readers.slice(0, CONTEXT_PER_TARGET)) add(graph.getUnit(reader.unit), 'state-reader', `reads ${name}, which a target writes`);
  }
  return [...context.values()].sort((left, right) => left.file.localeCompare(right.file) || left.line - right.line);
}

function risksOf(register: readonly RegisterEntry[], targetIds: ReadonlySet<string>): PlanRisk[] {
  return register
    .filter((entry) => entry.writers.some((access) => targetIds.has(access.unit)) || entry.readers.some((access) => targetIds.has(access.unit)))
    .filter((entry) => entry.stages.length > 1)
    .map((entry) => ({ slot: slotName(entry), stages: [...entry.stages], why: `${slotName(entry)} is shared by the stages ${entry.stages.join(', ')}: a change to how a target writes or reads it reaches them all` }));
}

function slotName(entry: RegisterEntry): string {
  return `${entry.owner}.${entry.slot.split('#').pop()?.split('.').pop() ?? entry.slot}`;
}

function summaryOf(request: string, targets: readonly PlanTarget[], crossCutting: boolean): string {
  if (targets.length === 0) return `No site in the handbook implements "${request}"; nothing to change was found.`;
  const files = new Set(targets.map((target) => target.file)).size;
  return `${crossCutting ? 'Every site' : 'The sites'} implementing "${request}": ${targets.length} unit(s) in ${files} file(s). Offline plan: a map of what to change, written without a model.`;
}

function isTestFile(graph: ProgramGraph, file: string): boolean {
  return graph.toData().files.find((record) => record.path === file)?.test ?? /(^|\/)(__tests__|tests?)\/|\.(test|spec)\.[cm]?[jt]sx?$/.test(file);
}

/** The tests that import a target's file, directly or through up to a few other files, run the way the repository runs its tests. */
function checksFor(root: string, graph: ProgramGraph, files: readonly string[]): PlanCheck[] {
  const tests = new Set<string>();
  let frontier = new Set(files);
  const seen = new Set(files);
  for (let depth = 0; depth < TEST_IMPORT_DEPTH && frontier.size > 0; depth++) {
    const next = new Set<string>();
    for (const file of frontier) {
      for (const edge of graph.inEdges(file, 'imports')) {
        if (seen.has(edge.from)) continue;
        seen.add(edge.from);
        if (isTestFile(graph, edge.from)) tests.add(edge.from);
        else next.add(edge.from);
      }
    }
    frontier = next;
  }
  const checks: PlanCheck[] = [];
  const sorted = [...tests].sort();
  if (sorted.length > 0) checks.push({ name: 'tests', command: testCommand(root, sorted), reason: `the tests that reach the targets through imports: ${sorted.join(', ')}` });
  return checks;
}

/** How this repository runs the given test files: its runner with the files, or its own test script. */
function testCommand(root: string, tests: readonly string[]): string {
  const manifestFile = path.join(root, 'package.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as { scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }) : {};
  const dependencies = { ...manifest.dependencies, ...manifest.devDependencies };
  const files = tests.map((file) => JSON.stringify(file)).join(' ');
  if (dependencies.vitest) return `npx vitest run ${files}`;
  if (dependencies.jest) return `npx jest ${files}`;
  if (dependencies.mocha) return `npx mocha ${files}`;
  if (manifest.scripts?.test) return 'npm test';
  return tests.map((file) => (/\.[cm]?js$/.test(file) ? `node ${JSON.stringify(file)}` : `node --test ${JSON.stringify(file)}`)).join(' && ');
}
