import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptanceRecordSchema, acceptanceStatuses, snapshotWorkspace } from '../../src/harness/acceptance.js';
import { act, COMPLETE, copyOfTaskFixture, FIX_REDACT, READ_REDACT, runScripted } from '../helpers/harness-run.js';

describe('acceptance records', () => {
  it('are written when a task completes: the checks that passed and the exact bytes they passed on', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    expect(run.result.state).toBe('COMPLETE');
    const file = run.result.acceptance!.file;
    const record = acceptanceRecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(record).toMatchObject({ runId: run.result.runId, task: 'Mask API keys in captured tool output.', model: run.result.model, toolMode: 'native', node: process.version });
    expect(record.checks).toEqual([expect.objectContaining({ name: 'test', command: 'node test/redact.test.mjs', exitCode: 0 })]);
    expect(record.snapshot.digest).toBe(run.result.acceptance!.snapshotDigest);
    expect(record.snapshot).toEqual(snapshotWorkspace(run.repo, []));
    expect(Object.keys(record.snapshot.files)).toContain('src/redact.js');
    expect(Object.keys(record.snapshot.files).some((name) => name.startsWith('.handbook/'))).toBe(false);
    expect(run.of('accepted')).toHaveLength(1);
  });

  it('stop holding once a tested file is written, and say which', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE)]);
    expect(acceptanceStatuses(run.repo)).toEqual([expect.objectContaining({ runId: run.result.runId, valid: true, changed: [] })]);
    appendFileSync(path.join(run.repo, 'src/capture.js'), '// later\n');
    expect(acceptanceStatuses(run.repo)).toEqual([expect.objectContaining({ valid: false, changed: ['src/capture.js'] })]);
  });

  it('are refused when the checks change the files they test: the tested bytes would not be the files', async () => {
    const run = await runScripted([act(READ_REDACT), act(FIX_REDACT), act(COMPLETE), act(COMPLETE)], {
      task: { exitCriteria: { checks: [{ name: 'test', command: 'node test/redact.test.mjs && echo "// touched" >> src/capture.js' }] } },
    });
    expect(run.of('complete_rejected')[0]!.missing[0]).toMatch(/files changed while the checks ran.*src\/capture\.js/);
    expect(run.result.state).not.toBe('COMPLETE');
    expect(acceptanceStatuses(run.repo)).toEqual([]);
  });

  it('cover tracked files and the untracked files in scope of a git checkout, not ignored ones', () => {
    const repo = copyOfTaskFixture();
    const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(path.join(repo, '.gitignore'), 'build/\n');
    git('add', '-A');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
    writeFileSync(path.join(repo, 'src/new.js'), 'export const y = 2;\n');
    writeFileSync(path.join(repo, 'notes.txt'), 'outside the scope\n');
    execFileSync('mkdir', ['-p', path.join(repo, 'build')]);
    writeFileSync(path.join(repo, 'build/out.js'), 'ignored\n');
    const files = Object.keys(snapshotWorkspace(repo, ['src/**']).files);
    expect(files).toContain('src/redact.js');
    expect(files).toContain('src/new.js');
    expect(files).toContain('.gitignore');
    expect(files).not.toContain('notes.txt');
    expect(files).not.toContain('build/out.js');
  });
});
