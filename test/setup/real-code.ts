import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REAL_CODE, realCodeDirectory } from '../helpers/real-code.js';

/**
 * Brings the real harness used by end-to-end tests from the npm registry, once, into an
 * ignored cache folder. In CI a failure here fails the run; locally the tests that need it
 * skip with a message.
 */
export default function setup(): void {
  const target = realCodeDirectory();
  if (existsSync(path.join(target, 'package.json'))) return;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-real-code-'));
  try {
    execFileSync('npm', ['pack', `${REAL_CODE.name}@${REAL_CODE.version}`, '--pack-destination', scratch, '--silent'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack produced no tarball');
    execFileSync('tar', ['xzf', tarball], { cwd: scratch });
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(path.join(scratch, 'package'), target);
  } catch (error) {
    const message = `could not fetch ${REAL_CODE.name}@${REAL_CODE.version} with npm pack: ${(error as Error).message.split('\n')[0]}`;
    if (process.env.CI === 'true') throw new Error(message);
    process.stderr.write(`${message}; real-code tests will be skipped\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
