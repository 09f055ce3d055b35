import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Gives the test run one temporary folder of its own, as TMPDIR for the workers and the CLI
 * processes they start, and removes it when the run ends: the fixture copies and scratch
 * databases of hundreds of tests do not pile up in the system's temporary folder.
 */
export default function setup(): () => void {
  const run = mkdtempSync(path.join(os.tmpdir(), 'handbook-run-'));
  // Tests that run a build as an unprivileged user must be able to reach their scratch folders.
  chmodSync(run, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = run;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(run, { recursive: true, force: true });
  };
}
