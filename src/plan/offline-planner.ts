import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProgramGraph } from '../graph/program-graph.js';
import type { Unit } from '../graph/model.js';
import { shortName } from '../graph/unit-name.js';
import type { RegisterEntry } from '../organize/model.js';
import { parseRequest } from '../route/request-terms.js';
import { searchTermsOf } from '../route/search-index.js';
import { cargoPackageName } from './check-command.js';
import { looksLikeTestFile } from './plan-gate.js';
import { hasTestScript, readPackageManifest } from './package-manifest.js';
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
/**
 * Targets are chosen by file, then by unit. A file's evidence is the summed evidence of its
 * routed sites; files under this share of the best file's are neighbours, not the change.
 */
const FILE_SHARE = 0.5;
/** At most this many files: a plan a reviewer can check, not the router's whole neighbourhood. */
const MAX_TARGET_FILES = 4;
/** In a chosen file, units under this share of its best unit's evidence are read, not edited. */
const UNIT_SHARE = 0.7;
const MAX_TARGETS_PER_FILE = 2;
const CONTEXT_PER_TARGET = 3;
/** How far back through imports a test may reach a target's file and still count as its check. */
const TEST_IMPORT_DEPTH = 4;

/**
 * The offline planner: deterministic, no model. Targets are the routed sites that implement the
 * behavior, chosen by evidence: a site's evidence is the router's score weighted by how many of
 * the request's own words its unit's vocabulary names (so a site lifted by synonyms, a stage
 * prior or a neighbour's score alone counts less); files are ranked by the summed evidence of
 * their sites, the strongest files are kept (for a cross-cutting request also the paths into them
 * and their family), and in each the strongest one or two units. Context is the targets' one-hop
 * neighbours and the state they share, checks are the tests that reach the targets through the
 * import graph plus a typecheck, and risks are the shared state a change couples to. It writes
 * no code: it is a precise map of what to change.
 */
