import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { GROUP_MARKER_VARIABLE, type ProcessGroupRecorder } from './process-groups.js';

/** How long output may keep coming after the shell exited, from children it left behind. */
const LINGER_MS = 2_000;

export interface CommandOutcome {
  command: string;
  /** null when the process was killed (timeout or abort). */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Standard output and error interleaved as they arrived, cut to the last `keepBytes`. */
  output: string;
  /** sha256 of the whole output, kept or not: what acceptance records compare. */
  outputDigest: string;
}

export interface RunShellOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How much of the output's tail to keep for the model (default 16 KB). */
  keepBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Where the command's process group is written down while it runs, for whoever must stop it if this process is killed. */
  groups?: ProcessGroupRecorder;
}

/**
 * Runs a command through the shell in its own process group, so a timeout kills the whole
 * tree (test runners spawn workers) and not just the shell.
 */
export function runShellCommand(command: string, options: RunShellOptions): Promise<CommandOutcome> {
  const keepBytes = options.keepBytes ?? 16_384;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...(options.groups ? { [GROUP_MARKER_VARIABLE]: options.groups.marker } : {}) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) options.groups?.started(pgid);
    const settled = (): void => {
      if (pgid !== undefined) options.groups?.ended(pgid);
    };
    const hash = createHash('sha256');
    let tail = Buffer.alloc(0);
    let timedOut = false;
    let cut = false;
    const take = (chunk: Buffer): void => {
      hash.update(chunk);
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > keepBytes * 2) {
        tail = tail.subarray(tail.length - keepBytes);
        cut = true;
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);

    // The whole group, even after the shell itself exited: a background child (a server a test
    // started, `cmd &`) may still hold the output pipes and would keep the call open forever.
    const killTree = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs);
    const onAbort = (): void => killTree();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    let linger: NodeJS.Timeout | undefined;
    child.on('exit', () => {
      // What the shell left running gets a moment to finish writing, then the call settles without it.
      linger = setTimeout(() => {
        killTree();
        child.stdout.destroy();
        child.stderr.destroy();
      }, LINGER_MS);
    });
    child.on('error', (error) => {
      settled();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      settled();
      clearTimeout(timer);
      clearTimeout(linger);
      options.signal?.removeEventListener('abort', onAbort);
      if (tail.length > keepBytes) cut = true;
      const kept = tail.subarray(Math.max(0, tail.length - keepBytes));
      resolve({
        command,
        exitCode: timedOut || options.signal?.aborted ? null : code,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        output: (cut ? '[... output cut ...]\n' : '') + kept.toString('utf8'),
        outputDigest: hash.digest('hex'),
      });
    });
  });
}
