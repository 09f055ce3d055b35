import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { globSync } from 'tinyglobby';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { makeFolder } from '../text/make-folder.js';

/**
 * Acceptance records: what "accepted" means, kept on disk. A record names the exact bytes
 * that were tested (a digest per file) and the exact checks that passed on them, so a later
 * write to any of those files is seen, and the acceptance no longer holds.
 */

export const ABSENT = 'absent';

export interface WorkspaceSnapshot {
  /** sha256 over every path and its digest, in path order. */
  digest: string;
  /** sha256 of each file's bytes, or `absent` for a tracked file deleted from disk. */
  files: Record<string, string>;
}

const checkRunSchema = z.object({ name: z.string(), command: z.string(), cwd: z.string().optional(), exitCode: z.number().int().nullable(), durationMs: z.number(), outputDigest: z.string() });
export type CheckRun = z.output<typeof checkRunSchema>;

export const acceptanceRecordSchema = z.object({
  version: z.literal(1),
  runId: z.string(),
  planId: z.string().optional(),
  task: z.string(),
  acceptedAt: z.string(),
  checks: z.array(checkRunSchema),
  criteria: z.array(z.object({ id: z.string(), satisfied: z.boolean() })),
  snapshot: z.object({ digest: z.string(), files: z.record(z.string(), z.string()) }),
  tool: z.object({ name: z.string(), version: z.string() }),
  node: z.string(),
  model: z.string(),
  toolMode: z.string(),
});
export type AcceptanceRecord = z.output<typeof acceptanceRecordSchema>;

export interface AcceptanceStatus {
  runId: string;
  file: string;
  valid: boolean;
  /** Files of the snapshot whose bytes differ now (or that are gone). */
  changed: string[];
  /** Why the record cannot be read, when it cannot. */
  unreadable?: string;
}

/** Folders that are never part of what a task is accepted on. */
const NEVER_IN_SNAPSHOT = ['**/node_modules/**', '.git/**', '.handbook/**'];

/**
 * The tested bytes: every tracked file, plus the untracked (not ignored) files a task may
 * write. Without git, every file under the root except dependencies and the tool's own state.
 */
export function snapshotWorkspace(root: string, scope: readonly string[]): WorkspaceSnapshot {
  const listed = gitFiles(root);
  let paths: string[];
  if (listed) {
    const inScope = scope.length === 0 ? () => true : picomatch([...scope], { dot: true });
    paths = [...listed.tracked, ...listed.untracked.filter((file) => inScope(file))];
  } else {
    paths = globSync('**/*', { cwd: root, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: NEVER_IN_SNAPSHOT });
  }
  const files: Record<string, string> = {};
  for (const file of [...new Set(paths)].sort()) files[file] = fileDigest(path.join(root, file));
  return { digest: snapshotDigest(files), files };
}

/** Which files of a record's snapshot changed since it was written. */
export function changedSince(root: string, snapshot: WorkspaceSnapshot, digestOf: (file: string) => string = (file) => fileDigest(path.join(root, file))): string[] {
  return Object.entries(snapshot.files)
    .filter(([file, digest]) => digestOf(file) !== digest)
    .map(([file]) => file);
}

export function acceptanceFolder(root: string): string {
  return path.join(root, '.handbook', 'acceptance');
}

/** Writes the record atomically (and flushed to disk) before the task may be called COMPLETE. */
export async function writeAcceptanceRecord(root: string, record: AcceptanceRecord): Promise<string> {
  const folder = acceptanceFolder(root);
  makeFolder(folder);
  const file = path.join(folder, `${record.runId}.json`);
  await writeFileAtomic(file, `${JSON.stringify(acceptanceRecordSchema.parse(record), null, 2)}\n`, { fsync: true });
  return file;
}

/** Every record of the repository, each checked against the files as they are now. */
export function acceptanceStatuses(root: string): AcceptanceStatus[] {
  const folder = acceptanceFolder(root);
  if (!existsSync(folder)) return [];
  // Records of one repository share most of their files: each file is read and hashed once.
  const digests = new Map<string, string>();
  const digestOf = (file: string): string => {
    let digest = digests.get(file);
    if (digest === undefined) digests.set(file, (digest = fileDigest(path.join(root, file))));
    return digest;
  };
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name): AcceptanceStatus => {
      const file = path.join(folder, name);
      const runId = name.slice(0, -'.json'.length);
      let record: AcceptanceRecord;
      try {
        record = acceptanceRecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      } catch (error) {
        return { runId, file, valid: false, changed: [], unreadable: (error as Error).message.split('\n')[0]! };
      }
      const changed = changedSince(root, record.snapshot, digestOf);
      return { runId, file, valid: changed.length === 0 && snapshotDigest(record.snapshot.files) === record.snapshot.digest, changed };
    });
}

function gitFiles(root: string): { tracked: string[]; untracked: string[] } | undefined {
  if (!insideGitWorkTree(root)) return undefined;
  const list = (...args: string[]): string[] =>
    execFileSync('git', ['-C', root, 'ls-files', '-z', ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
      .split('\0')
      .filter((file) => file !== '' && !file.startsWith('.handbook/'));
  return { tracked: list('--cached'), untracked: list('--others', '--exclude-standard') };
}

function insideGitWorkTree(root: string): boolean {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'true';
  } catch {
    return false;
  }
}

function fileDigest(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return ABSENT;
  }
}

function snapshotDigest(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const file of Object.keys(files).sort()) hash.update(`${file}\0${files[file]}\n`);
  return hash.digest('hex');
}

/** The version of this tool, from its own package.json: records say which harness accepted them. */
export function toolVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}
