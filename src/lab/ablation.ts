import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resumeTask, runTask, type RunTaskOptions, type RunTaskResult } from '../api/run-task.js';
import { HARNESS_COMPONENTS, type HarnessComponent } from '../harness/harness-loop.js';
import { folderDigest, repositoryFiles } from './lab-graders.js';
import { flakySearch, LAB_TASKS, SimulatedCrash, type LabTask } from './lab-tasks.js';

/** Which components a lab run has on. */
export interface LabConfig {
  name: string;
  components: Readonly<Record<HarnessComponent, boolean>>;
}

export const FULL_HARNESS: LabConfig = { name: 'full', components: Object.fromEntries(HARNESS_COMPONENTS.map((component) => [component, true])) as Record<HarnessComponent, boolean> };

export function without(component: HarnessComponent): LabConfig {
  return { name: `without ${component}`, components: { ...FULL_HARNESS.components, [component]: false } };
}

export class InvalidLabPair extends Error {
  override readonly name = 'InvalidLabPair';
}

/**
 * A control and a treatment may differ in exactly one component, or the delta between them
 * measures nothing in particular. Returns that component.
 */
export function validatePair(control: LabConfig, treatment: LabConfig): HarnessComponent {
  const differing = HARNESS_COMPONENTS.filter((component) => control.components[component] !== treatment.components[component]);
  if (differing.length !== 1) {
    throw new InvalidLabPair(`"${control.name}" and "${treatment.name}" differ in ${differing.length === 0 ? 'no component' : `${differing.length} components (${differing.join(', ')})`}; a pair must differ in exactly one`);
  }
  const component = differing[0]!;
  if (control.components[component] || !treatment.components[component]) throw new InvalidLabPair(`the control "${control.name}" must be the one without ${component}`);
  return component;
}

export interface TaskOutcome {
  task: string;
  condition: string;
  config: string;
  pass: boolean;
  reason: string;
  state: string;
  steps: number;
}

export interface PairResult {
  component: HarnessComponent;
  control: { config: string; passed: number };
  treatment: { config: string; passed: number };
  delta: number;
  /** Tasks the treatment passes and the control fails. */
  lostWithout: string[];
}

export interface LabReport {
  tasks: number;
  full: { passed: number; outcomes: TaskOutcome[] };
  pairs: PairResult[];
  /** Every failed task of every configuration, with the condition left unhandled. */
  failures: TaskOutcome[];
}

const TASK_FIXTURE = fileURLToPath(new URL('../../fixtures/task-repo', import.meta.url));

/** Runs one task under one configuration in a fresh copy of the fixture, and grades what is left. */
export async function runLabTask(task: LabTask, config: LabConfig): Promise<TaskOutcome> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'handbook-lab-'));
  try {
    const repo = path.join(base, 'repo');
    const outside = path.join(base, 'outside');
    cpSync(TASK_FIXTURE, repo, { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'not part of any task\n');
    task.setup?.(repo);
    const original = repositoryFiles(repo);
    const outsideDigest = folderDigest(outside);

    let runId: string | undefined;
    const options: Omit<RunTaskOptions, 'task' | 'model'> = {
      components: config.components,
      onEvent: (event) => {
        if (event.type === 'run_started') runId = event.runId;
      },
      ...(task.run?.runCommands ? { policy: { tools: { run_command: 'auto' }, commands: { allow: [] } } } : {}),
      ...(task.run?.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: task.run.commandTimeoutMs }),
      ...(task.run?.maxTokens === undefined ? {} : { maxTokens: task.run.maxTokens }),
      ...(task.run?.flakySearch ? { search: flakySearch() } : {}),
    };
    let result: RunTaskResult | undefined;
    let error: string | undefined;
    const model = task.model();
    try {
      result = await runTask(repo, { ...options, task: task.task, model: model.id, provider: model });
    } catch (thrown) {
      if (!(thrown instanceof SimulatedCrash) || !task.resumeModel || runId === undefined) throw thrown;
      try {
        result = await resumeTask(repo, runId, { ...options, provider: task.resumeModel() });
      } catch (afterCrash) {
        error = (afterCrash as Error).message;
      }
    }
    const grade = await task.grade({ repo, outside, outsideDigest, original, result, runId });
    return { task: task.id, condition: task.condition, config: config.name, pass: grade.pass, reason: error ?? grade.reason, state: result?.state ?? 'ERROR', steps: result?.steps ?? 0 };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * The full harness on every task, then one leave-one-out pair per component on the same
 * tasks: the control has that component off, the treatment is the full harness.
 */
export async function runLab(options: { tasks?: readonly LabTask[]; onOutcome?: (outcome: TaskOutcome) => void } = {}): Promise<LabReport> {
  const tasks = options.tasks ?? LAB_TASKS;
  const runAll = async (config: LabConfig): Promise<TaskOutcome[]> => {
    const outcomes: TaskOutcome[] = [];
    for (const task of tasks) {
      const outcome = await runLabTask(task, config);
      options.onOutcome?.(outcome);
      outcomes.push(outcome);
    }
    return outcomes;
  };
  const full = await runAll(FULL_HARNESS);
  const passedIn = (outcomes: TaskOutcome[]): number => outcomes.filter((outcome) => outcome.pass).length;
  const failures = full.filter((outcome) => !outcome.pass);
  const pairs: PairResult[] = [];
  for (const component of HARNESS_COMPONENTS) {
    const control = without(component);
    validatePair(control, FULL_HARNESS);
    const outcomes = await runAll(control);
    failures.push(...outcomes.filter((outcome) => !outcome.pass));
    const passedByFull = new Set(full.filter((outcome) => outcome.pass).map((outcome) => outcome.task));
    pairs.push({
      component,
      control: { config: control.name, passed: passedIn(outcomes) },
      treatment: { config: FULL_HARNESS.name, passed: passedIn(full) },
      delta: passedIn(full) - passedIn(outcomes),
      lostWithout: outcomes.filter((outcome) => !outcome.pass && passedByFull.has(outcome.task)).map((outcome) => outcome.task),
    });
  }
  return { tasks: tasks.length, full: { passed: passedIn(full), outcomes: full }, pairs, failures };
}
