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
// one of each deleted, and the overview's entry point edited inside.
describe('register, stage and overview on a handbook behind the code print where each unit stands now', () => {
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
    const members = (await text(['stage', 'security', '--repo', repo])).split('  members: 5\n')[1];
    expect(members).toBe(
      [
        '    src/security/secrets.ts  ASSIGNMENT_PATTERN  (gone)',
        '    src/security/secrets.ts:13  REDACTED',
        '    src/security/secrets.ts:4  SECRET_PATTERNS',
        '    src/security/secrets.ts:16  maskSecrets',
        '    src/security/redact.ts:7  redactValue  (moved from src/security/secrets.ts)',
        '',
      ].join('\n'),
    );

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
});
