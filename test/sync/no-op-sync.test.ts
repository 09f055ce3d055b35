import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSync } from '../../src/cli/format.js';
import { buildHandbook, LiveHandbook, syncHandbook, type SyncSummary } from '../../src/index.js';
import { CLI, copyOfFixture, PROJECT_ROOT } from '../helpers/paths.js';

const LONG = 120_000;

/** `handbook sync` run with every load of a compiler package reported on stderr (test/helpers/compiler-loads.mjs). */
function syncReportingCompilerLoads(repo: string, ...flags: string[]): { status: number | null; stdout: string; compilerLoads: string[] } {
  const hooks = path.join(PROJECT_ROOT, 'test/helpers/compiler-loads.mjs');
  const run = spawnSync(process.execPath, ['--import', hooks, CLI, 'sync', '--no-progress', ...flags, repo], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, compilerLoads: run.stderr.split('\n').filter((line) => line.startsWith('compiler loaded: ')) };
}

/** A sync's text with its duration left out: the only part two syncs of the same tree may print differently. */
function withoutDuration(text: string): string {
  return text.replace(/nothing changed, \d+ ms\)/, 'nothing changed, … ms)');
}

/** What the full sync answers, the analysis opened (as watch's first sync): what a sync that skips it must say too. */
async function fullSync(repo: string): Promise<SyncSummary> {
  const live = await LiveHandbook.open(repo);
  try {
    return await live.sync();
  } finally {
    live.close();
  }
}

function edit(repo: string, file: string, change: (text: string) => string): void {
  const absolute = path.join(repo, file);
  writeFileSync(absolute, change(readFileSync(absolute, 'utf8')));
}

describe('handbook sync with nothing to do', () => {
  it('answers up to date without loading the compiler, in the words of the full sync, syntax errors named', async () => {
    const repo = copyOfFixture();
    // A file the analysis reads only in part: the up-to-date line names it, from what the store holds.
    writeFileSync(path.join(repo, 'src/broken.ts'), 'export function broken( { return 1;\n');
    await buildHandbook(repo);
    const full = await fullSync(repo);
    expect(full.upToDate).toBe(true);
    expect(full.build.parseWarnings.map((warning) => warning.file)).toEqual(['src/broken.ts']);

    const text = syncReportingCompilerLoads(repo);
    expect(text.status).toBe(0);
    expect(text.compilerLoads).toEqual([]);
    expect(withoutDuration(text.stdout)).toBe(`${withoutDuration(formatSync(full))}\n`);

    const json = syncReportingCompilerLoads(repo, '--json');
    expect(json.status).toBe(0);
    expect(json.compilerLoads).toEqual([]);
    expect(JSON.parse(json.stdout)).toEqual({ ...full, durationMs: expect.any(Number) });
  }, LONG);

  // Each change a sync must not take for nothing: the cheap check lets it through to the analysis.
  const changes: Array<{ name: string; before?: (repo: string) => void; change: (repo: string) => void; expected: Partial<SyncSummary> }> = [
    {
      name: 'an edited file',
      change: (repo) => edit(repo, 'src/tools/truncate.ts', (text) => text.replace('export function truncateOutput(', 'export function truncateOutput(/* edited */ ')),
      expected: { modified: ['src/tools/truncate.ts'], added: [], removed: [] },
    },
    {
      name: 'a new file',
      change: (repo) => writeFileSync(path.join(repo, 'src/tools/clip.ts'), 'export function clip(text: string): string {\n  return text.slice(0, 10);\n}\n'),
      expected: { added: ['src/tools/clip.ts'], modified: [], removed: [] },
    },
    {
      name: 'a deleted file',
      change: (repo) => rmSync(path.join(repo, 'src/hooks.ts')),
      expected: { removed: ['src/hooks.ts'] },
    },
    {
      name: 'a file now left out',
      change: (repo) => writeFileSync(path.join(repo, 'src/hooks.ts'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02])),
      expected: { removed: ['src/hooks.ts'], skipped: [{ file: 'src/hooks.ts', reason: 'binary' }] },
    },
    {
      name: 'a tsconfig that changes the compiler settings',
      change: (repo) => edit(repo, 'tsconfig.json', (text) => text.replace('"@harness/*": ["src/*"]', '"@harness/*": ["src/*"],\n      "@tools/*": ["src/tools/*"]')),
      expected: { fullRebuild: 'compiler settings changed' },
    },
    {
      name: 'a package.json that describes the project otherwise',
      change: (repo) => edit(repo, 'package.json', (text) => text.replace('"description": "A small', '"description": "A tiny')),
      expected: { projectChanged: true, added: [], modified: [], removed: [] },
    },
    {
      // A package.json that says nothing of the project leaves its description to the README.
      name: 'a README that describes the project otherwise',
      before: (repo) => edit(repo, 'package.json', (text) => text.replace(/\n {2}"description": [^\n]*/, '')),
      change: (repo) => edit(repo, 'README.md', (text) => text.replace('mini-harness is a small', 'mini-harness is a tiny')),
      expected: { projectChanged: true, added: [], modified: [], removed: [] },
    },
  ];

  it.each(changes)('still syncs after $name', async ({ before, change, expected }) => {
    const repo = copyOfFixture();
    before?.(repo);
    await buildHandbook(repo);
    change(repo);
    expect(await syncHandbook(repo)).toMatchObject({ upToDate: false, ...expected });
    // Once synced, the next sync finds nothing to do again, without the compiler.
    const again = syncReportingCompilerLoads(repo);
    expect(again.stdout).toMatch(/^up to date: /);
    expect(again.compilerLoads).toEqual([]);
  }, LONG);
});
