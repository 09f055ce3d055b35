import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { runCli } from '../helpers/cli-run.js';

const TOOLS = ['ask', 'behavior', 'entry', 'overview', 'plan', 'register', 'resolve', 'stage', 'status'];

const handbook = (args: string[]) => runCli(args);

function builtCopy(): string {
  const repo = copyOfFixture();
  expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  return repo;
}

interface Session {
  client: Client;
  /** Everything the server logged on stderr so far. */
  stderr: () => string;
  /** Errors the client met reading the server's stdout: anything there that is not protocol. */
  protocolErrors: Error[];
}

const open: Client[] = [];

async function connect(repo: string): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--repo', repo], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'handbook-test', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr, protocolErrors };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

type Structured = Record<string, any>;

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  // The text leads with one line for a person, then carries the same answer as JSON for clients that read only text.
  expect(JSON.parse(text.slice(text.indexOf('\n\n') + 2))).toEqual(result.structuredContent);
  return result.structuredContent as Structured;
}

async function callError(client: Client, name: string, args: unknown): Promise<string> {
  const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return (result.content as Array<{ text: string }>)[0]!.text;
}

function pageText(read: Awaited<ReturnType<Client['readResource']>>): string {
  const [content] = read.contents;
  return content && 'text' in content ? content.text : '';
}

function sourceDigest(repo: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === '.handbook') continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(full).update(readFileSync(full));
    }
  };
  walk(repo);
  return hash.digest('hex');
}

/**
 * A thousand modules, each calling the one before, under a path mapping the build did not have:
 * new compiler settings, so the next sync analyzes every file again, for tens of seconds.
 */
