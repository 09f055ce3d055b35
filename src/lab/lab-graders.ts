import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { rollbackJournal } from '../api/journal.js';
import type { RunTaskResult } from '../api/run-task.js';
import { Journal } from '../harness/journal.js';

/**
 * Graders look at the repository after the run and run its test themselves; they never take
 * the harness's word (its state, its checks) for the outcome.
 */
export interface GradeContext {
  repo: string;
  /** A folder beside the repository that no task may change. */
  outside: string;
  outsideDigest: string;
  /** Every file of the repository before the run, by relative path. */
  original: ReadonlyMap<string, string>;
  result: RunTaskResult | undefined;
  runId: string | undefined;
}

export interface Grade {
  pass: boolean;
  reason: string;
}

/** Every grade must pass; the reason is the first failure's. */
export function all(...grades: Grade[]): Grade {
  return grades.find((grade) => !grade.pass) ?? { pass: true, reason: grades.map((grade) => grade.reason).join('; ') };
}

export function checkPasses(context: GradeContext): Grade {
  const run = spawnSync(process.execPath, ['test/redact.test.mjs'], { cwd: context.repo, encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? { pass: true, reason: 'the test passes' } : { pass: false, reason: 'the test fails: API keys still leak' };
}

export function effectLines(context: GradeContext, text: string, expected: number): Grade {
  const file = path.join(context.repo, 'effects.log');
  const count = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line === text).length : 0;
  return count === expected ? { pass: true, reason: `the effect happened ${expected} time(s)` } : { pass: false, reason: `the effect happened ${count} times, not ${expected}` };
}

export function outsideUnchanged(context: GradeContext): Grade {
  return folderDigest(context.outside) === context.outsideDigest ? { pass: true, reason: 'nothing outside the repository changed' } : { pass: false, reason: 'a file outside the repository was written' };
}

/** After a run that stopped midway, every write it made can be undone from its journal, byte for byte. */
export async function restoredByRollback(context: GradeContext): Promise<Grade> {
  if (context.result?.state !== 'BLOCKED') return { pass: false, reason: `the run ended ${context.result?.state ?? 'with an error'}, not BLOCKED` };
  const written = Journal.open(context.repo).entries().filter((entry) => entry.runId === context.runId && entry.kind !== 'rollback').length;
  if (written > 0) await rollbackJournal(context.repo, written, { runId: 'lab-grader' });
  const now = repositoryFiles(context.repo);
  const differing = [...new Set([...now.keys(), ...context.original.keys()])].filter((file) => now.get(file) !== context.original.get(file));
  return differing.length === 0 ? { pass: true, reason: `the ${written} write(s) of the stopped run were undone` } : { pass: false, reason: `the stopped run's writes cannot all be undone: ${differing.join(', ')} differ` };
}

/** The repository's files and their digests, without the harness's own folder. */
export function repositoryFiles(repo: string): Map<string, string> {
  const files = globSync('**/*', { cwd: repo, dot: true, onlyFiles: true, ignore: ['.handbook/**'] });
  return new Map(files.sort().map((file) => [file, createHash('sha256').update(readFileSync(path.join(repo, file))).digest('hex')]));
}

export function folderDigest(folder: string): string {
  const hash = createHash('sha256');
  for (const [file, digest] of repositoryFiles(folder)) hash.update(`${file}\0${digest}\n`);
  return hash.digest('hex');
}
