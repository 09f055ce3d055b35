#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { z } from 'zod';
import {
  askHandbook,
  buildHandbook,
  DEFAULT_DEBOUNCE_MS,
  MAX_DEBOUNCE_MS,
  handbookStatus,
  HandbookError,
  liveDeclarationOf,
  livePlacesById,
  liveResolverOf,
  openHandbook,
  stageById,
  behaviorById,
  renderHandbook,
  applyPlan,
  parseModelSpec,
  planRequest,
  planWithModel,
  resumeTask,
  rollbackJournal,
  runTask,
  serveHandbook,
  startViewerServer,
  syncHandbook,
  TOOL_MODES,
  verifyJournal,
  watchHandbook,
  writeStaticSite,
  assertStaticSiteFolder,
  DEFAULT_VIEWER_HOST,
  DEFAULT_VIEWER_PORT,
  type Approver,
  type RunTaskResult,
} from '../index.js';
import { confirmOnTerminal, terminalApprover } from './approval-prompt.js';
import { exitOnBrokenPipe } from './broken-pipe.js';
import { EXIT, exitCodeFor, exitCodeForTask } from './exit-codes.js';
import { formatPlan, formatRunEvent, formatRunResult } from './format-run.js';
import { formatAsk, formatStaleRender, formatStatus, formatSync, formatNeighbours, formatOverview, formatRegister, formatSlot, formatUnsharedSlot, formatStage, formatBehavior, formatSummary, formatUnit, formatWatchEvent, graphShowUnits, overviewEntryPoints, stageUnitsShown } from './format.js';
import { callsJson, displacedJson, memberJson, neighbourJson, overviewJson, registerEntryJson, unitJson, withDeclared } from './live-places.js';
import { assertWritableFile, writeOutputFile } from './output-file.js';
import { createProgressReporter } from './progress.js';
import { abortOnStop, closeOnStop } from './stop-signals.js';
import { describeSystemError } from './system-errors.js';
import { reportUsageErrors } from './usage-errors.js';

const VERSION = '0.1.0';

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** zod's own message for an empty value ("Too small: expected string to have >=1 characters") speaks of types, not of what was typed. */
const EMPTY = { error: 'it is empty' };
const given = z.string().min(1, EMPTY);

/**
 * A whole number as typed: digits only. Number() alone reads "1e2" as 100, "0x10" as 16 and an
 * empty string as 0, so a typo became another value instead of a refusal.
 */
const digits = (value: unknown): unknown => (typeof value === 'string' && !/^\d+$/.test(value.trim()) ? Number.NaN : value);
const wholeNumber = <T extends z.ZodType>(schema: T) => z.preprocess(digits, schema);

/** The longest --timeout: a day, well inside what a timer can hold (about 24 days). */
const MAX_TIMEOUT_SECONDS = 86_400;
const TIMEOUT_RANGE = { error: `a number of seconds above 0, at most ${MAX_TIMEOUT_SECONDS}` };
/** Seconds as typed, fractions allowed: digits only, as for whole numbers, so that "-1", "1e2" or "" are refused rather than read as something else. */
const seconds = (value: unknown): unknown => (typeof value === 'string' && !/^\d+(\.\d+)?$/.test(value.trim()) ? Number.NaN : value);
const timeoutOption = z.preprocess(seconds, z.coerce.number(TIMEOUT_RANGE).positive(TIMEOUT_RANGE).max(MAX_TIMEOUT_SECONDS, TIMEOUT_RANGE)).optional();
/** sync, watch, serve and mcp take no --model: they stage again with the model the handbook was built with. */
const RESTAGE_TIMEOUT_HELP = 'when the handbook was built with a model: how long one request to it may wait for its answer to start, and then for each next part of it (default 600)';
const TIMEOUT_HELP = 'how long one model request may wait for its answer to start, and then for each next part of it (default 600); a request that times out is tried 4 times in all';

/** The provider settings --timeout makes, under the name a library call takes them by; without it the SDK's default stands. */
function timeoutAs<K extends 'provider' | 'providerOptions'>(key: K, seconds: number | undefined): { [P in K]?: { timeoutMs: number } } {
  return seconds === undefined ? {} : ({ [key]: { timeoutMs: seconds * 1000 } } as { [P in K]: { timeoutMs: number } });
}

const buildOptionsSchema = z.object({
  db: given.optional(),
  skeleton: given.optional(),
  include: z.array(given).optional(),
  model: given.optional(),
  timeout: timeoutOption,
  json: z.boolean().optional(),
  progress: z.boolean().optional(),
  maxFileSize: wholeNumber(z.coerce.number({ error: 'a whole number of bytes' }).int().positive()).optional(),
});

const syncOptionsSchema = z.object({ db: given.optional(), timeout: timeoutOption, progress: z.boolean().optional(), json: z.boolean().optional() }).strict();
const watchOptionsSchema = z
  .object({
    db: given.optional(),
    timeout: timeoutOption,
    debounce: wholeNumber(z.coerce.number({ error: 'a whole number of milliseconds' }).int().nonnegative().max(MAX_DEBOUNCE_MS, { error: `at most ${MAX_DEBOUNCE_MS} ms (a minute)` })).optional(),
    json: z.boolean().optional(),
  })
  .strict();
