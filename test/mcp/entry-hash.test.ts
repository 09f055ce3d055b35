import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { registerHandbookTools } from '../../src/mcp/handbook-tools.js';
import { editNeighbours, editStateAccessors, MASK_FILE, SCHEMA_FILE } from '../helpers/neighbour-edits.js';
import { serverWithEditWindow } from '../helpers/mcp-edit-window.js';
import { copyOfFixture } from '../helpers/paths.js';

const SECRETS = 'src/security/secrets.ts';

type Structured = Record<string, any>;

const closing: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** The handbook tools over an edit window (see serverWithEditWindow); no call may end in an unexpected error. */
async function toolsOver(repo: string): Promise<{ call: (name: string, args: Record<string, unknown>) => Promise<Structured>; editAfterNextSync: (edit: () => void) => void }> {
  const logged: string[] = [];
  const { client, editAfterNextSync, close } = await serverWithEditWindow(repo, (server, fresh) => registerHandbookTools(server, fresh, (line) => logged.push(line)));
  closing.push(async () => {
    await close();
    expect(logged.filter((line) => line.startsWith('unexpected error'))).toEqual([]);
  });
  return {
    editAfterNextSync,
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      return result.structuredContent as Structured;
    },
  };
}

async function builtCopy(): Promise<string> {
  const repo = copyOfFixture();
  await buildHandbook(repo);
  return repo;
}

describe('the MCP entry tool', () => {
  it('gives the hash of the live code it shows, which resolve then finds fresh, when the code changed since the handbook read', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    const built = (await call('entry', { unit: 'maskSecrets' })).unit;
    expect(built).toMatchObject({ file: SECRETS, symbol: 'maskSecrets', line: 27, endLine: 37, status: 'fresh' });

    const file = path.join(repo, SECRETS);
    editAfterNextSync(() => writeFileSync(file, readFileSync(file, 'utf8').replace('let masked = text;', 'let masked = text.trim();\n  // Trimmed first.')));
    const edited = (await call('entry', { unit: 'maskSecrets' })).unit;
    expect(edited).toMatchObject({ line: 27, endLine: 38, status: 'changed' });

    const live = await call('resolve', { file: SECRETS, symbol: 'maskSecrets' });
    expect(live).toMatchObject({ status: 'fresh', line: 27, endLine: 38 });
    expect(edited.hash).toBe(live.hash);
    expect(edited.hash).not.toBe(built.hash);
    expect(await call('resolve', { file: SECRETS, symbol: 'maskSecrets', hash: edited.hash })).toMatchObject({ status: 'fresh', line: 27, endLine: 38, hash: edited.hash });
  });

  it('gives no hash for a unit whose code is gone, as ask shows no location for it', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    editAfterNextSync(() => rmSync(path.join(repo, SECRETS)));
    const gone = await call('entry', { unit: 'maskSecrets' });
    expect(gone.unit).toMatchObject({ file: SECRETS, symbol: 'maskSecrets', status: 'frozen', reason: `${SECRETS} no longer exists` });
    expect(gone.unit).not.toHaveProperty('hash');
    expect(gone.freshness.frozen).toContainEqual({ unit: `${SECRETS}#maskSecrets`, reason: `${SECRETS} no longer exists` });
  });

  it('places the callees it lists where their code stands now, when the code changed since the handbook read: shifted lines, a new file, or gone', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    editAfterNextSync(() => editNeighbours(repo));
    const { callees } = await call('entry', { unit: 'runShellTool' });
    // The calls lie in runShellTool's own code, two lines down now.
    expect(callees).toContainEqual(expect.objectContaining({ id: 'src/tools/shell.ts#capture', file: 'src/tools/shell.ts', symbol: 'capture', line: 43, endLine: 57, at: [34], status: 'fresh' }));
    expect(callees).toContainEqual(expect.objectContaining({ id: `${SECRETS}#maskSecrets`, file: MASK_FILE, symbol: 'maskSecrets', line: 3, endLine: 13, at: [39], status: 'moved' }));
    const gone = callees.find((callee: Structured) => callee.id === 'src/tools/truncate.ts#truncateOutput');
    expect(gone).toMatchObject({ file: 'src/tools/truncate.ts', at: [40], status: 'frozen', reason: 'truncateOutput is no longer in src/tools/truncate.ts' });
    expect(gone).not.toHaveProperty('line');
    expect(gone).not.toHaveProperty('endLine');
  });

  it('places the callers it lists where their code stands now, and their calls only where that code is unchanged', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    editAfterNextSync(() => editNeighbours(repo));
    const { callers, callees } = await call('entry', { unit: 'maskSecrets' });
    expect(callers).toContainEqual(expect.objectContaining({ id: 'src/tools/shell.ts#runShellTool', file: 'src/tools/shell.ts', line: 29, endLine: 41, at: [39], status: 'fresh' }));
    const changed = callers.find((caller: Structured) => caller.id === 'src/observability/logger.ts#Logger.write');
    expect(changed).toMatchObject({ file: 'src/observability/logger.ts', line: 40, endLine: 46, status: 'changed' });
    // The call is somewhere in the changed code still, but no line of the build's says where.
    expect(changed).not.toHaveProperty('at');
    // maskSecrets' own calls moved with it, 24 lines up.
    expect(callees).toEqual([expect.objectContaining({ id: `${SECRETS}#redactValue`, file: SECRETS, line: 21, endLine: 24, at: [6, 11], status: 'fresh' })]);
  });
});

