import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PYTHON_REAL_CODE, pythonRealCodeDirectory } from '../helpers/python-real-code.js';

const { debianPackage, version, pythonPackage } = PYTHON_REAL_CODE;

/** What apt-get says when its package lists are missing or stale; `apt-get update` cures these. */
const STALE_LISTS = /Unable to locate package|has no installation candidate|Version '[^']*' for '[^']*' was not found|Failed to fetch/;

/**
 * Brings the real Python code used by end-to-end tests from Debian's package archive, once, into an
 * ignored cache folder: `apt-get download` of the pinned version, `dpkg-deb -x`, and the package
 * folder moved to `<cache>/prompt_toolkit`. In CI a failure here fails the run; locally the tests
 * that need it skip with a message.
 */
export default function setup(): void {
  const target = pythonRealCodeDirectory();
  if (existsSync(path.join(target, pythonPackage, '__init__.py'))) return;
  const cache = path.dirname(target);
  let scratch: string | undefined;
  try {
    mkdirSync(cache, { recursive: true });
    // Inside the cache folder, so the final rename stays on one file system.
    scratch = mkdtempSync(path.join(cache, '.python-real-code-'));
    // apt-get downloads as its sandbox user `_apt` when that user can write here (else it warns).
    chmodSync(scratch, 0o755);
    download(scratch);
    const deb = readdirSync(scratch).find((name) => name.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download produced no .deb');
    const extracted = path.join(scratch, 'extracted');
    execFileSync('dpkg-deb', ['-x', path.join(scratch, deb), extracted], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    const source = path.join(extracted, 'usr', 'lib', 'python3', 'dist-packages', pythonPackage);
    if (!existsSync(path.join(source, '__init__.py'))) {
      throw new Error(`${deb} holds no usr/lib/python3/dist-packages/${pythonPackage}/__init__.py`);
    }
    const staged = path.join(scratch, 'staged');
    mkdirSync(staged);
    renameSync(source, path.join(staged, pythonPackage));
    rmSync(target, { recursive: true, force: true });
    renameSync(staged, target);
  } catch (error) {
    const message = `could not fetch ${debianPackage}=${version} from Debian: ${firstLine(error)}`;
    if (process.env.CI === 'true') throw new Error(message);
    process.stderr.write(`${message}; Python real-code tests will be skipped\n`);
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/** `apt-get download NAME=VERSION` into `directory`, refreshing the package lists once if they are missing or stale. */
function download(directory: string): void {
  try {
    aptGet(['download', `${debianPackage}=${version}`], directory, 120_000);
    return;
  } catch (error) {
    if (!STALE_LISTS.test(output(error))) throw error;
  }
  try {
    aptGet(['update'], directory, 300_000);
  } catch (error) {
    throw new Error(`the package lists are missing or stale and \`apt-get update\` failed (it needs root): ${firstLine(error)}`);
  }
  try {
    aptGet(['download', `${debianPackage}=${version}`], directory, 120_000);
  } catch (error) {
    const candidate = candidateVersion();
    if (candidate && candidate !== version) {
      throw new Error(
        `version ${version} is gone from the archive, which now offers ${candidate}: pin that in test/helpers/python-real-code.ts ` +
          `and check the hand-verified facts of the Python real-code tests again (${firstLine(error)})`,
      );
    }
    throw error;
  }
}

function aptGet(args: string[], cwd: string, timeout: number): void {
  execFileSync('apt-get', ['-q', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout });
}

/** The version `apt-cache policy` shows as candidate, or undefined. */
function candidateVersion(): string | undefined {
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
