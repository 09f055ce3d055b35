import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Journal, planRequest, readEventLog } from '../../src/index.js';
import { act, call, copyOfTaskFixture, eventsOnceThere, writeScript } from '../helpers/harness-run.js';
import { CLI, PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync, type CliResult } from '../helpers/cli-run.js';
import { CAPTURE_REQUEST } from '../helpers/plan-fixture.js';
import { plannedRepository } from '../helpers/planned-repository.js';

const handbook = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env });

/** The run folders a repository holds. */
function runFolders(repo: string): string[] {
  const runs = path.join(repo, '.handbook', 'runs');
  return existsSync(runs) ? readdirSync(runs) : [];
}

const WITHOUT_KEYS = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ANTHROPIC_') && !name.startsWith('OPENAI_')));

describe('handbook plan and apply', () => {
  it('plans, applies with a scripted model, and leaves a fresh handbook with a valid acceptance record (the README demo)', () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const planned = handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--json']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as { id: string; status: string; targets: Array<{ file: string; symbol: string; line: number }> };
    expect(plan.status).toBe('accepted');
    expect(plan.targets.length).toBeGreaterThan(0);

    const human = handbook(['plan', 'mask secrets in every capture path', '--repo', repo]);
    expect(human.stdout).toMatch(/^plan plan-\S+: ACCEPTED\n/);

    const applied = handbook(['apply', plan.id, '--repo', repo, '--model', `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`, '--yes', '--json', '--quiet']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ plan: plan.id, state: 'COMPLETE', sync: { entries: { removed: 0 } } });

    const status = handbook(['status', repo]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/accepted {3}run \S+: valid/);
  });

  // An apply, a kill and a resume: 58 s once on a loaded 2-core machine, so more than the usual 60 s.
  it('an apply killed mid-run and resumed still judges "no entry lost" against its start, and re-syncs the handbook when it completes', async () => {
    const { repo, plan, policy } = await plannedRepository();
    const fixRedact = call('edit_file', { path: 'src/redact.js', old_text: '  return text;\n', new_text: "  return text.replace(/sk-[A-Za-z0-9]{8,}/g, 'sk-***');\n" });
    const readAll = ['src/redact.js', 'src/capture.js', 'src/transcript.js'].map((file) => call('read_file', { path: file }));
    const first = writeScript([act(...readAll), act(fixRedact), act(call('run_command', { command: 'sleep 4' })), act(call('task_blocked', { reason: 'unreachable' }))]);
    const child = spawn(process.execPath, [CLI, 'apply', plan, '--repo', repo, '--model', `script:${first}`, '--policy', policy, '--yes', '--quiet'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { runId } = await eventsOnceThere(repo, (events) => events.some((event) => event.type === 'tool_proposed' && JSON.stringify(event.arguments).includes('sleep 4')));
    child.kill('SIGKILL');
    await exited;
    const record = JSON.parse(readFileSync(path.join(repo, '.handbook', 'runs', runId, 'run.json'), 'utf8')) as { plan?: { id: string; frozenBefore: string[] } };
    expect(record.plan).toEqual({ id: plan, frozenBefore: [] });

    // The resumed model first renames a function the handbook knows: completion is refused for the lost entry, then it puts the name back.
    const rename = (from: string, to: string) => call('edit_file', { path: 'src/capture.js', old_text: `export function ${from}(`, new_text: `export function ${to}(` });
    const second = writeScript([
      act(...readAll),
      act(call('edit_file', { path: 'src/transcript.js', old_text: '/**\n * Captures a model turn', new_text: "import { redact } from './redact.js';\n\n/**\n * Captures a model turn" })),
      act(call('edit_file', { path: 'src/transcript.js', old_text: '  transcript.push(text);\n', new_text: '  transcript.push(redact(text));\n' })),
      act(call('edit_file', { path: 'src/capture.js', old_text: '  return { tool, output: redact(output) };\n', new_text: '  return { tool: redact(tool), output: redact(output) };\n' })),
      act(rename('captureToolOutput', 'grabToolOutput')),
      act(call('task_complete', { summary: 'done' })),
      act(rename('grabToolOutput', 'captureToolOutput')),
      act(call('task_complete', { summary: 'every capture path masks keys' })),
    ]);
    const resumed = handbook(['resume', runId, '--repo', repo, '--model', `script:${second}`, '--policy', policy, '--json', '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, state: 'COMPLETE', sync: { upToDate: false, entries: { removed: 0 } } });
    const rejected = readEventLog(path.join(repo, '.handbook', 'runs', runId, 'events.jsonl')).filter((event) => event.type === 'complete_rejected');
    expect(JSON.stringify(rejected)).toContain('handbook entries can no longer be found (renamed or removed?): src/capture.js#captureToolOutput');
    const status = handbook(['status', repo]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/accepted {3}run \S+: valid/);
  }, 180_000);

  it('exits 11 for a plan the gate rejects, and 2 for a plan that does not exist', () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const nothing = handbook(['plan', 'quantum entanglement of zebras', '--repo', repo]);
    expect(nothing.code).toBe(11);
    expect(nothing.stdout).toMatch(/REJECTED[\s\S]*✗ the plan has no targets/);
    const missing = handbook(['apply', 'plan-nope', '--repo', repo, '--model', 'script:x.json', '--yes']);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: no plan plan-nope/)]);
    // A folder is named as one, not reported as a file that is not JSON.
    const folder = handbook(['apply', path.join(repo, '.handbook', 'plans'), '--repo', repo, '--model', 'script:x.json', '--yes']);
    expect([folder.code, folder.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: plan \S+plans is a folder, not a plan file \(pass a plan id/)]);
  });

  // One concurrent test a refusal: one after another, their CLI starts added up under one timeout on a loaded machine.
  describe('refuses a --out it cannot write before planning: one line, exit 2, no plan saved', () => {
    let repo: string;
    beforeAll(() => {
      repo = copyOfTaskFixture();
      expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    });
    const cases: Array<[string, (repo: string) => string, RegExp]> = [
      ['in a missing folder', () => path.join(scratchDirectory(), 'missing', 'plan.json'), /^handbook: --out \S+plan\.json: there is no folder \S+missing \(create the folder first/],
      ['a folder', () => scratchDirectory(), /^handbook: --out \S+: a folder, not a file \(name a file to write\)$/],
      ['under a file', (repo) => path.join(repo, 'package.json', 'plan.json'), /^handbook: --out \S+: there is no folder \S+package\.json /],
    ];
    it.concurrent.for(cases)('%s', async ([, out, message]) => {
      const result = await runCliAsync(['plan', 'mask secrets in every capture path', '--repo', repo, '--out', out(repo)]);
      expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      const plans = path.join(repo, '.handbook', 'plans');
      expect(existsSync(plans) ? readdirSync(plans) : []).toEqual([]);
    });
  });

  // The plan is made and saved before --out is written: a write that fails then is the disk's, not a bug, and the saved plan is named.
  it('reports an --out that fails as it is written in one line, exit 2, naming the plan it saved', () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const result = handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--out', '/dev/full']);
    expect([result.code, result.stderr.trim()]).toEqual([2, expect.stringMatching(/^handbook: --out \/dev\/full: cannot write it \(no space left on the device\); the plan is saved as \S+plan-[\w-]+\.json /)]);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  // Both passed the gate, both edited the files and both wrote an acceptance record.
  it('refuses a second apply of a plan another process is applying, naming its run, in one line', async () => {
    const repo = copyOfTaskFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    const plan = JSON.parse(handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--json']).stdout) as { id: string; status: string };
    expect(plan.status).toBe('accepted');
    const runsBefore = runFolders(repo);
    const apply = () =>
      new Promise<CliResult>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'apply', plan.id, '--repo', repo, '--model', `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`, '--yes', '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      });
    const results = await Promise.all([apply(), apply()]);
    const [applied, refused] = results[0]!.code === 0 ? results : [results[1]!, results[0]!];
    expect([applied!.code, applied!.stderr]).toEqual([0, '']);
    const run = JSON.parse(applied!.stdout) as { runId: string; state: string };
    expect(run.state).toBe('COMPLETE');
    expectOneLineError(refused!, 2, new RegExp(`^handbook: plan ${plan.id} is already being applied by run ${run.runId} \\(wait for it to end`));
    expect(readdirSync(path.join(repo, '.handbook', 'acceptance'))).toEqual([`${run.runId}.json`]);
    expect(runFolders(repo).sort()).toEqual([...runsBefore, run.runId].sort());
    expect(new Set(Journal.open(repo).entries().map((entry) => entry.runId))).toEqual(new Set([run.runId]));
  }, 60_000);

  // One concurrent test a refusal: one after another, their CLI starts added up under one timeout on a loaded machine.
  describe('an apply refused on its input (model, key, policy) says so in one line, exit 2, and leaves no run folder behind', () => {
    const script = `script:${path.join(PROJECT_ROOT, 'fixtures/scripts/apply-mask-capture.json')}`;
    const cases: Array<[string[], RegExp, NodeJS.ProcessEnv?]> = [
      [['--model', 'anthropic:claude-x'], /ANTHROPIC_API_KEY is not set/, WITHOUT_KEYS],
      [['--model', 'claude-x'], /model spec "claude-x" names no provider/],
      [['--model', 'offline'], /a task needs a model/],
      [['--model', 'script:/no/such/script.json'], /model script \/no\/such\/script\.json does not exist/],
      [['--model', script, '--escalate', 'openai:gpt-x'], /OPENAI_API_KEY is not set/, WITHOUT_KEYS],
      [['--model', script, '--policy', '/no/such/policy.json'], /approval policy \/no\/such\/policy\.json does not exist/],
    ];
    let repo: string;
    let before: string[];
    // A plan for each case: an apply claims its plan before it reads its model, so two applies of one plan side by side would refuse each other.
    const plans = new Map<(typeof cases)[number] | 'unconfirmed', string>();
    beforeAll(async () => {
      repo = copyOfTaskFixture();
      expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
      for (const refusal of [...cases, 'unconfirmed' as const]) {
        const { plan } = await planRequest(repo, CAPTURE_REQUEST);
        expect(plan.status).toBe('accepted');
        plans.set(refusal, plan.id);
      }
      before = runFolders(repo);
    });

    it.concurrent('without --yes and no terminal to ask on', async () => {
      const refused = await runCliAsync(['apply', plans.get('unconfirmed')!, '--repo', repo, '--model', script]);
      expect([refused.code, refused.stderr.trim()]).toEqual([2, 'handbook: the plan was not applied: nobody confirmed it (pass --yes to apply without a prompt)']);
      expect(runFolders(repo)).toEqual(before);
    });

    it.concurrent.for(cases)('%s', async (refusal) => {
      const [args, pattern, env] = refusal;
      const result = await runCliAsync(['apply', plans.get(refusal)!, '--repo', repo, '--yes', '--quiet', ...args], { env });
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
      expect(result.stderr).toMatch(pattern);
      expect({ args, runs: runFolders(repo) }).toEqual({ args, runs: before });
    });
  });
});
