import { createHash } from 'node:crypto';
import { liveUnitsOf } from '../locate/live-file-units.js';
import type { LiveSourceReader } from '../locate/live-source.js';
import type { CommandOutcome } from './run-shell-command.js';
import type { ExitCheck, ExitCriteria, TaskLocator } from './task.js';
import type { TypecheckOutcome } from './typecheck.js';
import { PathRefused, type Workspace } from './workspace.js';

/** One exit criterion and whether it holds; `id` is stable (`check:test`, `changed:src/a.ts`, ...). */
export interface CriterionStatus {
  id: string;
  satisfied: boolean;
  detail: string;
}

export interface CheckRecord {
  outcome: CommandOutcome;
  /** The workspace version the check ran against; a later write makes the result stale. */
  version: number;
}

/** What the verifier needs from the outside world, injectable for tests. */
export interface VerifierDependencies {
  runCheck(check: ExitCheck): Promise<CommandOutcome>;
  typecheck(): TypecheckOutcome;
  /**
   * The repository's files as a build reads them: a target in a file a build leaves out (binary,
   * generated, over the size cap, a link out of the repository) holds no unit, so no edit there counts.
   */
  readSource: LiveSourceReader;
  /** Criteria the caller judges itself (e.g. no handbook entry frozen by the change); run only by verify(). */
  extraCriteria?: () => Promise<CriterionStatus[]>;
}

/** A unit's hash now, or why it cannot be found: `gone` when its file holds no code a build reads. */
type UnitText = { hash: string } | { gone: string } | undefined;

/**
 * Decides, from evidence it gathers itself, which exit criteria hold. The cheap view (files,
 * units, the last check results still valid) measures progress every turn; verify() runs
 * every check and the typecheck afresh, and only it may complete a task.
 */
export class ExitCriteriaVerifier {
  private readonly lastRuns = new Map<string, CheckRecord>();

  private constructor(
    private readonly workspace: Workspace,
    private readonly criteria: ExitCriteria,
    private readonly dependencies: VerifierDependencies,
    private readonly initialFiles: ReadonlyMap<string, string | undefined>,
    /** Each target's hash when the task began; none when it could not be found then. */
    private readonly initialTargets: ReadonlyMap<string, string | undefined>,
  ) {}

  static async start(workspace: Workspace, criteria: ExitCriteria, dependencies: VerifierDependencies): Promise<ExitCriteriaVerifier> {
    const recorded = criteria.fileBaselines ?? {};
    const files = new Map(criteria.filesMustChange.map((file) => [file, file in recorded ? (recorded[file] ?? undefined) : fileDigest(workspace, file)] as const));
    const targets = new Map<string, string | undefined>();
    // A target's planned hash is its baseline when it has one: a resumed run must not count work already done as missing.
    for (const target of criteria.targetsMustChange) targets.set(locatorId(target), target.hash ?? hashOf(await unitOf(workspace, dependencies.readSource, target)));
    return new ExitCriteriaVerifier(workspace, criteria, dependencies, files, targets);
  }

  /** Whether the task has criteria at all; a task without any could never be verified. */
  static hasAny(criteria: ExitCriteria): boolean {
    return (
      criteria.checks.length + criteria.filesMustChange.length + criteria.targetsMustChange.length + criteria.locatorsMustStayFresh.length > 0 || criteria.typecheck
    );
  }

  checkNamed(name: string): ExitCheck | undefined {
    return this.criteria.checks.find((check) => check.name === name);
  }

  get checkNames(): string[] {
    return this.criteria.checks.map((check) => check.name);
  }

  recordCheck(name: string, outcome: CommandOutcome, version: number): void {
    this.lastRuns.set(name, { outcome, version });
  }

  /** Every criterion, judged without running anything: checks count only if they passed on the current workspace. */
  async cheapStatus(version: number): Promise<CriterionStatus[]> {
    const checks = this.criteria.checks.map((check): CriterionStatus => {
      const last = this.lastRuns.get(check.name);
      if (!last) return { id: `check:${check.name}`, satisfied: false, detail: `check ${check.name} has not run` };
      if (last.version !== version) return { id: `check:${check.name}`, satisfied: false, detail: `check ${check.name} has not run since the last change` };
      return checkStatus(check, last.outcome);
    });
    const typecheck: CriterionStatus[] = this.criteria.typecheck ? [{ id: 'typecheck', satisfied: false, detail: 'the typecheck runs when the task is declared complete' }] : [];
    return [...checks, ...(await this.fileStatuses()), ...typecheck];
  }