describe('the MCP register tool', () => {
  it('places a slot\'s declaration, writers and readers where their code stands now, when the code changed since the handbook read: shifted lines, a new file, or gone', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    editAfterNextSync(() => editStateAccessors(repo));
    const answer = await call('register', { slot: 'ToolSchema.description' });
    const [slot] = answer.slots;
    // ToolSchema is the build's code, two lines down.
    expect(slot).toMatchObject({ slot: 'src/tools/validate.ts#ToolSchema.description', file: 'src/tools/validate.ts', line: 8, status: 'fresh', writerCount: 6 });
    const writer = (symbol: string): Structured => slot.writers.find((access: Structured) => access.unit.endsWith(`#${symbol}`));
    expect(writer('shellSchema')).toEqual({ unit: 'src/tools/shell.ts#shellSchema', file: 'src/tools/shell.ts', symbol: 'shellSchema', line: 8, endLine: 17, at: [10], status: 'fresh' });
    expect(writer('webFetchSchema')).toMatchObject({ unit: 'src/tools/webFetch.ts#webFetchSchema', file: SCHEMA_FILE, symbol: 'webFetchSchema', line: 3, endLine: 11, at: [5], status: 'moved' });
    expect(writer('EMPTY_SCHEMA')).toMatchObject({ file: 'src/tools/registry.ts', line: 19, at: [19], status: 'fresh' });
    const gone = writer('readFileSchema');
    expect(gone).toMatchObject({ file: 'src/tools/files.ts', symbol: 'readFileSchema', status: 'frozen', reason: 'readFileSchema is no longer in src/tools/files.ts' });
    for (const field of ['line', 'endLine', 'at']) expect(gone).not.toHaveProperty(field);
    // The write is somewhere in the changed code still, but no line of the build's says where.
    const changed = writer('editFileSchema');
    expect(changed).toMatchObject({ file: 'src/tools/files.ts', line: 5, endLine: 14, status: 'changed' });
    expect(changed).not.toHaveProperty('at');
    expect(slot.readers).toContainEqual({ unit: 'src/agent/promptBuilder.ts#buildSystemPrompt', file: 'src/agent/promptBuilder.ts', symbol: 'buildSystemPrompt', line: 16, endLine: 27, at: [17], status: 'fresh' });
    expect(answer.freshness.frozen).toEqual([{ unit: 'src/tools/files.ts#readFileSchema', reason: 'readFileSchema is no longer in src/tools/files.ts' }]);
  });

  it('gives no line for a declaration whose owner changed or is gone since the handbook read, and says why', async () => {
    const repo = await builtCopy();
    const { call, editAfterNextSync } = await toolsOver(repo);
    const validate = path.join(repo, 'src/tools/validate.ts');
    editAfterNextSync(() => writeFileSync(validate, readFileSync(validate, 'utf8').replace("  type: 'object';\n", "  type: 'object';\n  title?: string;\n")));
    // The state shared across stages is placed alike: an edit inside ToolSchema may have moved any of its properties.
    const listed = (await call('register', {})).slots.find((slot: Structured) => slot.slot === 'src/tools/validate.ts#ToolSchema.description');
    expect(listed).toMatchObject({ file: 'src/tools/validate.ts', status: 'changed', reason: 'ToolSchema changed since the build' });
    expect(listed).not.toHaveProperty('line');

    editAfterNextSync(() => rmSync(validate));
    const answer = await call('register', { slot: 'ToolSchema.description' });
    expect(answer.slots[0]).toMatchObject({ file: 'src/tools/validate.ts', status: 'frozen', reason: 'src/tools/validate.ts no longer exists' });
    expect(answer.slots[0]).not.toHaveProperty('line');
    expect(answer.freshness.frozen).toContainEqual({ unit: 'src/tools/validate.ts#ToolSchema', reason: 'src/tools/validate.ts no longer exists' });
  });
});