function growPastItsBuild(repo: string): void {
  const folder = path.join(repo, 'src', 'chain');
  mkdirSync(folder);
  for (let index = 0; index < 1000; index += 1) {
    const helpers = Array.from({ length: 10 }, (_, k) => `export function helper${index}_${k}(value: number): number {\n  return value * ${k + 1} + ${index};\n}\n`).join('\n');
    const previous = index === 0 ? '' : `import { step${index - 1} } from './module${index - 1}.js';\n`;
    const step = `export function step${index}(value: number): number {\n  return ${index === 0 ? 'value' : `step${index - 1}(value)`} + helper${index}_0(value);\n}\n`;
    writeFileSync(path.join(folder, `module${index}.ts`), `${previous}${helpers}\n${step}`);
  }
  const tsconfig = path.join(repo, 'tsconfig.json');
  const settings = JSON.parse(readFileSync(tsconfig, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  settings.compilerOptions.paths['@chain/*'] = ['src/chain/*'];
  writeFileSync(tsconfig, JSON.stringify(settings, null, 2));
}

describe('handbook mcp', () => {
  let repo: string;
  beforeAll(() => {
    repo = builtCopy();
  });

  it('lists nine tools, each described and with input and output schemas, and the pages as resources', async () => {
    const { client } = await connect(repo);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(150);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.properties).toHaveProperty('freshness');
    }
    expect(tools.find((tool) => tool.name === 'ask')!.inputSchema).toMatchObject({ required: ['request'], properties: { request: { type: 'string' }, limit: { type: 'integer' } } });
    expect(tools.find((tool) => tool.name === 'plan')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((tool) => tool.name === 'entry')!.annotations).toMatchObject({ readOnlyHint: true });

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['handbook://{+page}']);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['handbook://overview', 'handbook://stages/agent-loop', 'handbook://register']));
    const overview = await client.readResource({ uri: 'handbook://overview' });
    expect(overview.contents[0]).toMatchObject({ uri: 'handbook://overview', mimeType: 'text/markdown' });
    expect(pageText(overview)).toMatch(/^# mini-harness\n[\s\S]*## Stages, in execution order/);
    const stage = await client.readResource({ uri: 'handbook://stages/security' });
    expect(pageText(stage)).toMatch(/maskSecrets/);
    await expect(client.readResource({ uri: 'handbook://stages/nope' })).rejects.toThrow(/no handbook page handbook:\/\/stages\/nope; pages: handbook:\/\/overview/);
  });

  it('answers the listings a client sends as it connects at once, and warms the analysis up after them', async () => {
    // Raw JSON-RPC, not the SDK's client: the client compiles every tool's schemas once the
    // listing arrives (up to a second on a loaded machine), which would blur when it was answered.
    const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answered = new Map<number, string>();
    const answer = (id: number) => expect.poll(() => answered.get(id), { timeout: 30_000, interval: 10 }).toBeDefined();
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      // What the server had logged when each answer came: the warm-up logs "ready:" when done.
      for (const line of lines) if (line) answered.set((JSON.parse(line) as { id: number }).id, stderr);
    });
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lister', version: '1' } } });
      await answer(1);
      // Sent together, as clients send them once initialized.
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list' });
      send({ id: 3, method: 'resources/templates/list' });
      await answer(2);
      await answer(3);
      // The warm-up parses every file without yielding; before it the listings waited for all of it.
      expect(answered.get(2)).not.toMatch(/ready:/);
      expect(answered.get(3)).not.toMatch(/ready:/);
      await expect.poll(() => stderr, { timeout: 30_000, interval: 100 }).toMatch(/ready: handbook generation 1\n/);
    } finally {
      child.kill();
    }
  });

  it('answers every tool with structured content that matches its schema; ask equals `ask --json`', async () => {
    const session = await connect(repo);
    const { client } = session;
    const before = sourceDigest(repo);

    const ask = await call(client, 'ask', { request: 'where are secrets masked before logging?', limit: 5 });
    const { freshness, ...answer } = ask;
    expect(answer).toEqual(JSON.parse(handbook(['ask', 'where are secrets masked before logging?', '--repo', repo, '--limit', '5', '--json']).stdout));
    // The masking helper and the logging path that calls it, both fresh.
    expect(answer.locations.slice(0, 3)).toEqual(expect.arrayContaining([
      expect.objectContaining({ file: 'src/security/secrets.ts', symbol: 'maskSecrets', status: 'fresh' }),
      expect.objectContaining({ file: 'src/observability/logger.ts', symbol: 'Logger.write', status: 'fresh' }),
    ]));
    expect(freshness).toEqual({ generation: 1, synced: { added: [], modified: [], removed: [] }, frozen: [] });

    const overview = await call(client, 'overview');
    expect(overview.title).toBe('mini-harness');
    expect(overview.stages.map((stage: { id: string }) => stage.id)).toContain('agent-loop');

    const stage = await call(client, 'stage', { id: 'security' });
    expect(stage).toMatchObject({ id: 'security', stager: { kind: 'offline' } });
    expect(stage.members).toContainEqual(expect.objectContaining({ unit: 'src/security/secrets.ts#maskSecrets', primary: true }));

    const entry = await call(client, 'entry', { unit: 'maskSecrets' });
    expect(entry.unit).toMatchObject({ id: 'src/security/secrets.ts#maskSecrets', file: 'src/security/secrets.ts', symbol: 'maskSecrets', line: 27, endLine: 37, status: 'fresh' });
    expect(entry.unit.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(entry.stage).toBe('security');
    expect(entry.callers.map((caller: { id: string }) => caller.id)).toEqual(['src/observability/logger.ts#Logger.write', 'src/session/sessionStore.ts#SessionStore.save', 'src/tools/shell.ts#runShellTool']);
    expect(entry.callees).toContainEqual(expect.objectContaining({ id: 'src/security/secrets.ts#redactValue', at: [30, 35] }));

    const register = await call(client, 'register', { slot: 'SessionStore.history' });
    expect(register.slots).toHaveLength(1);
    expect(register.slots[0]).toMatchObject({ slot: 'src/session/sessionStore.ts#SessionStore.history', file: 'src/session/sessionStore.ts', line: 21, status: 'fresh', writerCount: 5, readerCount: 2 });
    expect(register.slots[0].writers).toHaveLength(5);
    expect(register.slots[0].writers).toContainEqual({ unit: 'src/session/sessionStore.ts#SessionStore.load', file: 'src/session/sessionStore.ts', symbol: 'SessionStore.load', line: 68, endLine: 74, at: [73], status: 'fresh' });
    expect(register.freshness.frozen).toEqual([]);
    const coupling = (await call(client, 'register')).slots;
    expect(coupling.length).toBeGreaterThan(5);
    for (const slot of coupling) {
      expect(slot.stages.length).toBeGreaterThan(1);
      expect(slot).not.toHaveProperty('writers');
    }
    const persistence = (await call(client, 'register', { stage: 'persistence' })).slots;
    expect(persistence.length).toBeGreaterThan(0);
    expect(persistence.length).toBeLessThan(coupling.length);
    expect(persistence.every((slot: { stages: string[] }) => slot.stages.includes('persistence'))).toBe(true);

    expect(await call(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'maskSecrets', hash: entry.unit.hash })).toMatchObject({ status: 'fresh', line: 27, endLine: 37, hash: entry.unit.hash });

    const status = await call(client, 'status');
    expect(status).toMatchObject({ fresh: true, counts: { changed: 0, frozen: 0, moved: 0 }, newFiles: [] });

    const planned = await call(client, 'plan', { request: 'mask secrets in every capture path' });
    expect(planned.plan).toMatchObject({ request: 'mask secrets in every capture path', planner: { kind: 'offline' } });
    expect(planned.plan.targets.length).toBeGreaterThan(0);
    expect(planned.files.json).toBe(path.join(repo, '.handbook', 'plans', `${planned.plan.id}.json`));
    expect(JSON.parse(readFileSync(planned.files.json, 'utf8')).id).toBe(planned.plan.id);
    expect(sourceDigest(repo)).toBe(before);

    // Calls sent together are answered one at a time, each from a synced handbook.
    const together = await Promise.all([call(client, 'overview'), call(client, 'status'), call(client, 'entry', { unit: 'AgentLoop.run' })]);
    expect(together[2]!.unit.file).toBe('src/agent/agentLoop.ts');
    expect(session.protocolErrors).toEqual([]);
    expect(session.stderr()).toMatch(/serving .*mini-harness over stdio/);
  });

  it('never serves a stale map: an edit between two calls changes the answer, and resolve follows the code', async () => {
    const edited = builtCopy();
    const { client, protocolErrors } = await connect(edited);
    const secrets = path.join(edited, 'src/security/secrets.ts');
    const original = readFileSync(secrets, 'utf8');
    const first = await call(client, 'entry', { unit: 'maskSecrets' });
    expect(first.unit.line).toBe(27);
    const redactHash = (await call(client, 'entry', { unit: 'redactValue' })).unit.hash;
    expect((await call(client, 'ask', { request: 'redact bearer tokens in headers' })).locations.map((location: { symbol: string }) => location.symbol)).not.toContain('redactBearerTokens');

    const bearer = "\n/** Hides bearer tokens in Authorization headers. */\nexport function redactBearerTokens(header: string): string {\n  return header.replace(/Bearer [A-Za-z0-9._-]+/g, 'Bearer [REDACTED]');\n}\n";
    writeFileSync(secrets, `// Masking helpers.\n// Keep in step with the logger.\n${original}${bearer}`);
    const shifted = await call(client, 'entry', { unit: 'maskSecrets' });
    expect(shifted.unit).toMatchObject({ line: 29, endLine: 39, hash: first.unit.hash, status: 'fresh' });
    expect(shifted.freshness.synced).toEqual({ added: [], modified: ['src/security/secrets.ts'], removed: [] });
    expect(await call(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'maskSecrets', hash: first.unit.hash })).toMatchObject({ status: 'fresh', line: 29 });
    const asked = await call(client, 'ask', { request: 'redact bearer tokens in headers' });
    expect(asked.locations.map((location: { symbol: string }) => location.symbol)).toContain('redactBearerTokens');
    expect(asked.freshness.synced.modified).toEqual([]);

    // redactValue moves, verbatim, to a file of its own.
    const redactValue = original.slice(original.indexOf('/**\n * Replaces a secret'), original.indexOf('/** Masks every known secret'));
    writeFileSync(path.join(edited, 'src/security/redact.ts'), `const REDACTED = '[REDACTED]';\n\n${redactValue}`);
    writeFileSync(secrets, `import { redactValue } from './redact.js';\n${original.replace(redactValue, '')}`);
    const moved = await call(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'redactValue', hash: redactHash });
    expect(moved).toMatchObject({ status: 'moved', movedTo: { file: 'src/security/redact.ts', symbol: 'redactValue', line: 7 } });
    expect(moved.freshness.synced).toEqual({ added: ['src/security/redact.ts'], modified: ['src/security/secrets.ts'], removed: [] });
    expect(await call(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'redactValue' })).toMatchObject({ status: 'frozen', reason: 'redactValue is no longer in src/security/secrets.ts; pass the hash to follow code that moved' });

    writeFileSync(secrets, readFileSync(secrets, 'utf8').replace('let masked = text;', 'let masked = text.trim();'));
    expect(await call(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'maskSecrets', hash: first.unit.hash })).toMatchObject({ status: 'changed', reason: 'maskSecrets changed since that locator was taken' });
    expect(await call(client, 'resolve', { file: 'src/security/gone.ts', symbol: 'maskSecrets' })).toMatchObject({ status: 'frozen', reason: expect.stringMatching(/^src\/security\/gone\.ts no longer exists/) });
    expect((await call(client, 'status')).fresh).toBe(true);
    expect(protocolErrors).toEqual([]);
  });

  it('ask gives each location a hash that resolve takes back: fresh as answered, changed once the body is edited', async () => {
    const edited = builtCopy();
    const { client, protocolErrors } = await connect(edited);
    const request = 'where are secrets masked before logging?';
    const asked = await call(client, 'ask', { request, limit: 5 });
    expect(asked.locations).toHaveLength(5);
    for (const { file, symbol, line, endLine, hash } of asked.locations) {
      expect(hash).toMatch(/^[0-9a-f]{16}$/);
      expect(await call(client, 'resolve', { file, symbol, hash })).toMatchObject({ file, symbol, status: 'fresh', line, endLine, hash });
    }

    const mask = asked.locations.find((location: { symbol: string }) => location.symbol === 'maskSecrets');
    const secrets = path.join(edited, 'src/security/secrets.ts');
    writeFileSync(secrets, readFileSync(secrets, 'utf8').replace('let masked = text;', 'let masked = text.trim();'));
    const changed = await call(client, 'resolve', { file: mask.file, symbol: mask.symbol, hash: mask.hash });
    expect(changed).toMatchObject({ status: 'changed', line: mask.line, endLine: mask.endLine, reason: 'maskSecrets changed since that locator was taken' });
    expect(changed.hash).not.toBe(mask.hash);
    // Synced before it answers, ask now gives the edited code's hash, which resolve finds fresh.
    const again = (await call(client, 'ask', { request })).locations.find((location: { symbol: string }) => location.symbol === 'maskSecrets');
    expect(again).toMatchObject({ status: 'fresh', hash: changed.hash });
    expect(await call(client, 'resolve', { file: again.file, symbol: again.symbol, hash: again.hash })).toMatchObject({ status: 'fresh' });
    expect(protocolErrors).toEqual([]);
  });

  it('resolve judges a file analysis now leaves out as status does: neither code to parse nor a path to refuse', async () => {
    const edited = builtCopy();
    const { client } = await connect(edited);
    const hashOf = async (unit: string): Promise<string> => (await call(client, 'entry', { unit })).unit.hash;
    const hashes = { maskSecrets: await hashOf('maskSecrets'), truncateOutput: await hashOf('truncateOutput'), runShellTool: await hashOf('runShellTool') };
    // Each unit's own code stays as it was: only the build's rules leave the files out now.
    const secrets = path.join(edited, 'src/security/secrets.ts');
    writeFileSync(secrets, `// @generated by a tool\n${readFileSync(secrets, 'utf8')}`);
    const truncate = path.join(edited, 'src/tools/truncate.ts');
    writeFileSync(truncate, Buffer.concat([readFileSync(truncate), Buffer.from([0x00])]));
    const shell = path.join(edited, 'src/tools/shell.ts');
    const outside = path.join(scratchDirectory(), 'shell.ts');
    writeFileSync(outside, readFileSync(shell));
    rmSync(shell);
    symlinkSync(outside, shell);

    const resolve = (file: string, symbol: keyof typeof hashes) => call(client, 'resolve', { file, symbol, hash: hashes[symbol] });
    expect(await resolve('src/security/secrets.ts', 'maskSecrets')).toMatchObject({ status: 'frozen', reason: 'src/security/secrets.ts is now skipped as generated' });
    expect(await resolve('src/tools/truncate.ts', 'truncateOutput')).toMatchObject({ status: 'frozen', reason: 'src/tools/truncate.ts is now skipped as binary' });
    expect(await resolve('src/tools/shell.ts', 'runShellTool')).toMatchObject({ status: 'frozen', reason: 'src/tools/shell.ts (a symlink) is now skipped as symlink-outside' });
  });

  it('refuses malformed calls: a protocol error for arguments that are no object, an error result naming the argument for schema violations', async () => {
    const { client } = await connect(repo);
    await expect(client.request({ method: 'tools/call', params: { name: 'ask', arguments: 'where is masking?' } }, CallToolResultSchema)).rejects.toBeInstanceOf(McpError);
    await expect(client.request({ method: 'tools/call', params: { arguments: {} } }, CallToolResultSchema)).rejects.toBeInstanceOf(McpError);

    expect(await callError(client, 'ask', { request: 42 })).toMatch(/Input validation error: .*expected string, received number at request/);
    expect(await callError(client, 'ask', {})).toMatch(/Input validation error: .*request/);
    expect(await callError(client, 'ask', { request: 'masking', limit: 0 })).toMatch(/Input validation error: .*limit/);
    expect(await callError(client, 'ask', { request: 'masking', colour: 'red' })).toMatch(/Input validation error: .*Unrecognized key: "colour"/);
    expect(await callError(client, 'resolve', { file: 'src/security/secrets.ts' })).toMatch(/Input validation error: .*symbol/);
    expect(await callError(client, 'nope', {})).toMatch(/Tool nope not found/);

    // A request the library refuses is a tool error in one line, saying what to do.
    expect(await callError(client, 'entry', { unit: 'noSuchThing' })).toBe('no unit named "noSuchThing" (pass a unit id (path/to/file.ts#Class.method) or a symbol name; ask finds units by what they do)');
    expect(await callError(client, 'stage', { id: 'nope' })).toMatch(/^no stage "nope" \(stages: startup, /);
    expect(await callError(client, 'register', { stage: 'nope' })).toMatch(/^no stage "nope" \(stages: startup, /);
    expect(await callError(client, 'register', { slot: 'Nobody.nothing' })).toMatch(/^no state slot named "Nobody.nothing"/);
    // A slot's answer is not shaped by the list's arguments, so they are refused rather than dropped unseen.
    expect(await callError(client, 'register', { slot: 'SessionStore.history', stage: 'persistence' })).toMatch(/^register takes slot or stage, not both \(/);
    expect(await callError(client, 'resolve', { file: '../outside.ts', symbol: 'x' })).toMatch(/outside the repository/);
    // A folder is there, so it is no code gone: the locator named the wrong kind of path.
    expect(await callError(client, 'resolve', { file: 'src/security', symbol: 'maskSecrets' })).toBe('src/security is a folder, not a file (pass the file that holds the symbol, as an earlier answer gave it)');
    // Neither is a README: it is there, it just holds no code, so it is no locator gone.
    expect(await callError(client, 'resolve', { file: 'README.md', symbol: 'maskSecrets' })).toMatch(/^README\.md is not a source file the handbook analyzes \(it holds units of TypeScript and JavaScript files only/);
    expect(await callError(client, 'ask', { request: '   ' })).toMatch(/Input validation error/);

    expect((await call(client, 'overview')).title).toBe('mini-harness');
  });

  it('refuses a runaway or malformed name in a few hundred characters, and a file name no file system holds as bad input, not a server failure', async () => {
    const { client, stderr } = await connect(repo);
    const huge = 'x'.repeat(200_000);
    for (const [tool, args] of [
      ['stage', { id: huge }], ['entry', { unit: huge }], ['register', { slot: huge }], ['register', { stage: huge }],
      ['resolve', { file: huge, symbol: 'x' }], ['resolve', { file: 'src/security/secrets.ts', symbol: huge }],
    ] as const) {
      const refusal = await callError(client, tool, args);
      expect(refusal, tool).toMatch(/Input validation error: .*Too big/);
      expect(refusal.length, tool).toBeLessThan(500);
    }
    // A hash that is no hash would otherwise read as code that changed.
    expect(await callError(client, 'resolve', { file: 'src/security/secrets.ts', symbol: 'maskSecrets', hash: '27' })).toMatch(/Input validation error: .*16 hex digits .* at hash/);
    const longName = `src/${'y'.repeat(300)}.ts`;
    const refusal = await callError(client, 'resolve', { file: longName, symbol: 'x' });
    expect(refusal).toMatch(/^src\/y+… is too long to be a file name \(pass the file that holds the symbol/);
    expect(refusal.length).toBeLessThan(500);
    expect(stderr()).not.toMatch(/unexpected/);
  });

  it('pages a stage\'s members, each page naming only its own entry points and exits, so a large stage never comes whole', async () => {
    const { client } = await connect(repo);
    const whole = await call(client, 'stage', { id: 'agent-loop' });
    expect(whole.nextOffset).toBeUndefined();
    expect(whole).toMatchObject({ memberCount: whole.members.length, entryPointCount: whole.entryPoints.length, exitCount: whole.exits.length });
    const pages: Structured[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1)!.nextOffset) pages.push(await call(client, 'stage', { id: 'agent-loop', offset, limit: 3 }));
    expect(pages.length).toBe(Math.ceil(whole.memberCount / 3));
    expect(pages.flatMap((page) => page.members)).toEqual(whole.members);
    expect(pages.flatMap((page) => page.entryPoints)).toEqual(whole.entryPoints);
    expect(pages.flatMap((page) => page.exits)).toEqual(whole.exits);
    for (const page of pages) {
      expect(page.members.length).toBeLessThanOrEqual(3);
      expect(page.memberCount).toBe(whole.memberCount);
      const units = page.members.map((member: { unit: string }) => member.unit);
      expect(units).toEqual(expect.arrayContaining([...page.entryPoints, ...page.exits]));
    }
    expect((await call(client, 'stage', { id: 'agent-loop', offset: 1000 })).members).toEqual([]);
    expect(await callError(client, 'stage', { id: 'agent-loop', limit: 0 })).toMatch(/Input validation error: .*limit/);
  });

  it('pages the state that couples stages, as it pages a stage\'s members', async () => {
    const { client } = await connect(repo);
    const whole = await call(client, 'register');
    expect(whole).toMatchObject({ slotCount: whole.slots.length });
    expect(whole.nextOffset).toBeUndefined();
    const pages: Structured[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1)!.nextOffset) pages.push(await call(client, 'register', { offset, limit: 4 }));
    expect(pages.length).toBe(Math.ceil(whole.slotCount / 4));
    expect(pages.flatMap((page) => page.slots)).toEqual(whole.slots);
    expect(pages.every((page) => page.slotCount === whole.slotCount)).toBe(true);
    expect((await call(client, 'register', { stage: 'persistence', limit: 1 })).slots).toHaveLength(1);
  });

  it('pages a unit\'s callers and callees and a slot\'s writers and readers, with whole counts, so a heavily used one never comes whole', async () => {
    const { client } = await connect(repo);
    const walk = async (tool: string, args: Record<string, unknown>): Promise<Structured[]> => {
      const pages: Structured[] = [];
      for (let offset: number | undefined = 0; offset !== undefined; offset = pages.at(-1)!.nextOffset) pages.push(await call(client, tool, { ...args, offset, limit: 2 }));
      return pages;
    };

    const entry = await call(client, 'entry', { unit: 'maskSecrets' });
    expect(entry.nextOffset).toBeUndefined();
    expect(entry).toMatchObject({ callerCount: 3, calleeCount: entry.callees.length });
    const entryPages = await walk('entry', { unit: 'maskSecrets' });
    expect(entryPages.length).toBe(Math.ceil(Math.max(entry.callerCount, entry.calleeCount) / 2));
    expect(entryPages.flatMap((page) => page.callers)).toEqual(entry.callers);
    expect(entryPages.flatMap((page) => page.callees)).toEqual(entry.callees);
    for (const page of entryPages) {
      expect(page).toMatchObject({ callerCount: entry.callerCount, calleeCount: entry.calleeCount, unit: entry.unit });
      expect(page.callers.length).toBeLessThanOrEqual(2);
      expect(page.callees.length).toBeLessThanOrEqual(2);
    }
    expect(await call(client, 'entry', { unit: 'maskSecrets', offset: 1000 })).toMatchObject({ callers: [], callees: [], callerCount: 3 });

    const slot = (await call(client, 'register', { slot: 'SessionStore.history' })).slots[0];
    expect(slot).toMatchObject({ writerCount: 5, readerCount: 2 });
    const slotPages = await walk('register', { slot: 'SessionStore.history' });
    expect(slotPages.length).toBe(3);
    expect(slotPages.flatMap((page) => page.slots[0].writers)).toEqual(slot.writers);
    expect(slotPages.flatMap((page) => page.slots[0].readers)).toEqual(slot.readers);
    for (const page of slotPages) expect(page).toMatchObject({ slotCount: 1, slots: [{ writerCount: 5, readerCount: 2 }] });
    expect(await callError(client, 'entry', { unit: 'maskSecrets', limit: 0 })).toMatch(/Input validation error: .*limit/);
  });

  it('survives a client that cancels a call mid-way, and answers the next one', async () => {
    const edited = builtCopy();
    const { client, stderr } = await connect(edited);
    expect((await call(client, 'status')).fresh).toBe(true);
    writeFileSync(path.join(edited, 'src/security/audit.ts'), "import { maskSecrets } from './secrets.js';\nexport function audit(line: string): string {\n  return maskSecrets(line);\n}\n");
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'plan', arguments: { request: 'audit every masked line' } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('the user pressed escape'), 5);
    await expect(cancelled).rejects.toThrow(/escape|abort/i);
    const entry = await call(client, 'entry', { unit: 'audit' });
    expect(entry.unit).toMatchObject({ file: 'src/security/audit.ts', line: 2, status: 'fresh' });
    expect(stderr()).not.toMatch(/unexpected|\n\s+at /);
  });

  it('exits cleanly when the client goes away mid-call, leaving a store the next sync reads; stdout carries only protocol', async () => {
    const edited = builtCopy();
    writeFileSync(path.join(edited, 'src/security/audit.ts'), "export function audit(line: string): string {\n  return line;\n}\n");
    const { child, send, exited, stdout, stderr } = await initializedRawServer(edited);
    send({ id: 2, method: 'tools/call', params: { name: 'ask', arguments: { request: 'where is the audit line written?' } } });
    child.stdin.end();
    child.stdout.destroy();

    expect(await exited).toBe(0);
    expect(stderr()).toMatch(/the client (closed the connection|stopped reading).*; shutting down\n/);
    expect(stderr()).not.toMatch(/unexpected|\n\s+at /);
    for (const line of stdout().split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // The call's sync was written whole or abandoned before its write, depending on when the end of input was seen.
    expect(handbook(['sync', edited, '--no-progress']).code).toBe(0);
    expect(handbook(['status', edited]).code).toBe(0);
  });

  it('exits within seconds when the client closes its input during a warm-up that analyzes for tens of seconds', async () => {
    const large = builtCopy();
    growPastItsBuild(large);
    const { child, exited, stderr } = await initializedRawServer(large);
    // Well past the half second the warm-up waits for, and far short of the analysis it starts.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const closedAt = performance.now();
    child.stdin.end();

    expect(await exited).toBe(0);
    expect(performance.now() - closedAt).toBeLessThan(10_000);
    expect(stderr()).toMatch(/not ready: the analysis was abandoned: the server is shutting down\n/);
    expect(stderr()).toMatch(/the client closed the connection; shutting down\n/);
    expect(stderr()).not.toMatch(/ready: handbook generation|synced|unexpected|\n\s+at /);
    // Nothing of the abandoned analysis was written: the store is the build's, and reads as stale.
    expect(handbook(['status', large]).code).toBe(5);
  }, 120_000);

  it('starts before the handbook is built, says how to build it, works once it is, and follows a handbook deleted and built again', async () => {
    const bare = copyOfFixture();
    const { client } = await connect(bare);
    let listChanged = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (listChanged += 1));
    expect(await callError(client, 'overview', {})).toMatch(/^no handbook at .*handbook\.db \(run `handbook build` first\)$/);
    expect((await client.listResources()).resources).toEqual([]);
    await expect(client.readResource({ uri: 'handbook://overview' })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/no handbook at .*run `handbook build` first/) });
    expect(handbook(['build', bare, '--no-progress']).code).toBe(0);
    expect((await call(client, 'overview')).title).toBe('mini-harness');
    // The client listed no pages before the build; it is told the list changed rather than left with none.
    await expect.poll(() => listChanged).toBe(1);
    expect((await client.listResources()).resources.length).toBeGreaterThan(3);
    expect((await call(client, 'status')).fresh).toBe(true);
    expect(listChanged).toBe(1);

    rmSync(path.join(bare, '.handbook'), { recursive: true });
    expect(handbook(['build', bare, '--no-progress']).code).toBe(0);
    writeFileSync(path.join(bare, 'src/security/audit.ts'), 'export function audit(line: string): string {\n  return line;\n}\n');
    expect((await call(client, 'entry', { unit: 'audit' })).unit.file).toBe('src/security/audit.ts');
    expect(handbook(['status', bare]).code).toBe(0);
  });

  it('answers that the handbook was deleted when it is deleted under the server, writes no new one, and works again once built', async () => {
    const copy = builtCopy();
    const { client } = await connect(copy);
    expect((await call(client, 'overview')).title).toBe('mini-harness');

    rmSync(path.join(copy, '.handbook'), { recursive: true });
    writeFileSync(path.join(copy, 'src/security/audit.ts'), 'export function audit(line: string): string {\n  return line;\n}\n');
    expect(await callError(client, 'entry', { unit: 'audit' })).toMatch(/^the handbook database .*handbook\.db was deleted while it was open, so nothing was synced into it \(run `handbook build` to build it again\)$/);
    expect(await callError(client, 'overview', {})).toMatch(/^no handbook at .*handbook\.db \(run `handbook build` first\)$/);
    expect(existsSync(path.join(copy, '.handbook'))).toBe(false);

    expect(handbook(['build', copy, '--no-progress']).code).toBe(0);
    expect((await call(client, 'entry', { unit: 'audit' })).unit.file).toBe('src/security/audit.ts');
  });

  it('refuses a repository that does not exist in one line on stderr, with nothing on stdout', () => {
    const result = handbook(['mcp', '--repo', path.join(repo, 'missing')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** `handbook mcp` on raw JSON-RPC, past its handshake: for tests that close its input or stop reading its output, which the SDK's client does not. */
async function initializedRawServer(repo: string) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const send = (message: object): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  send({ method: 'notifications/initialized' });
  return { child, send, exited, stdout: () => stdout, stderr: () => stderr };
}