export function planOffline(input: OfflinePlanInput): PlanDraft {
  const { graph } = input;
  const crossCutting = parseRequest(input.request).crossCutting;
  const candidates = input.sites.flatMap((site, rank) => {
    const unit = graph.getUnit(`${site.file}#${site.symbol}`);
    return unit && !isTestFile(graph, unit.file) ? [{ site, unit, rank }] : [];
  });
  const editable = candidates.filter(({ unit }) => EDITABLE_KINDS.has(unit.kind));
  const chosen = withoutNested(chooseTargets(graph, input.request, crossCutting, editable.length > 0 ? editable : candidates));

  const targets: PlanTarget[] = chosen.map(({ site, unit, words }) => ({
    ...locatorOf(unit),
    action: 'modify',
    intent: `change ${shortName(unit.id)} so that the request holds here: ${input.request}`,
    why: words.length > 0 ? `${site.why}; names the request's ${words.join(', ')}` : site.why,
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

interface Candidate {
  site: RoutedSite;
  unit: Unit;
  /** Position in the router's order: the tie-breaker everywhere, so the choice is deterministic. */
  rank: number;
}

interface Evidenced extends Candidate {
  /** The request's own words (not synonyms) that the unit's vocabulary names. */
  words: string[];
  evidence: number;
}

/**
 * Evidence of a site: its routed score times the share of the request's own words its unit names,
 * relative to the candidate that names the most. Files by summed evidence (a behaviour lives
 * where several strong units agree), kept while within FILE_SHARE of the best file; in each kept
 * file, its units within UNIT_SHARE of the file's best. When no candidate names any of the
 * request's own words, the router's score alone decides. A cross-cutting request also keeps its
 * paths and their family (see crossCuttingFiles).
 */
function chooseTargets(graph: ProgramGraph, request: string, crossCutting: boolean, pool: readonly Candidate[]): Evidenced[] {
  const { own } = parseRequest(request);
  const named = pool.map((candidate) => {
    const vocabulary = new Set(searchTermsOf(candidate.unit).weights.map(([term]) => term));
    return { ...candidate, words: own.filter((term) => vocabulary.has(term)) };
  });
  const most = Math.max(0, ...named.map(({ words }) => words.length));
  const evidenced: Evidenced[] = named.map((candidate) => ({ ...candidate, evidence: candidate.site.score * (most > 0 ? candidate.words.length / most : 1) }));
  const byEvidence = (left: Evidenced, right: Evidenced) => right.evidence - left.evidence || left.rank - right.rank;

  const files = new Map<string, Evidenced[]>();
  for (const candidate of evidenced) files.set(candidate.unit.file, [...(files.get(candidate.unit.file) ?? []), candidate]);
  const ranked: FileEvidence[] = [...files.values()]
    .map((units) => ({ units: [...units].sort(byEvidence), total: units.reduce((sum, unit) => sum + unit.evidence, 0), first: Math.min(...units.map((unit) => unit.rank)) }))
    .sort((left, right) => right.total - left.total || left.first - right.first);
  const best = ranked[0]?.total ?? 0;
  if (best <= 0) return evidenced.slice(0, 1);
  const strong = new Set(ranked.filter(({ total }) => total >= best * FILE_SHARE));
  const kept = crossCutting ? new Set([...strong, ...crossCuttingFiles(graph, ranked, strong)]) : strong;
  return ranked
    .filter((file) => kept.has(file))
    .slice(0, MAX_TARGET_FILES)
    .flatMap(({ units }) => units.filter((unit) => unit.evidence >= units[0]!.evidence * UNIT_SHARE).slice(0, MAX_TARGETS_PER_FILE));
}

interface FileEvidence {
  units: Evidenced[];
  total: number;
  first: number;
}

/**
 * A cross-cutting request ("mask secrets in every capture path") names a behaviour and a family
 * of places that must all have it. The strong files hold the behaviour; its paths are the files
 * whose candidates call, are called by or pass a unit of the strong files, however few of the
 * request's words they name; the family's name is the request's words the paths name and the
 * strong files do not ("capture"), and every other candidate file that names one of them is a
 * member of the family, whether or not it reaches the behaviour yet (that is the change).
 */
function crossCuttingFiles(graph: ProgramGraph, ranked: readonly FileEvidence[], strong: ReadonlySet<FileEvidence>): FileEvidence[] {
  const strongUnits = new Set([...strong].flatMap(({ units }) => units.map(({ unit }) => unit.id)));
  const behaviourWords = new Set([...strong].flatMap(({ units }) => units.flatMap(({ words }) => words)));
  const rest = ranked.filter((file) => !strong.has(file));
  const reaches = ({ unit }: Evidenced) => [...graph.callers(unit.id), ...graph.callees(unit.id), ...graph.referrers(unit.id)].some((neighbour) => strongUnits.has(neighbour.unit.id));
  const paths = rest.filter(({ units }) => units.some(reaches));
  const familyWords = new Set(paths.flatMap(({ units }) => units.flatMap(({ words }) => words)).filter((word) => !behaviourWords.has(word)));
  const members = rest.filter((file) => !paths.includes(file) && file.units.some(({ words }) => words.some((word) => familyWords.has(word))));
  return [...paths, ...members];
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

/** A field's or property's id is its name, which alone tells a static member from an instance member of one name. */
function slotName(entry: RegisterEntry): string {
  if (entry.kind !== 'module-variable') return entry.slot;
  return `${entry.owner}.${entry.slot.split('#').pop()?.split('.').pop() ?? entry.slot}`;
}

function summaryOf(request: string, targets: readonly PlanTarget[], crossCutting: boolean): string {
  if (targets.length === 0) return `No site in the handbook implements "${request}"; nothing to change was found.`;
  const files = new Set(targets.map((target) => target.file)).size;
  return `${crossCutting ? 'Every site' : 'The sites'} implementing "${request}": ${targets.length} unit(s) in ${files} file(s). Offline plan: a map of what to change, written without a model.`;
}

const testFlagsOf = new WeakMap<ProgramGraph, Map<string, boolean>>();

/** The handbook's own verdict for a file it holds; the name alone for one it does not. */
function isTestFile(graph: ProgramGraph, file: string): boolean {
  let flags = testFlagsOf.get(graph);
  if (!flags) testFlagsOf.set(graph, (flags = new Map(graph.toData().files.map((record) => [record.path, record.test]))));
  return flags.get(file) ?? looksLikeTestFile(file);
}

/** Tests that need more than the code (a model, a service, a browser): a check runs them only when no other test reaches the targets. */
export const HEAVY_TEST_FOLDERS: readonly string[] = ['eval', 'evals', 'benchmark', 'benchmarks'];
/** What a test file's name says before `.test.ts`: `agent.e2e.test.ts`. */
export const HEAVY_TEST_KINDS: readonly string[] = ['int', 'integration', 'e2e', 'eval', 'evals'];
const HEAVY_TEST = new RegExp(`(^|/)(${HEAVY_TEST_FOLDERS.join('|')})/|\\.(${HEAVY_TEST_KINDS.join('|')})\\.(test|spec)\\.[cm]?[jt]sx?$`);

/**
 * The tests nearest the targets' files through imports, run the way the repository runs its
 * tests: those importing a target's file, or else those a step further back, up to a few steps.
 * Nearest only: through a package's index, every test of every package reaches everything.
 */
function checksFor(root: string, graph: ProgramGraph, files: readonly string[]): PlanCheck[] {
  const light = new Set<string>();
  const heavy = new Set<string>();
  let frontier = new Set(files);
  const seen = new Set(files);
  for (let depth = 0; depth < TEST_IMPORT_DEPTH && frontier.size > 0 && light.size === 0; depth++) {
    const next = new Set<string>();
    for (const file of frontier) {
      for (const edge of graph.inEdges(file, 'imports')) {
        if (seen.has(edge.from)) continue;
        seen.add(edge.from);
        if (isTestFile(graph, edge.from)) (HEAVY_TEST.test(edge.from) ? heavy : light).add(edge.from);
        else next.add(edge.from);
      }
    }
    frontier = next;
  }
  const tests: Set<string> = new Set(light.size > 0 ? light : heavy);
  // Go tests sit beside the code in its package, and Rust's in the file itself (`#[cfg(test)]`), so
  // no import leads to them; and `go test` or `cargo test` compiles the package first. The targets'
  // own packages and crates are checked too.
  for (const file of files) if (file.endsWith('.go') || file.endsWith('.rs')) tests.add(file);
  // A monorepo's package runs its own tests, with its own runner and config: one check per package.
  // Python tests run under pytest from the root, where its configuration (pyproject.toml, pytest.ini) lies: one check for them all.
  const byPackage = new Map<string, string[]>();
  const packageOf = packageFolderFinder(root);
  for (const test of [...tests].sort()) {
    const folder = test.endsWith('.py') ? PYTHON_CHECK : test.endsWith('.go') ? GO_CHECK : test.endsWith('.rs') ? RUST_CHECK : packageOf(test);
    byPackage.set(folder, [...(byPackage.get(folder) ?? []), test]);
  }
  return [...byPackage].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([folder, files]) => {
    const name = byPackage.size === 1 ? 'tests' : LANGUAGE_CHECKS.get(folder) ?? `tests:${folder.replace(/[^\w.:-]+/g, '.') || 'root'}`;
    const reached = files.filter((file) => isTestFile(graph, file));
    const reason = folder === GO_CHECK || folder === RUST_CHECK
      ? `the targets' own ${folder === GO_CHECK ? 'packages' : 'crates'}, compiled and tested${reached.length > 0 ? `, and the tests that reach the targets through imports: ${reached.join(', ')}` : ''}`
      : `the tests that reach the targets through imports: ${files.join(', ')}`;
    if (folder === PYTHON_CHECK) return { name, command: `python -m pytest ${files.map(shellQuote).join(' ')}`, reason };
    // Go and Cargo run the tests of packages: the packages the test files belong to.
    if (folder === GO_CHECK) return { name, command: `go test ${[...new Set(files.map((file) => `./${path.posix.dirname(file)}`))].map(shellQuote).join(' ')}`, reason };
    if (folder === RUST_CHECK) return { name, command: cargoCommand(root, files), reason };
    const inPackage = folder === '' ? undefined : testCommand(path.join(root, folder), files.map((file) => file.slice(folder.length + 1)));
    return inPackage ? { name, command: inPackage, cwd: folder, reason } : { name, command: testCommand(root, files) ?? nodeCommand(files), reason };
  });
}

/** The groups of Python, Go and Rust tests among checks by package folder: no folder can take these names. */
const PYTHON_CHECK = '\u0000python';
const GO_CHECK = '\u0000go';
const RUST_CHECK = '\u0000rust';
const LANGUAGE_CHECKS = new Map([[PYTHON_CHECK, 'tests:python'], [GO_CHECK, 'tests:go'], [RUST_CHECK, 'tests:rust']]);

/** `cargo test -p NAME` for the crate of each test file (the package its nearest Cargo.toml declares), or the whole workspace's `cargo test`. */
function cargoCommand(root: string, files: readonly string[]): string {
  const crates = new Set<string>();
  for (const file of files) {
    let crate: string | undefined;
    for (let folder = path.posix.dirname(file); crate === undefined; folder = path.posix.dirname(folder)) {
      const manifest = path.join(root, folder, 'Cargo.toml');
      if (existsSync(manifest)) crate = cargoPackageName(readFileSync(manifest, 'utf8')) ?? '';
      if (folder === '.' || folder === '') break;
    }
    if (!crate) return 'cargo test';
    crates.add(crate);
  }
  return [...crates].sort().map((crate) => `cargo test -p ${crate}`).join(' && ');
}

/**
 * The package folder each file belongs to: the nearest folder above it, below the root, with a
 * package.json; '' for the root's own files.
 */
function packageFolderFinder(root: string): (file: string) => string {
  const known = new Map<string, string>();
  const folderOf = (folder: string): string => {
    if (folder === '.' || folder === '') return '';
    let found = known.get(folder);
    if (found === undefined) {
      found = existsSync(path.join(root, folder, 'package.json')) ? folder : folderOf(path.posix.dirname(folder));
      known.set(folder, found);
    }
    return found;
  };
  return (file) => folderOf(path.posix.dirname(file));
}

/**
 * How the package at `folder` runs the given test files (named from that folder): its runner with
 * the files, or its own test script. Undefined when its manifest names neither, so that the
 * repository root, whose runner or script may cover every package, runs them instead; at the root,
 * node itself runs them.
 */
function testCommand(folder: string, tests: readonly string[]): string | undefined {
  const manifest = readPackageManifest(folder);
  const dependencies = { ...manifest.dependencies, ...manifest.devDependencies };
  const files = tests.map(shellQuote).join(' ');
  if (dependencies.vitest) return `npx vitest run ${files}`;
  if (dependencies.jest) return `npx jest ${files}`;
  if (dependencies.mocha) return `npx mocha ${files}`;
  if (hasTestScript(manifest)) return 'npm test';
  return undefined;
}

/** Test files run by node itself, when no manifest names a runner or a test script. */
function nodeCommand(tests: readonly string[]): string {
  return tests.map((file) => (/\.[cm]?js$/.test(file) ? `node ${shellQuote(file)}` : `node --test ${shellQuote(file)}`)).join(' && ');
}

/** A file name as one shell word that the shell expands nothing in. */
function shellQuote(file: string): string {
  return /^[\w./@+-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}
