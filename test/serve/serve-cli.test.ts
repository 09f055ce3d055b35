import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { overviewResponseSchema } from '../../src/serve/api-schemas.js';
import { CLI, copyOfFixture } from '../helpers/paths.js';
import { send } from './http-client.js';

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Serving {
  child: ChildProcess;
  url: string;
  repo: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `handbook serve` and waits for its one line on stdout. */
async function startServe(args: string[]): Promise<Serving> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const match = /^serving (http:\/\/\S+) \(repo (.+)\)$/.exec(first);
  expect(match, first).not.toBeNull();
  return { child, url: match![1]!, repo: match![2]!, stderr: () => stderr, exited };
}

describe('handbook serve (CLI)', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(spawnSync(process.execPath, [CLI, 'build', repo, '--no-progress'], { encoding: 'utf8', timeout: 60_000 }).status).toBe(0);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`serves on 127.0.0.1, prints one line, and exits 0 on ${signal}`, async () => {
      const serving = await startServe(['--repo', repo, '--port', '0']);
      expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(serving.repo).toBe(repo);
      const index = await send(serving.url, '/');
      expect(index.status).toBe(200);
      expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(overviewResponseSchema.parse((await send(serving.url, '/api/overview')).json()).name).toBe('mini-harness');
      serving.child.kill(signal);
      expect(await serving.exited).toBe(0);
      expect(serving.stderr()).toBe('');
    });
  }

  it('prints where it serves as one JSON line with --json', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--repo', repo, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const served = JSON.parse(first) as { url: string; root: string };
    expect(served).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), root: repo });
    expect((await send(served.url, '/')).status).toBe(200);
  });

  // The page of a repository not built yet would look broken with nothing said.
  it('says on stderr that no handbook is built yet, and serves anyway', async () => {
    const serving = await startServe(['--repo', copyOfFixture(), '--port', '0']);
    await expect.poll(serving.stderr).toMatch(/^handbook serve: no handbook at .*handbook\.db yet: run `handbook build .*`; the open page shows it once it is built\n$/);
    expect((await send(serving.url, '/')).status).toBe(200);
  });

  it('refuses a port in use and a bad port in one line with exit 2', async () => {
    const serving = await startServe(['--repo', repo, '--port', '0']);
    const port = new URL(serving.url).port;
    for (const [args, message] of [
      [['--port', port], new RegExp(`^handbook: port ${port} on 127\\.0\\.0\\.1 is in use \\(pass another --port`)],
      [['--port', '70000'], /^handbook: invalid option --port: /],
    ] as const) {
      const result = spawnSync(process.execPath, [CLI, 'serve', '--repo', repo, ...args], { encoding: 'utf8', timeout: 60_000 });
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
    serving.child.kill('SIGTERM');
    expect(await serving.exited).toBe(0);
  });
});