  /** Runs every check and the typecheck now; the only judgement that can complete a task. */
  async verify(version: number, onCheck?: (check: ExitCheck, outcome: CommandOutcome) => void): Promise<CriterionStatus[]> {
    const checks: CriterionStatus[] = [];
    for (const check of this.criteria.checks) {
      const outcome = await this.dependencies.runCheck(check);
      this.recordCheck(check.name, outcome, version);
      onCheck?.(check, outcome);
      checks.push(checkStatus(check, outcome));
    }
    const typecheck: CriterionStatus[] = [];
    if (this.criteria.typecheck) {
      const outcome = this.dependencies.typecheck();
      typecheck.push({
        id: 'typecheck',
        satisfied: outcome.ok,
        detail: outcome.ok ? 'the repository type-checks' : `the typecheck found ${outcome.errorCount} error(s):\n${outcome.errors.join('\n')}`,
      });
    }
    return [...checks, ...(await this.fileStatuses()), ...typecheck, ...((await this.dependencies.extraCriteria?.()) ?? [])];
  }

  private async fileStatuses(): Promise<CriterionStatus[]> {
    const changed = this.criteria.filesMustChange.map((file): CriterionStatus => {
      const satisfied = fileDigest(this.workspace, file) !== this.initialFiles.get(file);
      return { id: `changed:${file}`, satisfied, detail: satisfied ? `${file} changed` : `${file} must change and has not` };
    });
    const targets: CriterionStatus[] = [];
    for (const target of this.criteria.targetsMustChange) {
      const before = this.initialTargets.get(locatorId(target));
      const now = await unitOf(this.workspace, this.dependencies.readSource, target);
      const satisfied = now !== undefined && 'hash' in now && now.hash !== before;
      const detail = satisfied
        ? `${locatorId(target)} changed`
        : now === undefined
          ? `${locatorId(target)} is not in ${target.file} any more: the plan target must be changed, not removed`
          : 'gone' in now
            ? `${locatorId(target)} cannot count as changed: ${now.gone}`
            : `${locatorId(target)} must change and has not`;
      targets.push({ id: `target:${locatorId(target)}`, satisfied, detail });
    }
    const fresh: CriterionStatus[] = [];
    for (const locator of this.criteria.locatorsMustStayFresh) {
      const now = await unitOf(this.workspace, this.dependencies.readSource, locator);
      const satisfied = now !== undefined && 'hash' in now && (locator.hash === undefined || now.hash === locator.hash);
      const detail = satisfied
        ? `${locatorId(locator)} is still fresh`
        : now === undefined
          ? `${locatorId(locator)} can no longer be found in ${locator.file}`
          : 'gone' in now
            ? `${locatorId(locator)} can no longer be found: ${now.gone}`
            : `${locatorId(locator)} changed, and it must stay as it was`;
      fresh.push({ id: `fresh:${locatorId(locator)}`, satisfied, detail });
    }
    return [...changed, ...targets, ...fresh];
  }
}

/** What the must-change files hold now: the baselines a run records when it starts. */
export function fileBaselines(workspace: Workspace, files: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(files.map((file) => [file, fileDigest(workspace, file) ?? null]));
}

function checkStatus(check: ExitCheck, outcome: CommandOutcome): CriterionStatus {
  const satisfied = outcome.exitCode === 0;
  const result = outcome.timedOut ? `timed out after ${check.timeoutMs} ms` : `exited ${outcome.exitCode ?? 'by a signal'}`;
  return { id: `check:${check.name}`, satisfied, detail: `check ${check.name} (\`${check.command}\`) ${result}` };
}

export function locatorId(locator: TaskLocator): string {
  return `${locator.file}#${locator.symbol}`;
}

function readText(workspace: Workspace, file: string): string | undefined {
  try {
    const read = workspace.readText(file);
    return read.status === 'text' ? read.text : undefined;
  } catch {
    return undefined;
  }
}

function fileDigest(workspace: Workspace, file: string): string | undefined {
  const text = readText(workspace, file);
  return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
}

function hashOf(unit: UnitText): string | undefined {
  return unit && 'hash' in unit ? unit.hash : undefined;
}

/** Read as the plan gate reads a locator's file, so a target it accepted is judged by the same rules. */
async function unitOf(workspace: Workspace, read: LiveSourceReader, locator: TaskLocator): Promise<UnitText> {
  let live;
  try {
    live = await liveUnitsOf(read, workspace.name(locator.file).relative);
  } catch (error) {
    if (!(error instanceof PathRefused)) throw error;
    return { gone: `${locator.file} cannot be read: ${error.message}` };
  }
  if ('gone' in live) return live;
  const unit = live.units.get(locator.symbol);
  return unit ? { hash: unit.hash } : undefined;
}
