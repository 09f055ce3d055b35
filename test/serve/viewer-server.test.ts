import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askHandbook, buildHandbook, startViewerServer, type ViewerServer } from '../../src/index.js';
import {
  askResponseSchema,
  errorResponseSchema,
  graphResponseSchema,
  helloEventSchema,
  overviewResponseSchema,
  registerResponseSchema,
  sourceResponseSchema,
  stageResponseSchema,
  syncEventSchema,
  unitResponseSchema,
} from '../../src/serve/api-schemas.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { openEvents, send, type EventStream } from './http-client.js';

const APP = { 'index.html': '<!doctype html><title>viewer</title>', 'app.js': 'console.log("viewer");', 'app.css': 'body { margin: 0; }' };

const running: ViewerServer[] = [];
const streams: EventStream[] = [];
/** Log lines of every server a test started: none may report a bug. */
let logged: string[] = [];

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(running.splice(0).map((server) => server.close()));
  expect(logged.filter((line) => line.startsWith('unexpected error'))).toEqual([]);
  logged = [];
});

/** A built app of three files, and a secret beside its folder that a path escape would reach. */
function fakeApp(): { folder: string; secret: string } {
  const scratch = scratchDirectory('viewer-app-');
  const folder = path.join(scratch, 'web');
  mkdirSync(folder);
  for (const [name, text] of Object.entries(APP)) writeFileSync(path.join(folder, name), text);
  const secret = path.join(scratch, 'secret.txt');
  writeFileSync(secret, 'app-folder-secret');
  return { folder, secret };
}

async function serve(repo: string, options: Parameters<typeof startViewerServer>[1] = {}): Promise<ViewerServer> {
  const server = await startViewerServer(repo, { port: 0, app: fakeApp().folder, debounceMs: 50, log: (line) => logged.push(line), ...options });
  running.push(server);
  return server;
}

async function events(server: ViewerServer): Promise<EventStream> {
  const stream = await openEvents(server.url);
  streams.push(stream);
  await stream.next((event) => event.event === 'hello');
  return stream;
}

async function getJson(server: ViewerServer, url: string): Promise<any> {
  const answer = await send(server.url, url);
  expect(answer.status, `${url}: ${answer.body}`).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return answer.json();
}

async function expectError(server: ViewerServer, url: string, status: number, message: RegExp, options: Parameters<typeof send>[2] = {}): Promise<void> {
  const answer = await send(server.url, url, options);
  expect(answer.status, `${options.method ?? 'GET'} ${url}: ${answer.body}`).toBe(status);
  if (options.method === 'HEAD') return;
  const { error } = errorResponseSchema.parse(answer.json());
  expect(error).toMatch(message);
  expect(error).not.toContain('\n');
}

async function builtCopy(): Promise<string> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  return repo;
}