/**
 * rollback's count as typed. Past Number.MAX_SAFE_INTEGER, Number() rounds, and the refusal that
 * followed named 1e+23 writes: a number the user never typed.
 */
function writeCount(text: string): number {
  const count = Number(text);
  if (!/^[1-9]\d*$/.test(text) || !Number.isSafeInteger(count)) {
    throw new HandbookError('INVALID_INPUT', `rollback needs a positive whole number of writes up to ${Number.MAX_SAFE_INTEGER}, not "${text}"`, 'e.g. `handbook rollback 1`');
  }
  return count;
}

/** `handbook build ""` is a slip, not a request for the current folder. */
function repositoryArgument(value: string): string {
  if (value.trim() === '') throw new HandbookError('INVALID_INPUT', 'the repository path is empty', 'pass a folder, or leave it out for the current one');
  return value;
}

const readOptionsSchema = z.object({
  repo: given.default('.'),
  db: given.optional(),
  json: z.boolean().optional(),
});

const renderOptionsSchema = readOptionsSchema.extend({ out: given.optional(), html: given.optional() });
const exportOptionsSchema = readOptionsSchema.extend({ out: given.optional() });
const serveOptionsSchema = z
  .object({
    repo: given.default('.'),
    db: given.optional(),
    host: given.default(DEFAULT_VIEWER_HOST),
    port: wholeNumber(z.coerce.number({ error: 'a whole number from 0 to 65535' }).int().min(0).max(65_535)).default(DEFAULT_VIEWER_PORT),
    timeout: timeoutOption,
    json: z.boolean().optional(),
  })
  .strict();
/** One message for every way a --limit can be wrong: zod's own ("expected number, received NaN") speaks of types, not of the option. */
const LIMIT_RANGE = { error: 'a whole number from 1 to 500' };
const askOptionsSchema = readOptionsSchema.extend({ limit: wholeNumber(z.coerce.number(LIMIT_RANGE).int(LIMIT_RANGE).min(1, LIMIT_RANGE).max(500, LIMIT_RANGE)).optional(), explain: z.boolean().optional(), model: given.optional(), timeout: timeoutOption });

/** The longest --wall-clock: a week, well inside what the harness's deadline timer can hold (about 24 days). */
const MAX_WALL_CLOCK_SECONDS = 604_800;
const WALL_CLOCK_RANGE = { error: `a whole number of seconds from 1 to ${MAX_WALL_CLOCK_SECONDS} (a week)` };
const runOptionsSchema = z
  .object({
    task: z.string().trim().min(1, EMPTY),
    check: z.array(z.string().trim().min(1, 'a check command is empty')).optional(),
    mustChange: z.array(z.string().min(1, 'a file name is empty')).optional(),
    typecheck: z.boolean().optional(),
    scope: z.array(z.string().min(1, 'a glob is empty')).optional(),
    model: given,
    timeout: timeoutOption,
    escalate: given.optional(),
    toolMode: z.enum(TOOL_MODES).optional(),
    repo: given.default('.'),
    maxSteps: wholeNumber(z.coerce.number({ error: 'a whole number of steps' }).int().positive()).optional(),
    wallClock: wholeNumber(z.coerce.number(WALL_CLOCK_RANGE).int(WALL_CLOCK_RANGE).positive(WALL_CLOCK_RANGE).max(MAX_WALL_CLOCK_SECONDS, WALL_CLOCK_RANGE)).optional(),
    policy: given.optional(),
    json: z.boolean().optional(),
    quiet: z.boolean().optional(),
  })
  .strict();

const planOptionsSchema = readOptionsSchema.extend({ model: given.default('offline'), timeout: timeoutOption, out: given.optional() }).strict();
const applyOptionsSchema = z
  .object({
    repo: given.default('.'),
    db: given.optional(),
    model: given,
    timeout: timeoutOption,
    yes: z.boolean().optional(),
    toolMode: z.enum(TOOL_MODES).optional(),
    escalate: given.optional(),
    policy: given.optional(),
    json: z.boolean().optional(),
    quiet: z.boolean().optional(),
  })
  .strict();

const resumeOptionsSchema = z
  .object({
    repo: given.default('.'),
    model: given.optional(),
    timeout: timeoutOption,
    escalate: given.optional(),
    policy: given.optional(),
    json: z.boolean().optional(),
    quiet: z.boolean().optional(),
  })
  .strict();

/** Runs a task (new or resumed) with Ctrl-C stopping it cleanly, live event lines unless quiet, and the exit code of its final state. */
async function runWithSignals(
  options: { json?: boolean | undefined; quiet?: boolean | undefined; repo?: string },
  start: (common: { signal: AbortSignal; approver?: Approver; onEvent?: (event: Parameters<typeof formatRunEvent>[0]) => void }) => Promise<RunTaskResult>,
  jsonOf: (result: RunTaskResult) => unknown = () => undefined,
  moreText: () => string | undefined = () => undefined,
): Promise<void> {
  const approver = terminalApprover();
  const result = await abortOnStop((signal) =>
    start({
      signal,
      ...(approver ? { approver } : {}),
      ...(options.quiet ? {} : { onEvent: (event) => process.stderr.write(`${formatRunEvent(event)}\n`) }),
    }),
  );
  if (options.json) printJson(jsonOf(result) ?? result);
  else print([formatRunResult(result, options.repo), moreText()].filter(Boolean).join('\n'));
  process.exitCode = exitCodeForTask(result.state);
}

