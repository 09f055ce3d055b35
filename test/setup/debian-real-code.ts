import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DEBIAN_REAL_CODE, type DebianRealCode, debianRealCodeDirectory, type DebianRealCodeName } from '../helpers/debian-real-code.js';

/** What apt-get says when its package lists are missing or stale; `apt-get update` cures these. */
const STALE_LISTS = /Unable to locate package|has no installation candidate|Version '[^']*' for '[^']*' was not found|Failed to fetch/;

/**
 * Brings the real Python, Go and Rust code used by end-to-end tests from Debian's package archive,
 * once each, into an ignored cache folder: `apt-get download` of the pinned version, `dpkg-deb -x`,
 * and the source folder moved into place. In CI a failure here fails the run; locally the tests
 * that need it skip with a message.
 */
export default function setup(): void {
  let listsUpdated = false;
  for (const name of Object.keys(DEBIAN_REAL_CODE) as DebianRealCodeName[]) {
    const entry: DebianRealCode = DEBIAN_REAL_CODE[name];
    const target = debianRealCodeDirectory(name);
    if (existsSync(path.join(target, entry.marker))) continue;
    const cache = path.dirname(target);
    let scratch: string | undefined;
    try {
      mkdirSync(cache, { recursive: true });
      // Inside the cache folder, so the final rename stays on one file system.
      scratch = mkdtempSync(path.join(cache, '.debian-real-code-'));
      // apt-get downloads as its sandbox user `_apt` when that user can write here (else it warns).
      chmodSync(scratch, 0o755);
      listsUpdated = download(entry, scratch, listsUpdated);
      const deb = readdirSync(scratch).find((file) => file.endsWith('.deb'));
      if (!deb) throw new Error('apt-get download produced no .deb');
      const extracted = path.join(scratch, 'extracted');
      execFileSync('dpkg-deb', ['-x', path.join(scratch, deb), extracted], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
      const source = path.join(extracted, entry.inside);
      const staged = path.join(scratch, 'staged');
      if (entry.keep) {
        mkdirSync(staged);
        renameSync(source, path.join(staged, entry.keep));
      } else {
        renameSync(source, staged);
      }
      if (!existsSync(path.join(staged, entry.marker))) throw new Error(`${deb} holds no ${entry.inside} with ${entry.marker}`);
      rmSync(target, { recursive: true, force: true });
      renameSync(staged, target);
    } catch (error) {
      const message = `could not fetch ${entry.debianPackage}=${entry.version} from Debian: ${firstLine(error)}`;
      if (process.env.CI === 'true') throw new Error(message);
      process.stderr.write(`${message}; the ${name} real-code tests will be skipped\n`);
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  }
}

/**
 * `apt-get download NAME=VERSION` into `directory`, refreshing the package lists once per setup if
 * they are missing or stale; says whether they were refreshed.
 */
function download(entry: DebianRealCode, directory: string, listsUpdated: boolean): boolean {
  const pinned = `${entry.debianPackage}=${entry.version}`;
  try {
    aptGet(['download', pinned], directory, 120_000);
    return listsUpdated;
  } catch (error) {
    if (listsUpdated || !STALE_LISTS.test(output(error))) throw withCandidate(entry, error);
  }
  try {
    aptGet(['update'], directory, 300_000);
  } catch (error) {
    throw new Error(`the package lists are missing or stale and \`apt-get update\` failed (it needs root): ${firstLine(error)}`);
  }
  try {
    aptGet(['download', pinned], directory, 120_000);
  } catch (error) {
    throw withCandidate(entry, error);
  }
  return true;
}

/** A failed download, saying which version the archive offers now when it is not the pinned one. */
function withCandidate(entry: DebianRealCode, error: unknown): unknown {
  const candidate = candidateVersion(entry.debianPackage);
  if (!candidate || candidate === entry.version) return error;
  return new Error(
    `version ${entry.version} is gone from the archive, which now offers ${candidate}: pin that in test/helpers/debian-real-code.ts ` +
      `and check the hand-verified facts of its real-code tests again (${firstLine(error)})`,
  );
}

function aptGet(args: string[], cwd: string, timeout: number): void {
  execFileSync('apt-get', ['-q', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout });
}

/** The version `apt-cache policy` shows as candidate, or undefined. */
function candidateVersion(debianPackage: string): string | undefined {
  try {
    const policy = execFileSync('apt-cache', ['policy', debianPackage], { encoding: 'utf8', timeout: 30_000 });
    const candidate = /Candidate:\s*(\S+)/.exec(policy)?.[1];
    return candidate && candidate !== '(none)' ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** stderr and stdout of a failed child process, or the error's message. */
function output(error: unknown): string {
  const { stderr, stdout, message } = error as { stderr?: Buffer | string; stdout?: Buffer | string; message?: string };
  return `${stderr?.toString() ?? ''}\n${stdout?.toString() ?? ''}\n${message ?? ''}`;
}

/** The most telling line: apt's `E:` line if there is one, else the first line of the message. */
function firstLine(error: unknown): string {
  const apt = output(error)
    .split('\n')
    .find((line) => line.startsWith('E: '));
  return apt ?? String((error as Error).message ?? error).split('\n', 1)[0] ?? '';
}