/** Every file of the repository but the handbook's own folder, with its hash. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = path.relative(root, path.join(entry.parentPath, entry.name));
    if (!entry.isFile() || file.split(path.sep)[0] === '.handbook') continue;
    files[file] = createHash('sha256').update(readFileSync(path.join(root, file))).digest('hex');
  }
  return files;
}

describe('handbook serve', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await builtCopy();
  });

  it('answers every endpoint in the shape of its schema, from the current handbook', async () => {
    const server = await serve(repo);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const overview = overviewResponseSchema.parse(await getJson(server, '/api/overview'));
    expect(overview).toMatchObject({ name: 'mini-harness', stager: 'offline' });
    expect(overview.generation).toBeGreaterThan(0);
    expect(overview.stages.map((stage) => stage.position)).toEqual(overview.stages.map((_, index) => index));
    expect(overview.stages.find((stage) => stage.id === 'agent-loop')?.entryPoints.map((site) => site.unit)).toContain('src/agent/agentLoop.ts#AgentLoop.run');
    expect(overview.coupling.map((coupling) => coupling.slot)).toContain('SessionStore.history');

    for (const summary of overview.stages) {
      const stage = stageResponseSchema.parse(await getJson(server, `/api/stage/${summary.id}`));
      expect(stage).toMatchObject({ id: summary.id, name: summary.name, position: summary.position, summary: summary.summary, entryPoints: summary.entryPoints });
      expect(stage.members.filter((member) => member.primary)).toHaveLength(summary.unitCount);
    }

    const register = registerResponseSchema.parse(await getJson(server, '/api/register'));
    const history = register.slots.find((slot) => slot.name === 'SessionStore.history');
    expect(history?.slot).toBe('src/session/sessionStore.ts#SessionStore.history');
    expect(history?.writers).toHaveLength(5);
    expect(history?.stages.length).toBeGreaterThan(1);

    const run = unitResponseSchema.parse(await getJson(server, `/api/unit?id=${encodeURIComponent('src/agent/agentLoop.ts#AgentLoop.run')}`));
    expect(run).toMatchObject({ status: 'fresh', liveLine: run.unit.line, liveEndLine: run.unit.endLine, unit: { symbol: 'AgentLoop.run', kind: 'method', stage: 'agent-loop', line: 58 } });
    // A caller links to the line of its call, inside its own lines.
    const main = run.callers.find((caller) => caller.unit === 'src/index.ts#main');
    const mainUnit = unitResponseSchema.parse(await getJson(server, `/api/unit?id=${encodeURIComponent('src/index.ts#main')}`)).unit;
    expect(main!.line).toBeGreaterThan(mainUnit.line);
    expect(main!.line).toBeLessThanOrEqual(mainUnit.endLine);
    expect(run.callees.map((callee) => callee.unit)).toContain('src/agent/agentLoop.ts#AgentLoop.step');

    const source = sourceResponseSchema.parse(await getJson(server, '/api/source?file=src/agent/agentLoop.ts'));
    expect(source.file).toBe('src/agent/agentLoop.ts');
    expect(source.text.split('\n')[run.unit.line - 1]).toMatch(/async run\(/);

    const ask = askResponseSchema.parse(await getJson(server, `/api/ask?q=${encodeURIComponent('where are secrets masked?')}&limit=5`));
    expect(ask.locations.length).toBeLessThanOrEqual(5);
    expect(ask.locations[0]?.symbol).toBe('maskSecrets');
    expect(ask).toEqual(JSON.parse(JSON.stringify(await askHandbook(repo, 'where are secrets masked?', { limit: 5 }))));

    const graph = graphResponseSchema.parse(await getJson(server, '/api/graph'));
    const nodes = new Set(graph.nodes.map((node) => node.id));
    expect(graph.truncated).toBe(false);
    expect(graph.nodes.length).toBeGreaterThan(50);
    expect(graph.nodes.some((node) => node.kind === 'file')).toBe(false);
    expect(graph.nodes.find((node) => node.id === 'src/agent/agentLoop.ts#AgentLoop.run')).toMatchObject({ label: 'AgentLoop.run', stage: 'agent-loop', line: 58 });
    expect(graph.edges.every((edge) => nodes.has(edge.source) && nodes.has(edge.target) && edge.source !== edge.target)).toBe(true);
    expect(new Set(graph.edges.map((edge) => `${edge.source} ${edge.target}`)).size).toBe(graph.edges.length);
    expect(graph.edges).toContainEqual({ source: 'src/agent/agentLoop.ts#AgentLoop.run', target: 'src/agent/agentLoop.ts#AgentLoop.step', kind: 'calls' });
    expect(graph.stages.map((stage) => stage.id)).toEqual(overview.stages.map((stage) => stage.id));
    expect(new Set(graph.stages.map((stage) => stage.color)).size).toBe(graph.stages.length);
    const stageIds = new Set(graph.stages.map((stage) => stage.id));
    expect(graph.nodes.every((node) => node.stage === null || stageIds.has(node.stage))).toBe(true);

    for (const node of graph.nodes) unitResponseSchema.parse(await getJson(server, `/api/unit?id=${encodeURIComponent(node.id)}`));
  });

  it('serves the built app and nothing beside its folder', async () => {
    const { folder, secret } = fakeApp();
    symlinkSync(secret, path.join(folder, 'linked.txt'));
    const server = await serve(repo, { app: folder });
    const index = await send(server.url, '/');
    expect(index).toMatchObject({ status: 200, body: APP['index.html'] });
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(server.url, '/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(await send(server.url, '/app.css')).toMatchObject({ status: 200, body: APP['app.css'] });
    for (const escape of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/linked.txt', `/${encodeURIComponent(secret)}`, '/missing.js']) {
      const answer = await send(server.url, escape);
      expect(answer.status, escape).toBe(404);
      expect(answer.body).not.toContain('app-folder-secret');
    }
  });

  it('answers / with 500 and one line when the app is not built, and the API still', async () => {
    const server = await serve(repo, { app: path.join(scratchDirectory(), 'web') });
    await expectError(server, '/', 500, /web app is not built: .*index\.html is missing/);
    overviewResponseSchema.parse(await getJson(server, '/api/overview'));
  });

  it('answers errors as one line of JSON: 400 bad input, 404 unknown, 403 refused, 405 any method but GET and HEAD', async () => {
    const server = await serve(repo);
    await expectError(server, '/api/unit', 400, /pass id/);
    await expectError(server, '/api/source', 400, /pass file/);
    await expectError(server, '/api/ask', 400, /pass q/);
    await expectError(server, '/api/ask?q=masking&limit=0', 400, /limit must be a whole number from 1 to 500/);
    await expectError(server, '/api/ask?q=masking&limit=ten', 400, /limit/);
    await expectError(server, `/api/ask?q=${'x'.repeat(2_001)}`, 400, /2001 characters/);
    await expectError(server, '/api/stage/%E0%A4%A', 400, /not a valid URL path segment/);
    await expectError(server, '/api/unit?id=src/nowhere.ts%23nothing', 404, /no unit "src\/nowhere\.ts#nothing"/);
    await expectError(server, '/api/unit?id=line%0Abreak', 404, /no unit "line break"/);
    await expectError(server, '/api/stage/nowhere', 404, /^no stage "nowhere" \(stages: startup, /);
    await expectError(server, `/api/stage/${'a'.repeat(300)}`, 404, /^no stage "a{120}…" \(300 characters\) \(stages: startup, /);
    await expectError(server, '/api/nowhere', 404, /no API endpoint \/api\/nowhere/);
    await expectError(server, '/api', 404, /no API endpoint/);
    await expectError(server, '/api/source?file=src/nowhere.ts', 404, /not a source file of the handbook/);
    // The gate would read package.json, but the viewer serves only the code the handbook analyzed.
    await expectError(server, '/api/source?file=package.json', 404, /not a source file/);
    await expectError(server, '/api/overview', 403, /only requests addressed to localhost/, { headers: { host: 'attacker.example:80' } });
    await expectError(server, '/api/ask?q=secrets', 403, /only its own pages/, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect((await send(server.url, '/api/overview', { headers: { host: 'localhost' } })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const answer = await send(server.url, '/api/overview', { method, body: '{}' });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.json().error).toMatch(new RegExp(`^${method} is not served`));
    }
  });

  it('keeps every read inside the repository: /api/source refuses paths out, links out and the handbook folder', async () => {
    const copy = await builtCopy();
    const outside = path.join(scratchDirectory(), 'outside.ts');
    writeFileSync(outside, 'export const secret = "outside-secret";\n');
    symlinkSync(outside, path.join(copy, 'src', 'leak.ts'));
    const server = await serve(copy);
    const refused = [
      ['../outside.ts', /outside the repository/],
      [outside, /outside the repository/],
      ['src/../../outside.ts', /outside the repository/],
      ['src/leak.ts', /links outside the repository/],
      ['.handbook/handbook.db', /inside \.handbook\//],
      ['.git/config', /inside \.git\//],
    ] as const;
    for (const [file, message] of refused) {
      await expectError(server, `/api/source?file=${encodeURIComponent(file)}`, 403, message);
      expect((await send(server.url, `/api/source?file=${encodeURIComponent(file)}`)).body).not.toContain('outside-secret');
    }
  });

  it('writes nothing, whatever the method: HEAD answers the headers of GET, and every other method 405', async () => {
    const server = await serve(repo);
    const before = snapshot(repo);
    const urls = ['/', '/app.js', '/api/overview', '/api/register', '/api/graph', '/api/source?file=src/index.ts', `/api/unit?id=${encodeURIComponent('src/index.ts#main')}`, '/api/ask?q=masking', '/api/events'];
    for (const url of urls) {
      const head = await send(server.url, url, { method: 'HEAD' });
      expect(head.status, url).toBe(200);
      expect(head.body).toBe('');
      if (url !== '/api/events') expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength((await send(server.url, url)).body));
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        expect((await send(server.url, url, { method, body: 'export const injected = 1;\n', headers: { 'content-type': 'text/plain' } })).status).toBe(405);
      }
    }
    expect(snapshot(repo)).toEqual(before);
  });

  it('answers 503 until a handbook is built, then announces it on /api/events', async () => {
    const copy = copyOfFixture();
    const server = await serve(copy);
    await expectError(server, '/api/overview', 503, /^no handbook built yet: run handbook build first$/);
    await expectError(server, '/api/graph', 503, /run handbook build first/);
    await expectError(server, '/api/ask?q=masking', 503, /run handbook build first/);
    const stream = await events(server);
    expect(helloEventSchema.parse(stream.events[0]!.data)).toEqual({ generation: 0 });
    await buildHandbook(copy);
    const built = await stream.next((event) => event.event === 'sync');
    expect(syncEventSchema.parse(built.data).generation).toBeGreaterThan(0);
    expect((await getJson(server, '/api/overview')).generation).toBe(built.data.generation);
  });

  // Its watcher made a handbook schema of the file and then found no build in it: a sync may update a handbook, only a build makes one.
  it('writes nothing into an empty database file that appears while it waits for a build, and serves the build written there', async () => {
    const copy = copyOfFixture();
    const database = path.join(scratchDirectory(), 'handbook.db');
    const server = await serve(copy, { database });
    const stream = await events(server);
    writeFileSync(database, '');
    await expect.poll(() => logged.filter((line) => line.startsWith('not watching yet')), { timeout: 20_000 }).toEqual([`not watching yet: the handbook database at ${database} is empty`]);
    expect(statSync(database).size).toBe(0);
    await expectError(server, '/api/overview', 503, /^no handbook built yet: run handbook build first$/);

    await buildHandbook(copy, { database });
    await stream.next((event) => event.event === 'sync');
    expect((await getJson(server, '/api/overview')).name).toBe('mini-harness');
  });

  it('answers 503 saying the handbook was deleted when it is deleted under the server, writes no new one, and serves it again once built', async () => {
    const copy = await builtCopy();
    const server = await serve(copy);
    const stream = await events(server);
    expect((await getJson(server, '/api/overview')).name).toBe('mini-harness');

    rmSync(path.join(copy, '.handbook'), { recursive: true });
    writeFileSync(path.join(copy, 'src/security/audit.ts'), 'export function audit(line: string): string {\n  return line;\n}\n');
    const deleted = /^the handbook was deleted while the server ran: run handbook build to build it again$/;
    await expectError(server, '/api/overview', 503, deleted);
    await expectError(server, '/api/ask?q=masking', 503, deleted);
    // The watcher has had the quiet time and a poll to act on the edit: it stopped instead of syncing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(existsSync(path.join(copy, '.handbook'))).toBe(false);

    await buildHandbook(copy);
    await stream.next((event) => event.event === 'sync');
    expect((await getJson(server, '/api/overview')).name).toBe('mini-harness');
  });

  // The live fields of every listed unit nearly doubled gemini-cli's register; a unit still where the build put it carries none.
  it("lists the build's places alone while the handbook is in step with the code", async () => {
    const server = await serve(await builtCopy());
    const overview = overviewResponseSchema.parse(await getJson(server, '/api/overview'));
    const stages = await Promise.all(overview.stages.map(async (summary) => stageResponseSchema.parse(await getJson(server, `/api/stage/${summary.id}`))));
    const register = registerResponseSchema.parse(await getJson(server, '/api/register'));
    const run = unitResponseSchema.parse(await getJson(server, `/api/unit?id=${encodeURIComponent('src/agent/agentLoop.ts#AgentLoop.run')}`));
    const sites = [...register.slots.flatMap((slot) => [...slot.writers, ...slot.readers]), ...stages.flatMap((stage) => [...stage.entryPoints, ...stage.members]), ...run.callers, ...run.callees];
    expect(register.slots.length).toBeGreaterThan(0);
    const live = ['status', 'reason', 'liveFile', 'liveSymbol', 'liveLine', 'liveEndLine', 'liveAccessLine', 'liveCallLine'];
    expect(sites.filter((site) => live.some((key) => key in site))).toEqual([]);
  });

  it('syncs an edit on disk, pushes event: sync, and answers from the synced handbook', async () => {
    const copy = await builtCopy();
    const server = await serve(copy);
    const stream = await events(server);
    const overview = overviewResponseSchema.parse(await getJson(server, '/api/overview'));
    expect(helloEventSchema.parse(stream.events[0]!.data)).toEqual({ generation: overview.generation });
    expect(stream.raw()).toMatch(/^event: hello\ndata: \{"generation":\d+\}\n\n/);
    const maskSecrets = `/api/unit?id=${encodeURIComponent('src/security/secrets.ts#maskSecrets')}`;
    const before = unitResponseSchema.parse(await getJson(server, maskSecrets));
    await expectError(server, `/api/unit?id=${encodeURIComponent('src/security/secrets.ts#maskNothing')}`, 404, /no unit/);

    const file = path.join(copy, 'src/security/secrets.ts');
    writeFileSync(file, `// one\n// two\n// three\n${readFileSync(file, 'utf8')}\nexport function maskNothing(line: string): string {\n  return line;\n}\n`);
    const synced = await stream.next((event) => event.event === 'sync' && event.data.modified.includes('src/security/secrets.ts'), 15_000);
    expect(syncEventSchema.parse(synced.data)).toMatchObject({ added: [], removed: [] });

    const after = unitResponseSchema.parse(await getJson(server, maskSecrets));
    expect(after.unit.line).toBe(before.unit.line + 3);
    expect(after).toMatchObject({ status: 'fresh', liveLine: before.unit.line + 3, liveHash: before.liveHash });
    unitResponseSchema.parse(await getJson(server, `/api/unit?id=${encodeURIComponent('src/security/secrets.ts#maskNothing')}`));
    expect(sourceResponseSchema.parse(await getJson(server, '/api/source?file=src/security/secrets.ts')).text).toMatch(/^\/\/ one\n/);
  });
});
