import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyOfFixture } from '../helpers/paths.js';
import { runCli, runCliAsync } from '../helpers/cli-run.js';

/** Replaces one exact piece of a fixture file, failing loudly when the fixture no longer has it. */
function edit(repo: string, file: string, change: (text: string) => string): void {
  const full = path.join(repo, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(full, after);
}

/** Cuts `from` up to (not including) `to` out of a file, and returns the code cut. */
function cut(repo: string, file: string, from: string, to: string): string {
  let taken = '';
  edit(repo, file, (text) => {
    const start = text.indexOf(from);
    const end = text.indexOf(to, start);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    taken = text.slice(start, end);
    return text.slice(0, start) + text.slice(end);
  });
  return taken;
}

const json = async (args: string[]) => {
  const result = await runCliAsync([...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

const text = async (args: string[]) => {
  const result = await runCliAsync(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

// A handbook built, then code edited without a sync: two lines above ToolSchema and above the
// security stage, a writer of ToolSchema.description and a security member moved to new files,
// one of each deleted, the overview's entry point edited inside, and truncateOutput (called by
// runShellTool) deleted.
describe('register, stage, overview and the graph commands on a handbook behind the code print where each unit stands now', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(runCli(['build', repo, '--no-progress']).code).toBe(0);
    edit(repo, 'src/tools/validate.ts', (source) => `// one\n// two\n${source}`);
    const writeSchema = cut(repo, 'src/tools/files.ts', 'export const writeFileSchema', '/** Resolves `path`');
    writeFileSync(path.join(repo, 'src/tools/write-schema.ts'), `import type { ToolSchema } from './validate.js';\n\n${writeSchema}`);
    cut(repo, 'src/tools/files.ts', 'export const editFileSchema', '/** Resolves `path`');
    edit(repo, 'src/security/secrets.ts', (source) => `// one\n// two\n${source}`);
    const redact = cut(repo, 'src/security/secrets.ts', '/**\n * Replaces a secret', '/** Masks every');
    writeFileSync(path.join(repo, 'src/security/redact.ts'), `const REDACTED = '[REDACTED]';\n\n${redact}`);
    cut(repo, 'src/security/secrets.ts', '/** `key=value`', 'const REDACTED');
    edit(repo, 'src/index.ts', (source) => source.replace('  const { task, configPath, resumeId } = parseArgs(argv);\n', '  const { task, configPath, resumeId } = parseArgs(argv);\n  void 0;\n'));
    edit(repo, 'src/tools/truncate.ts', (source) => source.slice(0, source.indexOf('/**\n * Shortens')));
  });

  it('register SLOT: the declaration at its shifted line, a moved writer at its new file, a deleted one gone', async () => {
    const lines = (await text(['register', 'ToolSchema.description', '--repo', repo])).split('\n');
    expect(lines[0]).toMatch(/^ToolSchema\.description {2}src\/tools\/validate\.ts:8 {2}stages: /);
    expect(lines[1]).toContain('editFileSchema (gone), readFileSchema, writeFileSchema (moved to src/tools/write-schema.ts)');

    const [slot] = (await json(['register', 'ToolSchema.description', '--repo', repo])).slots;
    // The build's fields stay, for scripts; the live ones come beside them.
    expect(slot).toMatchObject({ file: 'src/tools/validate.ts', line: 6, declared: { file: 'src/tools/validate.ts', line: 8, status: 'fresh' } });
    const writer = (id: string) => slot.writers.find((access: { unit: string }) => access.unit === id);
    expect(writer('src/tools/files.ts#writeFileSchema')).toMatchObject({ lines: [29], file: 'src/tools/write-schema.ts', symbol: 'writeFileSchema', line: 3, endLine: 11, at: [5], status: 'moved' });
    expect(writer('src/tools/files.ts#editFileSchema')).toMatchObject({ file: 'src/tools/files.ts', status: 'frozen' });
    expect(writer('src/tools/files.ts#editFileSchema')).not.toHaveProperty('line');
    // Still where the build put it: nothing added.
    expect(writer('src/tools/files.ts#readFileSchema')).toEqual({ unit: 'src/tools/files.ts#readFileSchema', lines: [7] });
  });

  it('register: the whole list shows the same live declaration and markers', async () => {
    const listing = await text(['register', '--repo', repo]);
    expect(listing).toMatch(/^ToolSchema\.description {2}src\/tools\/validate\.ts:8 {2}stages: /m);
    expect(listing).toMatch(/^ {2}writers: editFileSchema \(gone\), readFileSchema, writeFileSchema \(moved to src\/tools\/write-schema\.ts\)/m);
    const slots = (await json(['register', '--repo', repo])).slots;
    expect(slots.find((entry: { slot: string }) => entry.slot === 'src/tools/validate.ts#ToolSchema.description').declared).toEqual({ file: 'src/tools/validate.ts', line: 8, status: 'fresh' });
  });

  it('stage: members at their shifted lines, a moved one at its new file, a deleted one gone without a line', async () => {
    // The stage's one behaviour lists the members, each where its code stands now.
    const members = (await text(['stage', 'security', '--repo', repo])).split('\n').filter((line) => line.startsWith('      '));
    expect(members).toEqual([
      '      src/security/secrets.ts  ASSIGNMENT_PATTERN  (gone)',
      '      src/security/secrets.ts:13  REDACTED',
      '      src/security/secrets.ts:4  SECRET_PATTERNS',
      '      src/security/secrets.ts:16  maskSecrets',
      '      src/security/redact.ts:7  redactValue  (moved from src/security/secrets.ts)',
    ]);

    const stage = await json(['stage', 'security', '--repo', repo]);
    const member = (symbol: string) => stage.members.find((entry: { unit: string }) => entry.unit === `src/security/secrets.ts#${symbol}`);
    expect(member('maskSecrets')).toMatchObject({ primary: true, status: 'fresh', liveFile: 'src/security/secrets.ts', liveLine: 16, liveEndLine: 26 });
    expect(member('redactValue')).toMatchObject({ status: 'moved', liveFile: 'src/security/redact.ts', liveSymbol: 'redactValue', liveLine: 7 });
    expect(member('ASSIGNMENT_PATTERN')).toMatchObject({ status: 'frozen' });
    expect(member('ASSIGNMENT_PATTERN')).not.toHaveProperty('liveLine');
    expect(stage.entryPoints).toEqual(['src/security/secrets.ts#maskSecrets']);
  });

  it('overview: an entry point edited since the build is marked changed, and its JSON says where it stands', async () => {
    expect(await text(['overview', '--repo', repo])).toMatch(/^ {2}entry points: main \(changed\)$/m);
    const overview = await json(['overview', '--repo', repo]);
    expect(overview.entryPoints).toEqual(['src/index.ts#main']);
    expect(overview.displacedEntryPoints).toEqual([
      expect.objectContaining({ unit: 'src/index.ts#main', file: 'src/index.ts', line: 36, status: 'changed', liveFile: 'src/index.ts', liveLine: 36 }),
    ]);
  });

  it('graph show: the unit at its lines now, shifted, moved, changed or gone, and its callers and callees noted', async () => {
    const at = async (unit: string) => (await text(['graph', 'show', unit, '--repo', repo])).split('\n')[1];
    expect(await at('maskSecrets')).toBe('  at         src/security/secrets.ts:16-26');
    expect(await at('redactValue')).toBe('  at         src/security/redact.ts:7-10  (moved from src/security/secrets.ts)');
    expect(await at('src/index.ts#main')).toBe('  at         src/index.ts:36-64  (changed)');
    expect(await at('ASSIGNMENT_PATTERN')).toBe('  at         src/security/secrets.ts  (gone)');
    const shell = await text(['graph', 'show', 'runShellTool', '--repo', repo]);
    expect(shell).toMatch(/^ {2}callees {4}3: src\/security\/secrets\.ts#maskSecrets, src\/tools\/shell\.ts#capture, src\/tools\/truncate\.ts#truncateOutput \(gone\)$/m);
    // The file's own unit calls main: its file was edited, not deleted.
    expect(await text(['graph', 'show', 'src/index.ts#main', '--repo', repo])).toMatch(/^ {2}callers {4}1: src\/index\.ts \(changed\)$/m);
  });

  it('graph show --json: the build\'s unit with its live fields beside, and callers and callees with theirs where they moved on', async () => {
    const shown = await json(['graph', 'show', 'maskSecrets', '--repo', repo]);
    // The build's fields stay, for scripts; the live ones come beside them.
    expect(shown.unit).toMatchObject({ startLine: 27, endLine: 37, status: 'fresh', liveFile: 'src/security/secrets.ts', liveLine: 16, liveEndLine: 26 });
    expect(shown.callees).toEqual([
      expect.objectContaining({ id: 'src/security/secrets.ts#redactValue', line: 21, at: [30, 35], status: 'moved', liveFile: 'src/security/redact.ts', liveLine: 7, liveAt: [19, 24] }),
    ]);
    // Callers whose code stands where the build put it: nothing added.
    expect(shown.callers[0]).toEqual({ id: 'src/observability/logger.ts#Logger.write', file: 'src/observability/logger.ts', line: 40, at: [43], via: 'direct' });
    const gone = (await json(['graph', 'show', 'ASSIGNMENT_PATTERN', '--repo', repo])).unit;
    expect(gone).toMatchObject({ startLine: 12, status: 'frozen' });
    expect(gone).not.toHaveProperty('liveLine');
    expect((await json(['graph', 'show', 'src/index.ts#main', '--repo', repo])).unit).toMatchObject({ startLine: 36, endLine: 63, status: 'changed', liveLine: 36, liveEndLine: 64 });
  });

  it('graph callers: each call site where it stands now, none for code that changed, and the unit asked about noted', async () => {
    expect(await text(['graph', 'callers', 'redactValue', '--repo', repo])).toBe(
      ['callers of src/security/secrets.ts#redactValue (moved to src/security/redact.ts): 1', '  src/security/secrets.ts#maskSecrets  src/security/secrets.ts:19,24', ''].join('\n'),
    );
    expect(await text(['graph', 'callers', 'AgentLoop.run', '--repo', repo])).toBe(['callers of src/agent/agentLoop.ts#AgentLoop.run: 1', '  src/index.ts#main  src/index.ts  (changed)', ''].join('\n'));
    expect(await text(['graph', 'callers', 'truncateOutput', '--repo', repo])).toMatch(/^callers of src\/tools\/truncate\.ts#truncateOutput \(gone\): 2\n {2}src\/tools\/shell\.ts#runShellTool {2}src\/tools\/shell\.ts:38\n/);
  });

  it('graph callers --json: live fields and the call lines now (liveAt) beside the build\'s, and the unit asked about when it moved on', async () => {
    const moved = await json(['graph', 'callers', 'redactValue', '--repo', repo]);
    expect(moved.callers).toEqual([expect.objectContaining({ id: 'src/security/secrets.ts#maskSecrets', line: 27, at: [30, 35], status: 'fresh', liveLine: 16, liveAt: [19, 24] })]);
    expect(moved.displacedUnit).toMatchObject({ unit: 'src/security/secrets.ts#redactValue', file: 'src/security/secrets.ts', line: 21, status: 'moved', liveFile: 'src/security/redact.ts', liveLine: 7 });
    const [changed] = (await json(['graph', 'callers', 'AgentLoop.run', '--repo', repo])).callers;
    expect(changed).toMatchObject({ id: 'src/index.ts#main', at: [54], status: 'changed', liveLine: 36 });
    expect(changed).not.toHaveProperty('liveAt');
    expect((await json(['graph', 'callers', 'truncateOutput', '--repo', repo])).displacedUnit).toMatchObject({ status: 'frozen', line: 11 });
  });

  it("graph callees: each callee where it stands now, and the lines of the calls only while the code they lie in is the build's", async () => {
    expect(await text(['graph', 'callees', 'runShellTool', '--repo', repo])).toBe(
      [
        'callees of src/tools/shell.ts#runShellTool: 3',
        '  src/security/secrets.ts#maskSecrets  src/security/secrets.ts:16  (called at line 37)',
        '  src/tools/shell.ts#capture  src/tools/shell.ts:41  (called at line 32)',
        '  src/tools/truncate.ts#truncateOutput  src/tools/truncate.ts  (gone)  (called at line 38)',
        '',
      ].join('\n'),
    );
    expect(await text(['graph', 'callees', 'maskSecrets', '--repo', repo])).toMatch(/^ {2}src\/security\/secrets\.ts#redactValue {2}src\/security\/redact\.ts:7 {2}\(moved from src\/security\/secrets\.ts\) {2}\(called at lines 19, 24\)$/m);
    // main changed: no line of the build's says where its calls are now.
    const ofMain = await text(['graph', 'callees', 'src/index.ts#main', '--repo', repo]);
    expect(ofMain).toMatch(/^callees of src\/index\.ts#main \(changed\): 12\n {2}src\/agent\/agentLoop\.ts#AgentLoop\.run {2}src\/agent\/agentLoop\.ts:58\n/);
    expect(ofMain).not.toContain('called at');
  });

  it('graph callees --json: live fields beside the build\'s, and liveAt only where the unit asked about kept its code', async () => {
    const shell = await json(['graph', 'callees', 'runShellTool', '--repo', repo]);
    expect(shell.callees).toEqual([
      expect.objectContaining({ id: 'src/security/secrets.ts#maskSecrets', line: 27, at: [37], status: 'fresh', liveLine: 16 }),
      { id: 'src/tools/shell.ts#capture', file: 'src/tools/shell.ts', line: 41, at: [32], via: 'direct' },
      expect.objectContaining({ id: 'src/tools/truncate.ts#truncateOutput', line: 11, at: [38], status: 'frozen' }),
    ]);
    expect(shell.callees[2]).not.toHaveProperty('liveLine');
    expect(shell).not.toHaveProperty('displacedUnit');
    // The calls lie in maskSecrets, which shifted: their lines shift with it.
    const masked = await json(['graph', 'callees', 'maskSecrets', '--repo', repo]);
    expect(masked.callees[0]).toMatchObject({ at: [30, 35], liveAt: [19, 24], status: 'moved' });
    expect(masked.displacedUnit).toMatchObject({ status: 'fresh', line: 27, liveLine: 16 });
    const ofMainJson = await json(['graph', 'callees', 'src/index.ts#main', '--repo', repo]);
    expect(ofMainJson.displacedUnit).toMatchObject({ unit: 'src/index.ts#main', status: 'changed' });
    expect(ofMainJson.callees.some((callee: object) => 'liveAt' in callee)).toBe(false);
  });

  it('graph state: the declaration at its line now, and writers and readers at the lines of their accesses now', async () => {
    const description = await text(['graph', 'state', 'ToolSchema.description', '--repo', repo]);
    expect(description).toMatch(/^ {2}declared {3}src\/tools\/validate\.ts:8$/m);
    expect(description).toContain(
      [
        '    src/tools/files.ts#editFileSchema  src/tools/files.ts  (gone)',
        '    src/tools/files.ts#readFileSchema  src/tools/files.ts:7',
        '    src/tools/files.ts#writeFileSchema  src/tools/write-schema.ts:5  (moved from src/tools/files.ts)',
      ].join('\n'),
    );
    expect(await text(['graph', 'state', 'HarnessConfig.logLevel', '--repo', repo])).toMatch(/^ {4}src\/index\.ts#main {2}src\/index\.ts {2}\(changed\)$/m);
  });

  it('graph state --json: the slot with where it is declared now, writers and readers with their live fields and access lines', async () => {
    const state = await json(['graph', 'state', 'ToolSchema.description', '--repo', repo]);
    expect(state.slot).toMatchObject({ file: 'src/tools/validate.ts', line: 6, declared: { file: 'src/tools/validate.ts', line: 8, status: 'fresh' } });
    const writer = (id: string) => state.writers.find((access: { id: string }) => access.id === id);
    expect(writer('src/tools/files.ts#writeFileSchema')).toMatchObject({ file: 'src/tools/files.ts', line: 27, at: [29], status: 'moved', liveFile: 'src/tools/write-schema.ts', liveLine: 3, liveAt: [5] });
    expect(writer('src/tools/files.ts#editFileSchema')).toMatchObject({ at: [18], status: 'frozen' });
    expect(writer('src/tools/files.ts#editFileSchema')).not.toHaveProperty('liveAt');
    expect(writer('src/tools/files.ts#readFileSchema')).toEqual({ id: 'src/tools/files.ts#readFileSchema', file: 'src/tools/files.ts', line: 5, at: [7] });
    const reader = (await json(['graph', 'state', 'HarnessConfig.logLevel', '--repo', repo])).readers.find((access: { id: string }) => access.id === 'src/index.ts#main');
    expect(reader).toMatchObject({ at: [44], status: 'changed' });
    expect(reader).not.toHaveProperty('liveAt');
  });
});

// Scripts read the graph commands' JSON: on a handbook in step with the code it is what the build
// recorded, with no live field, as before those commands printed live places.
describe('the graph commands on a handbook in step with the code', () => {
  let repo: string;
  let exported: { units: Array<{ id: string }>; slots: Array<{ id: string }> };
  beforeAll(() => {
    repo = copyOfFixture();
    expect(runCli(['build', repo, '--no-progress']).code).toBe(0);
    exported = JSON.parse(runCli(['graph', 'export', '--repo', repo]).stdout);
  });

  const BUILT_FIELDS = ['id', 'file', 'line', 'at', 'via'];
  const onlyBuilt = (neighbours: object[]) => {
    expect(neighbours.length).toBeGreaterThan(0);
    for (const neighbour of neighbours) expect(BUILT_FIELDS).toEqual(expect.arrayContaining(Object.keys(neighbour)));
  };

  it("graph show prints the unit as the graph holds it, and its callers and callees with the build's fields only", async () => {
    for (const id of ['src/agent/agentLoop.ts#AgentLoop.run', 'src/security/secrets.ts#maskSecrets', 'src/index.ts#main']) {
      const shown = await json(['graph', 'show', id, '--repo', repo]);
      expect(Object.keys(shown)).toEqual(['unit', 'callers', 'callees']);
      expect(shown.unit).toEqual(exported.units.find((unit) => unit.id === id));
      onlyBuilt([...shown.callers, ...shown.callees]);
      expect(await text(['graph', 'show', id, '--repo', repo])).not.toMatch(/\((changed|gone|moved)/);
    }
  });

  it.for(['callers', 'callees'])("graph %s prints the id and the list, with the build's fields only", async (direction) => {
    const found = await json(['graph', direction, 'src/security/secrets.ts#maskSecrets', '--repo', repo]);
    expect(Object.keys(found)).toEqual(['unit', direction]);
    onlyBuilt(found[direction]);
  });

  it("graph state prints the slot as the graph holds it, and its writers and readers with the build's fields only", async () => {
    const state = await json(['graph', 'state', 'SessionStore.history', '--repo', repo]);
    expect(Object.keys(state)).toEqual(['slot', 'writers', 'readers']);
    expect(state.slot).toEqual(exported.slots.find((slot) => slot.id === 'src/session/sessionStore.ts#SessionStore.history'));
    onlyBuilt([...state.writers, ...state.readers]);
  });
});
