import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventLog, type HarnessEvent } from '../../src/index.js';
import { act, BROKEN_LINE, call, COMPLETE, copyOfTaskFixture, FIX_REDACT, FIXED_LINE, READ_REDACT, runScripted, TASK_FIXTURE } from '../helpers/harness-run.js';

const originalRedact = readFileSync(path.join(TASK_FIXTURE, 'src/redact.js'), 'utf8');

describe('the harness loop with scripted models', () => {
  it('completes a task only after it verified the exit criteria itself', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    expect(run.result.state).toBe('COMPLETE');
    expect(run.result.reason.kind).toBe('verified');
    expect(run.result.changedFiles).toEqual(['src/redact.js']);
    expect(readFileSync(path.join(run.repo, 'src/redact.js'), 'utf8')).toContain(FIXED_LINE);
    expect(run.of('check_result').map((event) => [event.name, event.exitCode])).toEqual([['test', 0]]);
    expect(run.of('task_state').map((event) => event.to)).toEqual(['IN_PROGRESS', 'COMPLETE']);
  });

  it('rejects a completion claim while the check fails, tells the model what is missing, and completes once it is fixed', async () => {
    const run = await runScripted([act(COMPLETE), act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    const rejected = run.of('complete_rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.step).toBe(1);
    expect(rejected[0]!.missing.join('\n')).toMatch(/check test .* exited 1/);
    expect(run.of('check_result').map((event) => event.exitCode)).toEqual([1, 0]);
    expect(run.result.state).toBe('COMPLETE');
    expect(run.result.steps).toBe(4);
  });

  it('catches a turn that only announces an action, re-prompts with what was promised, and goes on when the model acts', async () => {
    const run = await runScripted([{ text: "I'll fix the redact function now." }, act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    const missing = run.of('action_missing');
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ kind: 'announced', step: 1 });
    expect(run.result.state).toBe('COMPLETE');
  });

  it('reconciles a Portuguese announcement the same way', async () => {
    const run = await runScripted([{ text: 'Vou corrigir a função redact agora.' }, act(call('task_blocked', { reason: 'giving up' }))]);
    expect(run.of('action_missing')[0]).toMatchObject({ kind: 'announced' });
    expect(run.result.state).toBe('BLOCKED');
  });

  it('blocks a model that keeps ending turns with text alone, within the miss bound', async () => {
    const run = await runScripted([{ text: 'The function looks fine to me.' }, { text: 'Still thinking.' }, { text: 'Hmm.' }, act(COMPLETE)]);
    expect(run.of('action_missing').map((event) => event.kind)).toEqual(['text_only', 'text_only', 'text_only']);
    expect(run.result.state).toBe('BLOCKED');
    expect(run.result.reason.kind).toBe('no_action');
    expect(run.result.steps).toBe(3);
  });

  it('stops the same read repeated forever: dedup refuses it, the ladder escalates, and the task is BLOCKED well within the step cap', async () => {
    const run = await runScripted(Array.from({ length: 30 }, () => act(READ_REDACT)));
    expect(run.of('tool_result').filter((event) => event.tool === 'read_file')).toHaveLength(3);
    expect(run.of('tool_rejected').every((event) => event.rule === 'repeat')).toBe(true);
    expect(run.of('escalated').map((event) => event.level)).toEqual(['nudge', 'redecompose', 'blocked']);
    expect(run.result.state).toBe('BLOCKED');
    expect(run.result.reason.kind).toBe('loop');
    expect(run.result.steps).toBeLessThan(24);
  });

  it('breaks an A,B,A,B oscillation even though every call differs from the one before', async () => {
    const a = call('read_file', { path: 'src/redact.js' });
    const b = call('read_file', { path: 'src/capture.js' });
    const run = await runScripted(Array.from({ length: 20 }, (_, index) => act(index % 2 === 0 ? a : b)));
    const loops = run.of('loop_detected');
    expect(loops[0]!.kind).toBe('cycle');
    expect(loops[0]!.step).toBe(4);
    expect(run.result.state).toBe('BLOCKED');
    expect(run.result.reason.kind).toBe('loop');
  });

  it('trips the circuit breaker on the same command failing the same way, then forbids it', async () => {
    const failing = call('run_command', { command: 'node -e "process.exit(3)"' });
    const run = await runScripted(Array.from({ length: 10 }, () => act(failing)), { policy: { tools: { run_command: 'auto' }, commands: { allow: [] } } });
    const loops = run.of('loop_detected').map((event) => event.kind);
    expect(loops[0]).toBe('breaker');
    expect(run.of('tool_result').filter((event) => event.tool === 'run_command')).toHaveLength(3);
    expect(run.of('tool_rejected').map((event) => event.rule)).toContain('breaker');
    expect(run.result.state).toBe('BLOCKED');
  });

  it('stops the run at the call that spends the ladder: the rest of that turn does not run, and is answered as refused', async () => {
    const extra = call('create_file', { path: 'src/extra.js', content: 'export const x = 1;\n' });
    // Four reads in one turn: the fourth is refused (nudge); one more refused read (redecompose); the next refusal blocks.
    const run = await runScripted([act(READ_REDACT, READ_REDACT, READ_REDACT, READ_REDACT), act(READ_REDACT), act(READ_REDACT, extra, COMPLETE)]);
    expect(run.of('escalated').map((event) => [event.step, event.level])).toEqual([
      [1, 'nudge'],
      [2, 'redecompose'],
      [3, 'blocked'],
    ]);
    expect(run.result.state).toBe('BLOCKED');
    expect(run.result.reason.kind).toBe('loop');
    expect(existsSync(path.join(run.repo, 'src/extra.js'))).toBe(false);
    expect(run.of('check_result')).toEqual([]);
    const stopped = run.of('tool_rejected').filter((event) => event.step === 3);
    expect(stopped.map((event) => [event.tool, event.rule])).toEqual([
      ['read_file', 'repeat'],
      ['create_file', 'run-stopped'],
      ['task_complete', 'run-stopped'],
    ]);
    expect(stopped[1]!.reason).toMatch(/broke a loop/);
    // The ladder's last rung is climbed at the call that spent it, not at the end of the turn.
    expect(run.events.slice(-7).map((event) => event.type)).toEqual(['escalated', 'tool_proposed', 'tool_rejected', 'tool_proposed', 'tool_rejected', 'task_state', 'run_finished']);
  });

  it('answers a repeated task_complete on an unchanged workspace with the last rejection, without running the checks again', async () => {
    const events: HarnessEvent[] = [];
    const repo = copyOfTaskFixture();
    const onEvent = (event: HarnessEvent): void => {
      events.push(event);
      // An edit from outside the harness, between two attempts: only the files can tell.
      if (event.type === 'complete_rejected' && event.step === 2) appendFileSync(path.join(repo, 'src/redact.js'), '// touched from outside\n');
    };
    const run = await runScripted(
      [act(COMPLETE), act(COMPLETE), act(COMPLETE), act(call('run_check', { name: 'test' })), act(COMPLETE), act(COMPLETE), act(READ_REDACT, FIX_REDACT), act(COMPLETE)],
      { repo, onEvent, task: { limits: { stallTurns: 20 } } },
    );
    expect(run.result.state).toBe('COMPLETE');
    const checks = events.filter((event) => event.type === 'check_result');
    expect(checks.map((event) => [event.step, event.exitCode])).toEqual([
      [1, 1],
      [3, 1],
      [4, 1],
      [5, 1],
      [8, 0],
    ]);
    const rejected = events.filter((event) => event.type === 'complete_rejected');
    expect(rejected.map((event) => [event.step, event.reused === true])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [5, false],
      [6, true],
    ]);
    expect(rejected[1]!.missing).toEqual(rejected[0]!.missing);
  });

  it('runs the checks again on a retried task_complete when the checks themselves changed the files they judged', async () => {
    const noisy = { name: 'noisy', command: 'echo ran >> checks.log; exit 1' };
    const run = await runScripted([act(COMPLETE), act(COMPLETE), act(call('task_blocked', { reason: 'the check keeps failing' }))], { task: { exitCriteria: { checks: [noisy] } } });
    expect(run.of('check_result').map((event) => event.step)).toEqual([1, 2]);
    expect(run.of('complete_rejected').every((event) => event.reused === undefined)).toBe(true);
  });

  it('refuses an edit of a region the model never read, and writes nothing', async () => {
    const run = await runScripted([act(FIX_REDACT), act(call('task_blocked', { reason: 'edit refused' }))]);
    const rejected = run.of('tool_rejected');
    expect(rejected.map((event) => event.rule)).toEqual(['read-before-edit']);
    expect(readFileSync(path.join(run.repo, 'src/redact.js'), 'utf8')).toBe(originalRedact);
    expect(run.result.changedFiles).toEqual([]);
  });

  it('edits a file with CRLF line endings from an old_text written with \\n, keeping its line endings', async () => {
    const repo = copyOfTaskFixture();
    writeFileSync(path.join(repo, 'src/redact.js'), originalRedact.replace(/\n/g, '\r\n'));
    const edit = call('edit_file', { path: 'src/redact.js', old_text: `export function redact(text) {\n${BROKEN_LINE}`, new_text: `export function redact(text) {\n${FIXED_LINE}` });
    const run = await runScripted([act(READ_REDACT), act(edit), act(COMPLETE)], { repo });
    expect(run.of('tool_rejected')).toEqual([]);
    expect(run.result.state).toBe('COMPLETE');
    expect(readFileSync(path.join(repo, 'src/redact.js'), 'utf8')).toBe(originalRedact.replace(BROKEN_LINE, FIXED_LINE).replace(/\n/g, '\r\n'));
  });

  it('refuses an edit whose region was read only in part', async () => {
    const run = await runScripted([act(call('read_file', { path: 'src/redact.js', startLine: 1, endLine: 2 })), act(FIX_REDACT), act(call('task_blocked', { reason: 'x' }))]);
    expect(run.of('tool_rejected')[0]).toMatchObject({ rule: 'read-before-edit' });
    expect(run.of('tool_rejected')[0]!.reason).toMatch(/line 7 was not/);
  });

  it('refuses an edit that imports a package the project does not have', async () => {
    const hallucinated = call('edit_file', { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: "  return maskSecrets(text);\n" });
    const withImport = call('edit_file', {
      path: 'src/redact.js',
      old_text: '/**\n * Masks',
      new_text: "import { maskSecrets } from 'secret-masker-pro';\n\n/**\n * Masks",
    });
    const run = await runScripted([act(READ_REDACT), act(withImport), act(hallucinated), act(call('task_blocked', { reason: 'no package' }))]);
    const rejected = run.of('tool_rejected');
    expect(rejected[0]).toMatchObject({ rule: 'hallucinated-import' });
    expect(rejected[0]!.reason).toContain('secret-masker-pro');
    expect(readFileSync(path.join(run.repo, 'src/redact.js'), 'utf8')).not.toContain('secret-masker-pro');
  });

  it('rejects malformed native tool calls with a precise, recoverable error', async () => {
    const run = await runScripted([
      act(call('read_file', { file: 'src/redact.js' })),
      act(call('open_file', { path: 'src/redact.js' })),
      act(call('read_file', { path: 'src/redact.js', startLine: 5, endLine: 2 })),
      act(READ_REDACT),
      act(FIX_REDACT),
      act(COMPLETE),
    ]);
    const rejected = run.of('tool_rejected');
    expect(rejected.map((event) => event.rule)).toEqual(['invalid-arguments', 'unknown-tool', 'invalid-arguments']);
    expect(rejected[0]!.reason).toMatch(/path/);
    expect(rejected[1]!.reason).toContain('there is no tool named "open_file"');
    expect(rejected[2]!.reason).toContain('startLine must not be after endLine');
    expect(run.result.state).toBe('COMPLETE');
  });

  it('reads actions from JSON in text (json_text), repairing small mistakes, and reports one it cannot read', async () => {
    const block = (value: string): string => `Reading first.\n\`\`\`json\n${value}\n\`\`\``;
    const run = await runScripted(
      [
        { text: block('{"tool": "read_file", "arguments": {"path": "src/redact.js",},}') },
        { text: block('{"tool": "edit_file", "arguments": {"path": "src/redact.js" <<< }}') },
        { text: block(JSON.stringify({ tool: 'edit_file', arguments: { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: FIXED_LINE } })) },
        { text: block('{"tool": "task_complete", "arguments": {"summary": "done"}}') },
      ],
      { toolMode: 'json_text' },
    );
    expect(run.of('action_missing').map((event) => event.kind)).toEqual(['malformed']);
    expect(run.of('tool_result').map((event) => event.tool)).toEqual(['read_file', 'edit_file']);
    expect(run.result.state).toBe('COMPLETE');
  });

  it('reads actions from a constrained JSON answer (json_constrained) and reports one that is not JSON', async () => {
    const answer = (tool: string, args: unknown): { text: string } => ({ text: JSON.stringify({ actions: [{ tool, arguments: JSON.stringify(args) }] }) });
    const run = await runScripted(
      [
        answer('read_file', { path: 'src/redact.js' }),
        { text: 'sure, here is the fix' },
        answer('edit_file', { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: FIXED_LINE }),
        answer('task_complete', { summary: 'done' }),
      ],
      { toolMode: 'json_constrained' },
    );
    expect(run.of('action_missing').map((event) => event.kind)).toEqual(['malformed']);
    expect(run.result.state).toBe('COMPLETE');
  });

  it('retries a 429 with backoff and goes on', async () => {
    const run = await runScripted([{ error: { status: 429 } }, act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    expect(run.of('model_retry')).toHaveLength(1);
    expect(run.of('model_retry')[0]!.error).toMatch(/429/);
    expect(run.result.state).toBe('COMPLETE');
  });

  it('fails the task when 5xx errors outlast the retry bound', async () => {
    const run = await runScripted(Array.from({ length: 6 }, () => ({ error: { status: 503 } })));
    expect(run.of('model_retry')).toHaveLength(3);
    expect(run.result.state).toBe('FAILED');
    expect(run.result.reason.kind).toBe('provider');
    expect(run.result.reason.detail).toMatch(/gave up after 4 attempts/);
  });

  it('blocks on a refusal for review and never asks again', async () => {
    const run = await runScripted([{ refusal: 'I cannot help with that.' }, act(COMPLETE)]);
    expect(run.result.state).toBe('BLOCKED');
    expect(run.result.reason.kind).toBe('refusal');
    expect(run.result.reason.detail).toContain('I cannot help with that.');
    expect(run.of('model_response')).toHaveLength(1);
    expect(run.of('model_retry')).toHaveLength(0);
  });

  it('fails when the script runs out', async () => {
    const run = await runScripted([act(READ_REDACT)]);
    expect(run.result.state).toBe('FAILED');
    expect(run.result.reason.detail).toContain('script exhausted');
  });

  it('ends with NEEDS_INPUT when the model asks, and BLOCKED when it says it is blocked', async () => {
    const asked = await runScripted([act(call('need_input', { question: 'Which key prefixes count as secrets?' }))]);
    expect(asked.result).toMatchObject({ state: 'NEEDS_INPUT', modelWords: 'Which key prefixes count as secrets?' });
    const blocked = await runScripted([act(call('task_blocked', { reason: 'the test cannot run here' }))]);
    expect(blocked.result).toMatchObject({ state: 'BLOCKED', reason: { kind: 'model_blocked' } });
  });

  it('fails after max steps, never staying in progress', async () => {
    const reads = ['src/redact.js', 'src/capture.js', 'package.json', 'tsconfig.json'].map((file) => act(call('read_file', { path: file })));
    const run = await runScripted(reads, { task: { limits: { maxSteps: 3 } } });
    expect(run.result.state).toBe('FAILED');
    expect(run.result.reason.kind).toBe('max_steps');
    expect(run.result.steps).toBe(3);
  });

  it('fails at the wall-clock limit, stopping a command that is still running', async () => {
    const slow = call('run_command', { command: 'sleep 20' });
    const started = Date.now();
    const run = await runScripted([act(slow), act(COMPLETE)], { task: { limits: { wallClockMs: 500 } }, policy: { tools: { run_command: 'auto' }, commands: { allow: [] } } });
    expect(run.result.state).toBe('FAILED');
    expect(run.result.reason.kind).toBe('wall_clock');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps a side-effecting call cut off by its timeout open, and reconciles it before sending it again', async () => {
    const append = call('run_command', { command: 'echo done >> effects.log; sleep 5' });
    const run = await runScripted(
      [act(append), act(append), act(call('read_file', { path: 'effects.log' })), act(append), act(call('task_blocked', { reason: 'stop' }))],
      { policy: { tools: { run_command: 'auto' }, commands: { allow: [] } }, commandTimeoutMs: 300 },
    );
    expect(run.of('tool_result').filter((event) => event.tool === 'run_command')).toHaveLength(2);
    expect(run.of('tool_rejected').map((event) => event.rule)).toEqual(['unresolved-operation']);
    expect(run.of('operation_reconciled')).toEqual([expect.objectContaining({ tool: 'run_command', outcome: 'unknown', step: 2 })]);
    // The second run happened only because the model asked again after it was told: one effect per approved call.
    expect(readFileSync(path.join(run.repo, 'effects.log'), 'utf8')).toBe('done\ndone\n');
  });

  it('detects a stall: turns without progress against the exit criteria climb the ladder', async () => {
    const files = ['src/redact.js', 'src/capture.js', 'package.json', 'tsconfig.json', 'test/redact.test.mjs'];
    const run = await runScripted(
      files.map((file) => act(call('read_file', { path: file }))),
      { task: { limits: { stallTurns: 2 } } },
    );
    const stalls = run.of('loop_detected').filter((event) => event.kind === 'stall');
    expect(stalls.map((event) => event.step)).toEqual([2, 4]);
    expect(run.of('escalated').map((event) => event.level)).toEqual(['nudge', 'redecompose']);
  });

  it('switches to the stronger model on the escalation ladder when one is given', async () => {
    const { writeScript } = await import('../helpers/harness-run.js');
    const strong = writeScript([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    const run = await runScripted(Array.from({ length: 10 }, () => act(call('list_files', {}))), { escalate: `script:${strong}` });
    expect(run.of('escalated').map((event) => event.level)).toEqual(['nudge', 'redecompose', 'stronger_model']);
    expect(run.result.state).toBe('COMPLETE');
    expect(run.result.model).toBe(`script:${strong}`);
  });

  it('denies run_command when nobody can approve it, and runs it when the policy allows', async () => {
    const command = call('run_command', { command: 'echo 42' });
    const denied = await runScripted([act(command), act(call('task_blocked', { reason: 'no shell' }))]);
    expect(denied.of('tool_rejected')[0]).toMatchObject({ rule: 'approval' });
    expect(denied.of('approval_decided')[0]).toMatchObject({ approved: false, by: 'non_interactive' });
    const allowed = await runScripted([act(command), act(call('task_blocked', { reason: 'done looking' }))], { policy: { tools: {}, commands: { allow: ['echo *'] } } });
    expect(allowed.of('tool_result')[0]).toMatchObject({ tool: 'run_command', ok: true });
    const asked = await runScripted([act(command), act(call('task_blocked', { reason: 'x' }))], { approver: async () => true });
    expect(asked.of('approval_decided')[0]).toMatchObject({ approved: true, by: 'user' });
  });

  it('gives a planner run only the read-only tools', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(call('task_blocked', { reason: 'planners cannot edit' }))], { toolSet: 'planner' });
    expect(run.of('tool_result').map((event) => event.tool)).toEqual(['read_file']);
    expect(run.of('tool_rejected')[0]).toMatchObject({ tool: 'edit_file', rule: 'unknown-tool' });
    expect(run.of('model_request')[0]!.tools).toBe(6);
    expect(readFileSync(path.join(run.repo, 'src/redact.js'), 'utf8')).toBe(originalRedact);
  });

  it('keeps writes inside the task scope', async () => {
    const run = await runScripted([act(call('create_file', { path: 'src/extra.js', content: 'export const x = 1;\n' })), act(call('task_blocked', { reason: 'x' }))], {
      task: { scope: ['test/**'] },
    });
    expect(run.of('tool_rejected')[0]).toMatchObject({ rule: 'outside-scope' });
  });

  it('verifies file, target, freshness and typecheck criteria', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)], {
      task: {
        exitCriteria: {
          checks: [],
          filesMustChange: ['src/redact.js'],
          targetsMustChange: [{ file: 'src/redact.js', symbol: 'redact' }],
          locatorsMustStayFresh: [{ file: 'src/capture.js', symbol: 'captureToolOutput' }],
          typecheck: true,
        },
      },
    });
    expect(run.result.state).toBe('COMPLETE');
    expect(run.result.criteria.map((criterion) => criterion.id)).toEqual(['changed:src/redact.js', 'target:src/redact.js#redact', 'fresh:src/capture.js#captureToolOutput', 'typecheck']);

    const broken = call('edit_file', { path: 'src/redact.js', old_text: BROKEN_LINE, new_text: '  return text.length;\n' });
    const typeError = await runScripted([act(READ_REDACT), act(broken), act(COMPLETE)], { task: { exitCriteria: { typecheck: true } } });
    expect(typeError.result.state).toBe('FAILED');
    expect(typeError.of('complete_rejected')[0]!.missing.join('\n')).toMatch(/typecheck found 1 error.*\n.*src\/redact\.js:7/);
  });

  it('logs every event as a JSON line that reads back against the schema', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    const logged = readEventLog(run.result.eventLog);
    expect(logged).toEqual(run.events);
    expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index));
    expect(logged.at(-1)).toMatchObject({ type: 'run_finished', state: 'COMPLETE' });
    expect(path.relative(run.repo, run.result.eventLog)).toMatch(/^\.handbook\/runs\/[\w-]+\/events\.jsonl$/);
  });
});