/** A check's name for run_check, from its command: `npm test` → `npm-test`, numbered when two collide. */
function checkNames(commands: readonly string[]): Array<{ name: string; command: string }> {
  const used = new Set<string>();
  return commands.map((command) => {
    const base = command.toLowerCase().replace(/[^\w.:-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'check';
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}-${suffix}`;
    used.add(name);
    return { name, command };
  });
}

function parseOptions<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A repeatable option's issue is at its index (check.0); the user typed --check, not --check.0.
    const option = issue.path.filter((segment) => typeof segment === 'string');
    throw new HandbookError('INVALID_INPUT', `invalid option --${option.join('.').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: ${issue.message}`, 'see `handbook --help`');
  }
  return parsed.data;
}

function open(raw: unknown) {
  const options = parseOptions(readOptionsSchema, raw);
  return { options, handbook: openHandbook(options.repo, options.db ? { database: options.db } : {}) };
}

/** A help text's closing examples, each a command line as typed. */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ handbook ${line}`).join('\n')}`;
}

const readOptions = (command: Command): Command =>
  command
    .option('--repo <dir>', 'repository folder', '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--json', 'print JSON on stdout');

export function createProgram(): Command {
  const program = new Command('handbook')
    .description('Makes AI-agent harness codebases readable, navigable and safely editable.')
    .version(VERSION)
    .option('--debug', 'show stack traces for unexpected errors')
    .addHelpText('after', examples('build .', 'ask "where is secret masking done?"'));

  program
    .command('build')
    .description('analyze a repository into a program graph and store it as the current handbook')
    .argument('[repo]', 'repository folder', repositoryArgument, '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--max-file-size <bytes>', 'skip source files larger than this (default 1000000)')
    .option('--include <dir...>', 'analyze only these folders of the repository')
    .option('--model <spec>', 'stager: offline (default) | anthropic:MODEL | openai:MODEL | openai-compatible:MODEL@URL')
    .option('--timeout <seconds>', TIMEOUT_HELP)
    .option('--skeleton <file>', 'a JSON file of stages that replaces or extends the built-in skeleton')
    .option('--no-progress', 'do not show a progress bar')
    .option('--json', 'print the build summary as JSON on stdout')
    .addHelpText('after', examples('build .', 'build ../gemini-cli --include packages/core/src packages/cli/src'))
    .action(async (repo: string, raw: unknown) => {
      const options = parseOptions(buildOptionsSchema, raw);
      const reporter = createProgressReporter(options.progress !== false);
      try {
        const summary = await buildHandbook(repo, {
          ...(options.db ? { database: options.db } : {}),
          ...(options.maxFileSize ? { maxFileBytes: options.maxFileSize } : {}),
          ...(options.skeleton ? { skeleton: options.skeleton } : {}),
          ...(options.include ? { include: options.include } : {}),
          ...(options.model ? { model: options.model } : {}),
          ...timeoutAs('provider', options.timeout),
          onProgress: reporter.update,
        });
        reporter.stop();
        if (options.json) printJson(summary);
        else print(formatSummary(summary, 'built handbook for'));
      } finally {
        reporter.stop();
      }
    });

  program
    .command('sync')
    .description('bring the handbook up to date with the files: re-analyzes only what changed, stores what a cold build would')
    .argument('[repo]', 'repository folder', repositoryArgument, '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--timeout <seconds>', RESTAGE_TIMEOUT_HELP)
    .option('--no-progress', 'do not show a progress bar')
    .option('--json', 'print the sync summary as JSON on stdout')
    .addHelpText('after', examples('sync .', 'sync ../gemini-cli --json'))
    .action(async (repo: string, raw: unknown) => {
      const options = parseOptions(syncOptionsSchema, raw);
      const reporter = createProgressReporter(options.progress !== false);
      try {
        const summary = await syncHandbook(repo, {
          ...(options.db ? { database: options.db } : {}),
          ...timeoutAs('provider', options.timeout),
          onProgress: reporter.update,
        });
        reporter.stop();
        if (options.json) printJson(summary);
        else print(formatSync(summary));
      } finally {
        reporter.stop();
      }
    });

  program
    .command('watch')
    .description('keep the handbook in sync while files change: one sync per burst of changes, a line per sync, until Ctrl-C')
    .argument('[repo]', 'repository folder', repositoryArgument, '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--debounce <ms>', `quiet time after the last change before a sync, up to ${MAX_DEBOUNCE_MS} (default ${DEFAULT_DEBOUNCE_MS})`)
    .option('--timeout <seconds>', RESTAGE_TIMEOUT_HELP)
    .option('--json', 'print each event as one line of JSON (NDJSON) on stdout')
    .addHelpText('after', examples('watch .', 'watch . --json --debounce 500'))
    .action(async (repo: string, raw: unknown) => {
      const options = parseOptions(watchOptionsSchema, raw);
      const watching = await watchHandbook(repo, {
        ...(options.db ? { database: options.db } : {}),
        ...(options.debounce === undefined ? {} : { debounceMs: options.debounce }),
        ...timeoutAs('provider', options.timeout),
        onEvent: (event) => {
          if (options.json) print(JSON.stringify(event));
          // A fatal error ends the command, and its `handbook:` line says why.
          else if (event.type === 'error') {
            if (!event.fatal) process.stderr.write(`${formatWatchEvent(event)}\n`);
          } else print(formatWatchEvent(event));
        },
      });
      // A second signal ends the process at once: what a sync writes takes effect in one
      // transaction, so even that leaves the previous handbook intact.
      await closeOnStop(
        () => watching.close(),
        watching.stopped().then((error) => {
          if (error) throw error;
        }),
      );
    });

  program
    .command('run')
    .description('run a task with a model through the embedded harness loop; the harness verifies the exit criteria itself (exit 0 only when COMPLETE)')
    .requiredOption('--task <text>', 'what to do, in words')
    .requiredOption('--model <spec>', 'anthropic:MODEL | openai:MODEL | openai-compatible:MODEL@URL | script:PATH')
    .option('--timeout <seconds>', TIMEOUT_HELP)
    .option('--check <command...>', 'a shell command that must exit 0 for the task to be complete (repeatable)')
    .option('--must-change <file...>', 'a file that must change for the task to be complete')
    .option('--typecheck', 'the repository must type-check for the task to be complete')
    .option('--scope <glob...>', 'where writes are allowed (default: anywhere in the repository)')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--max-steps <n>', 'model turns before the task fails (default 24)')
    .option('--wall-clock <seconds>', `time before the task fails, at most ${MAX_WALL_CLOCK_SECONDS} (default 1800)`)
    .option('--tool-mode <mode>', `how the model calls tools: ${TOOL_MODES.join(' | ')} (default native)`)
    .option('--escalate <spec>', 'a stronger model to switch to when the harness keeps breaking loops')
    .option('--policy <file>', 'approval policy JSON: {"tools": {"run_command": "auto"}, "commands": {"allow": ["npm test"]}}')
    .option('--quiet', 'no live event lines on stderr')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText('after', examples('run --task "mask API keys in captured tool output" --check "npm test" --model anthropic:MODEL', 'run --task "fix the flaky retry test" --check "npm test" --typecheck --scope "src/**" --model openai-compatible:qwen2.5-coder@http://127.0.0.1:11434/v1'))
    .action(async (raw: unknown) => {
      const options = parseOptions(runOptionsSchema, raw);
      await runWithSignals(options, (common) =>
        runTask(options.repo, {
          task: {
            text: options.task,
            exitCriteria: { checks: checkNames(options.check ?? []), filesMustChange: options.mustChange ?? [], typecheck: options.typecheck === true },
            scope: options.scope ?? [],
            limits: {
              ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
              ...(options.wallClock === undefined ? {} : { wallClockMs: options.wallClock * 1000 }),
            },
          },
          model: options.model,
          ...timeoutAs('providerOptions', options.timeout),
          ...(options.escalate ? { escalate: options.escalate } : {}),
          ...(options.toolMode ? { toolMode: options.toolMode } : {}),
          ...(options.policy ? { policy: options.policy } : {}),
          ...common,
        }),
      );
    });

  program
    .command('plan')
    .description('turn a behaviour request into an edit plan checked against the live code; saved under .handbook/plans (exit 0 accepted, 11 rejected)')
    .argument('<request>', 'the change in your own words, e.g. "mask secrets in every capture path"')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--model <spec>', 'planner: offline (the default, deterministic, no model) | anthropic:MODEL | openai:MODEL | openai-compatible:MODEL@URL | script:PATH (the llm planner, read-only tools in the harness loop)')
    .option('--timeout <seconds>', TIMEOUT_HELP)
    .option('--out <file>', 'also write the plan as JSON to this file')
    .option('--json', 'print the plan as JSON on stdout')
    .addHelpText('after', examples('plan "mask secrets in every capture path"', 'plan "retry on overloaded errors" --model anthropic:MODEL --out plan.json'))
    .action(async (request: string, raw: unknown) => {
      const options = parseOptions(planOptionsSchema, raw);
      if (options.out) assertWritableFile('--out', options.out, { root: options.repo, ...(options.db ? { database: options.db } : {}) });
      const database = options.db ? { database: options.db } : {};
      const { plan, files } = parseModelSpec(options.model).provider === 'offline' ? await planRequest(options.repo, request, database) : await planWithModel(options.repo, request, { model: options.model, ...database, ...timeoutAs('providerOptions', options.timeout) });
      if (options.out) writeOutputFile('--out', options.out, `${JSON.stringify(plan, null, 2)}\n`, `the plan is saved as ${files.json}`);
      if (options.json) printJson(plan);
      else print(formatPlan(plan, files.markdown));
      if (plan.status === 'rejected') process.exitCode = EXIT.planRejected;
    });

  program
    .command('apply')
    .description('execute an accepted plan with a model through the harness loop, inside the plan scope, until its checks pass; then re-sync the handbook')
    .argument('<plan>', 'a plan id from `handbook plan`, or the path of its .json file')
    .requiredOption('--model <spec>', 'anthropic:MODEL | openai:MODEL | openai-compatible:MODEL@URL | script:PATH')
    .option('--timeout <seconds>', TIMEOUT_HELP)
    .option('--repo <dir>', 'repository folder', '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--yes', 'apply without asking first (required when there is no terminal to ask on)')
    .option('--tool-mode <mode>', `how the model calls tools: ${TOOL_MODES.join(' | ')} (default native)`)
    .option('--escalate <spec>', 'a stronger model to switch to when the harness keeps breaking loops')
    .option('--policy <file>', 'approval policy JSON')
    .option('--quiet', 'no live event lines on stderr')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText('after', examples('apply plan-20261207-005940-f8717e --model anthropic:MODEL', 'apply plan.json --model openai:MODEL --yes --quiet'))
    .action(async (reference: string, raw: unknown) => {
      const options = parseOptions(applyOptionsSchema, raw);
      if (!options.yes && !(await confirmOnTerminal(`apply plan ${reference} to ${options.repo} with ${options.model}?`))) {
        throw new HandbookError('INVALID_INPUT', 'the plan was not applied: nobody confirmed it', 'pass --yes to apply without a prompt');
      }
      let sync: Awaited<ReturnType<typeof applyPlan>>['sync'];
      let plan = '';
      await runWithSignals(options, async (common) => {
        const applied = await applyPlan(options.repo, reference, {
          model: options.model,
          ...timeoutAs('providerOptions', options.timeout),
          ...(options.db ? { database: options.db } : {}),
          ...(options.toolMode ? { toolMode: options.toolMode } : {}),
          ...(options.escalate ? { escalate: options.escalate } : {}),
          ...(options.policy ? { policy: options.policy } : {}),
          ...common,
        });
        sync = applied.sync;
        plan = applied.plan;
        return applied.run;
      }, (result) => (options.json ? { plan, ...result, ...(sync ? { sync } : {}) } : undefined), () => (sync ? formatSync(sync) : undefined));
    });

  program
    .command('resume')
    .description('continue an interrupted run: cut-off calls are reconciled first, completed ones never run again, and the model starts fresh with a handoff')
    .argument('<run>', 'the run id `handbook run` printed (a folder under .handbook/runs/)')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--model <spec>', 'the model for the rest of the run (default: the one it started with)')
    .option('--timeout <seconds>', TIMEOUT_HELP)
    .option('--escalate <spec>', 'a stronger model to switch to when the harness keeps breaking loops')
    .option('--policy <file>', 'approval policy JSON')
    .option('--quiet', 'no live event lines on stderr')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText('after', examples('resume 20261207-010032-39a58f', 'resume 20261207-010032-39a58f --model anthropic:MODEL'))
    .action(async (runId: string, raw: unknown) => {
      const options = parseOptions(resumeOptionsSchema, raw);
      // A resumed apply re-syncs the handbook when it completes, as apply does.
      let sync: RunTaskResult['sync'];
      await runWithSignals(options, async (common) => {
        const result = await resumeTask(options.repo, runId, {
          ...(options.model ? { model: options.model } : {}),
          ...timeoutAs('providerOptions', options.timeout),
          ...(options.escalate ? { escalate: options.escalate } : {}),
          ...(options.policy ? { policy: options.policy } : {}),
          ...common,
        });
        sync = result.sync;
        return result;
      }, undefined, () => (sync ? formatSync(sync) : undefined));
    });

  readOptions(program.command('overview').description('what the harness is, its stages in order, entry points and the state that couples stages').addHelpText('after', examples('overview', 'overview --repo ../gemini-cli --json')))
    .action(async (raw: unknown) => {
      const { options, handbook } = open(raw);
      const { overview } = handbook.organized;
      // Only the entry points printed are resolved: the text names a few, however large the repository.
      const placed = await livePlacesById(handbook.graph, options.json ? overview.entryPoints : overviewEntryPoints(overview), liveResolverOf(handbook));
      if (options.json) printJson(overviewJson(overview, placed));
      else print(formatOverview(handbook.organized, placed));
    });

  readOptions(program.command('stage').description('one stage: summary, entry points, and its members behaviour by behaviour').argument('<id>', 'stage id, as listed by `handbook overview`').addHelpText('after', examples('stage security', 'stage agent-loop --json')))
    .action(async (id: string, raw: unknown) => {
      const { options, handbook } = open(raw);
      const stage = stageById(handbook.organized, id);
      const placed = await livePlacesById(handbook.graph, options.json ? stage.members.map((member) => member.unit) : stageUnitsShown(stage), liveResolverOf(handbook));
      if (options.json) printJson({ stager: handbook.organized.stager, ...stage, members: stage.members.map((member) => memberJson(member, placed)) });
      else print(formatStage(stage, handbook.organized, placed));
    });

  readOptions(program.command('behavior').description('one behaviour of a stage: summary, entry points, state and members').argument('<id>', 'behaviour id (STAGE/NAME), as listed by `handbook stage STAGE`').addHelpText('after', examples('behavior tool-execution/shell-capture-output', 'behavior security/secrets-redact --json')))
    .action(async (id: string, raw: unknown) => {
      const { options, handbook } = open(raw);
      const { stage, behavior } = behaviorById(handbook.organized, id);
      const placed = await livePlacesById(handbook.graph, [...behavior.entryPoints, ...behavior.members], liveResolverOf(handbook));
      const byUnit = new Map(stage.members.map((member) => [member.unit, member]));
      if (options.json) printJson({ stager: handbook.organized.stager, stage: stage.id, ...behavior, members: behavior.members.map((unit) => memberJson(byUnit.get(unit) ?? { unit, score: 0, primary: true }, placed)) });
      else print(formatBehavior(behavior, stage, placed));
    });

  readOptions(program.command('register').description('the state register: shared state with its writers, readers and the stages it couples').argument('[slot]', 'only this slot (id or Owner.field)').addHelpText('after', examples('register', 'register HarnessConfig.approvalMode')))
    .action(async (reference: string | undefined, raw: unknown) => {
      const { options, handbook } = open(raw);
      // An empty SLOT is a slip, as for `graph state`, not a request for the whole register.
      const slot = reference === undefined ? undefined : handbook.graph.getSlotOrThrow(reference);
      const entries = slot ? handbook.register.filter((entry) => entry.slot === slot.id) : handbook.register;
      if (slot && entries.length === 0 && !options.json) {
        print(formatUnsharedSlot(slot.id));
        return;
      }
      // One resolver for the declarations and the writers and readers, so each file is read once.
      const resolver = liveResolverOf(handbook);
      const unitOf = (id: string) => handbook.graph.getUnit(id);
      const [declarations, placed] = await Promise.all([
        Promise.all(entries.map(async (entry) => ({ entry, declared: (await liveDeclarationOf(handbook.graph.getSlotOrThrow(entry.slot), unitOf, resolver)).declared }))),
        livePlacesById(handbook.graph, entries.flatMap((entry) => [...entry.writers, ...entry.readers].map((access) => access.unit)), resolver),
      ]);
      if (options.json) printJson({ stager: handbook.organized.stager, slots: declarations.map(({ entry, declared }) => registerEntryJson(entry, declared, placed)) });
      else print(formatRegister(declarations, placed));
    });

  readOptions(
    program
      .command('render')
      .description('write the handbook as Markdown: overview.md, stages/<id>.md, register.md; or, with --html, as a static web site')
      .option('--out <dir>', 'output folder (default: <repo>/.handbook/markdown)')
      .option('--html <dir>', 'write the web viewer with its data as a static site into this folder (Markdown too only if --out is given)')
      .addHelpText('after', examples('render --out handbook-pages', 'render --html site')),
  ).action(async (raw: unknown) => {
    const options = parseOptions(renderOptionsSchema, raw);
    const database = options.db ? { database: options.db } : {};
    // Both asked for: a site folder that will be refused is refused before the pages are written.
    if (options.html !== undefined && options.out !== undefined) await assertStaticSiteFolder(options.html);
    const markdown = options.html === undefined || options.out !== undefined ? renderHandbook(options.repo, { ...database, ...(options.out ? { out: options.out } : {}) }) : undefined;
    const site = options.html === undefined ? undefined : await writeStaticSite(options.repo, options.html, database);
    // The pages are the stored handbook's, lines and all: rendered after an edit, they point at code that moved, silently.
    const staleNote = await handbookStatus(options.repo, database).then(
      (report) => (report.fresh ? undefined : formatStaleRender(report)),
      // The pages are written: a check that cannot run (a folder the build included is gone) is reported, not made the render's failure.
      (error: unknown) => {
        if (!HandbookError.isInstance(error)) throw error;
        return `note: could not check the pages against the code: ${error.message}${error.hint ? ` (${error.hint})` : ''}`;
      },
    );
    if (staleNote) process.stderr.write(`${staleNote}\n`);
    if (options.json) {
      printJson({
        ...(markdown ? { outDirectory: markdown.outDirectory, pages: markdown.pages.map((page) => page.path) } : {}),
        ...(site ? { html: site } : {}),
      });
      return;
    }
    if (markdown) print(`wrote ${markdown.pages.length} pages to ${markdown.outDirectory}`);
    if (site) {
      const skipped = site.skippedSources.length === 0 ? '' : ` (${site.skippedSources.length} source files gone or refused, left out)`;
      print(`wrote the web viewer to ${site.directory}: ${site.files.length} files, open index.html through any static web server${skipped}`);
    }
  });

  readOptions(
    program
      .command('ask')
      .description('where is a behaviour implemented? every place, ranked, checked against the live code')
      .argument('<request>', 'a behaviour in your own words, e.g. "where is secret masking done?"')
      .option('--limit <n>', 'how many locations, 1 to 500 (default 20)')
      .option('--explain', 'show how the request was routed: terms, stages, seeds')
      .option('--model <spec>', 'router: offline (default, deterministic) | anthropic:MODEL | openai:MODEL | openai-compatible:MODEL@URL (ranks and prunes the offline candidates)')
      .option('--timeout <seconds>', TIMEOUT_HELP)
      .addHelpText('after', examples('ask "where is secret masking done?"', 'ask "how are retries scheduled?" --limit 5 --explain')),
  ).action(async (request: string, raw: unknown) => {
    const options = parseOptions(askOptionsSchema, raw);
    const result = await askHandbook(options.repo, request, {
      ...(options.db ? { database: options.db } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...timeoutAs('provider', options.timeout),
      explain: options.explain === true,
    });
    if (options.json) printJson(result);
    else print(formatAsk(result));
  });

  program
    .command('serve')
    .description('serve the handbook as a web app: overview, stages, state register, source, search and a graph of the code, updated live as files change; read-only, on this machine only unless --host says otherwise')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--host <address>', `address to listen on (default ${DEFAULT_VIEWER_HOST}: reachable from this machine only)`)
    .option('--port <n>', `port to listen on (default ${DEFAULT_VIEWER_PORT}; 0 takes any free port)`)
    .option('--timeout <seconds>', RESTAGE_TIMEOUT_HELP)
    .option('--json', 'print where it serves as one JSON line: {"url", "root"}')
    .addHelpText('after', examples('serve', 'serve --repo ../gemini-cli --port 0 --json'))
    .action(async (raw: unknown) => {
      const options = parseOptions(serveOptionsSchema, raw);
      const server = await startViewerServer(options.repo, {
        host: options.host,
        port: options.port,
        ...(options.db ? { database: options.db } : {}),
        ...timeoutAs('provider', options.timeout),
      });
      if (options.json) print(JSON.stringify({ url: server.url, root: server.root }));
      else print(`serving ${server.url} (repo ${server.root})`);
      await closeOnStop(() => server.close());
    });

  program
    .command('mcp')
    .description('serve the handbook to a coding agent over MCP on stdio: tools ask, overview, stage, entry, register, resolve, plan, status, and the pages as handbook:// resources; every answer re-synced with the files first')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--timeout <seconds>', RESTAGE_TIMEOUT_HELP)
    .addHelpText('after', examples('mcp --repo /path/to/harness'))
    .action(async (raw: unknown) => {
      const options = parseOptions(readOptionsSchema.omit({ json: true }).extend({ timeout: timeoutOption }).strict(), raw);
      await abortOnStop((signal) =>
        serveHandbook(options.repo, { ...(options.db ? { database: options.db } : {}), ...timeoutAs('provider', options.timeout), signal }),
      );
    });

  program
    .command('status')
    .description('is the handbook fresh? every entry checked against the live files; exit 0 fresh, 5 stale')
    .argument('[repo]', 'repository folder', repositoryArgument, '.')
    .option('--db <path>', 'database file (default: <repo>/.handbook/handbook.db)')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', examples('status', 'status ../gemini-cli --json'))
    .action(async (repo: string, raw: unknown) => {
      const options = parseOptions(readOptionsSchema.omit({ repo: true }), raw);
      const report = await handbookStatus(repo, options.db ? { database: options.db } : {});
      if (options.json) printJson(report);
      else print(formatStatus(report));
      if (!report.fresh) process.exitCode = EXIT.stale;
    });

  const journalOptionsSchema = z.object({ repo: given.default('.'), json: z.boolean().optional() }).strict();
  const journal = program.command('journal').description('the tamper-evident journal of writes under <repo>/.handbook/journal').addHelpText('after', examples('journal verify'));
  journal
    .command('verify')
    .description('check every entry, the chain and the head; exit 0 verified, 9 broken (the first broken link is named)')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', examples('journal verify', 'journal verify --repo ../gemini-cli --json'))
    .action((raw: unknown) => {
      const options = parseOptions(journalOptionsSchema, raw);
      const report = verifyJournal(options.repo);
      if (options.json) printJson(report);
      else if (report.ok) print(`journal verified: ${report.entries} entries${report.tornTail ? ' (the last line, half-written by an interrupted write, is not an entry; the next write trims it)' : ''}`);
      else print(`journal broken: ${report.reason}`);
      if (!report.ok) process.exitCode = EXIT.journalBroken;
    });

  program
    .command('rollback')
    .description('restore the files of the last N journaled writes byte for byte, newest first; exit 0 all restored, 10 some refused, 9 journal broken')
    .argument('<n>', 'how many writes to undo')
    .option('--repo <dir>', 'repository folder', '.')
    .option('--json', 'print JSON on stdout')
    .addHelpText('after', examples('rollback 1', 'rollback 3 --json'))
    .action(async (n: string, raw: unknown) => {
      const options = parseOptions(journalOptionsSchema, raw);
      const report = await rollbackJournal(options.repo, writeCount(n));
      if (options.json) printJson(report);
      else {
        for (const entry of report.restored) print(`restored ${entry.path} (seq ${entry.seq}, ${entry.kind}${entry.alreadyRestored ? ', the write had not reached the disk' : ''})`);
        for (const entry of report.refused) print(`refused line ${entry.line}${entry.path === undefined ? '' : ` (${entry.path})`}: ${entry.reason}`);
        if (report.journal.ok) print(`rolled back ${report.restored.length} of ${n} write${n === '1' ? '' : 's'}`);
        else print(`journal broken: ${report.journal.reason}; nothing was rolled back`);
      }
      if (!report.journal.ok) process.exitCode = EXIT.journalBroken;
      else if (report.refused.length > 0) process.exitCode = EXIT.rollbackIncomplete;
    });

  const graph = program.command('graph').description('query the program graph of the current handbook').addHelpText('after', examples('graph callers maskSecrets', 'graph state HarnessConfig.approvalMode'));

  readOptions(graph.command('stats').description('counts of files, units, edges and resolved calls').addHelpText('after', examples('graph stats', 'graph stats --repo ../gemini-cli --json'))).action((raw: unknown) => {
    const { options, handbook } = open(raw);
    if (options.json) printJson(handbook.summary);
    else print(formatSummary(handbook.summary, 'handbook for'));
  });

  readOptions(graph.command('show').description('one unit: where it is, its signature, doc, callers and callees').argument('<unit>', 'unit id or unambiguous symbol name').addHelpText('after', examples('graph show AgentLoop.step', 'graph show src/security/secrets.ts#maskSecrets --json')))
    .action(async (reference: string, raw: unknown) => {
      const { options, handbook } = open(raw);
      const unit = handbook.graph.getUnitOrThrow(reference);
      const callers = handbook.graph.callers(unit.id);
      const callees = handbook.graph.callees(unit.id);
      // The unit's own place holds the lines of its calls, so it is resolved with the neighbours listed.
      const shown = options.json ? [unit.id, ...[...callers, ...callees].map((neighbour) => neighbour.unit.id)] : graphShowUnits(unit, callers, callees);
      const placed = await livePlacesById(handbook.graph, shown, liveResolverOf(handbook));
      if (options.json) printJson({ unit: unitJson(unit, placed), callers: callsJson(unit, 'callers', callers, placed), callees: callsJson(unit, 'callees', callees, placed) });
      else print(formatUnit(unit, callers, callees, placed));
    });

  for (const direction of ['callers', 'callees'] as const) {
    const helpExamples = direction === 'callers' ? examples('graph callers maskSecrets', 'graph callers src/security/secrets.ts#maskSecrets --json') : examples('graph callees AgentLoop.step', 'graph callees AgentLoop.step --json');
    readOptions(graph.command(direction).description(direction === 'callers' ? 'units that call this unit' : 'units this unit calls').argument('<unit>', 'unit id or unambiguous symbol name').addHelpText('after', helpExamples))
      .action(async (reference: string, raw: unknown) => {
        const { options, handbook } = open(raw);
        const unit = handbook.graph.getUnitOrThrow(reference);
        const found = direction === 'callers' ? handbook.graph.callers(unit.id) : handbook.graph.callees(unit.id);
        const placed = await livePlacesById(handbook.graph, [unit.id, ...found.map((neighbour) => neighbour.unit.id)], liveResolverOf(handbook));
        // The unit asked about is named by id; where it stands now comes beside the list when that is not the build's place.
        const displacedUnit = displacedJson(unit.id, placed);
        if (options.json) printJson({ unit: unit.id, [direction]: callsJson(unit, direction, found, placed), ...(displacedUnit ? { displacedUnit } : {}) });
        else print(formatNeighbours(unit, found, direction, placed));
      });
  }

  readOptions(graph.command('state').description('writers and readers of a state slot').argument('<slot>', 'slot id or Owner.field').addHelpText('after', examples('graph state HarnessConfig.approvalMode', 'graph state SessionStore.history --json')))
    .action(async (reference: string, raw: unknown) => {
      const { options, handbook } = open(raw);
      const slot = handbook.graph.getSlotOrThrow(reference);
      const writers = handbook.graph.writers(slot.id);
      const readers = handbook.graph.readers(slot.id);
      // One resolver for the declaration and the writers and readers, so each file is read once.
      const resolver = liveResolverOf(handbook);
      const [{ declared }, placed] = await Promise.all([
        liveDeclarationOf(slot, (id) => handbook.graph.getUnit(id), resolver),
        livePlacesById(handbook.graph, [...writers, ...readers].map((access) => access.unit.id), resolver),
      ]);
      // A write or read lies in its writer's or reader's own code, and moves with it.
      const accesses = (list: typeof writers) => list.map((access) => neighbourJson(access, access.unit, placed));
      if (options.json) printJson({ slot: withDeclared(slot, declared), writers: accesses(writers), readers: accesses(readers) });
      else print(formatSlot(slot, declared, writers, readers, placed));
    });

  readOptions(graph.command('export').description('the whole graph as canonical JSON (byte-identical for the same tree)').option('--out <file>', 'write to a file instead of stdout').addHelpText('after', examples('graph export --out graph.json', 'graph export | head -20')))
    .action((raw: unknown) => {
      // An empty --out is a slip, not a request for stdout; a path that cannot take the file is refused before the graph is read.
      const { out, ...read } = parseOptions(exportOptionsSchema, raw);
      if (out !== undefined) assertWritableFile('--out', out, { root: read.repo, ...(read.db ? { database: read.db } : {}) });
      const { handbook } = open(read);
      const text = `${JSON.stringify(handbook.graph.toData(), null, 1)}\n`;
      if (out !== undefined) writeOutputFile('--out', out, text);
      else process.stdout.write(text);
    });

  return reportUsageErrors(program);
}

/** Runs the CLI; every failure becomes one line on stderr and a documented exit code. */
export async function run(argv: string[]): Promise<number> {
  const program = createProgram();
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    // Commander has already printed help, the version or its one-line refusal (see usage-errors.ts);
    // a bare command group, which prints help as an error, is a refusal too.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalidInput;
    if (HandbookError.isInstance(error)) {
      process.stderr.write(`handbook: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
      if (debug && error.cause instanceof Error) process.stderr.write(`${error.cause.stack}\n`);
      return exitCodeFor(error.code);
    }
    const system = describeSystemError(error);
    if (system) {
      process.stderr.write(`handbook: ${system.message}\n`);
      if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
      return system.code;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`handbook: unexpected error: ${message.split('\n')[0]} (this is a bug; run again with --debug for details)\n`);
    if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return EXIT.internal;
  }
}

exitOnBrokenPipe(process.stdout);
exitOnBrokenPipe(process.stderr);
run(process.argv).then((code) => {
  process.exitCode = code;
});
