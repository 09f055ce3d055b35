import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { handbookStatus, type StatusReport } from '../../src/api/handbook-status.js';
import { liveResolverOf } from '../../src/api/live-resolution.js';
import { openHandbook } from '../../src/api/open-handbook.js';
import { LiveHandbook, syncHandbook } from '../../src/api/live-handbook.js';
import { CLI, copyOfFixture, PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

/** `handbook status` run with every load of a compiler package reported on stderr (test/helpers/compiler-loads.mjs). */
function statusReportingCompilerLoads(repo: string): { status: number | null; stdout: string; compilerLoads: string[] } {
  const hooks = path.join(PROJECT_ROOT, 'test/helpers/compiler-loads.mjs');
  const run = spawnSync(process.execPath, ['--import', hooks, CLI, 'status', '--json', repo], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, compilerLoads: run.stderr.split('\n').filter((line) => line.startsWith('compiler loaded: ')) };
}

/** `text` with its one occurrence of `from` replaced, so an edit cannot miss or hit twice unseen. */
function once(text: string, from: string, to: string): string {
  expect(text.split(from)).toHaveLength(2);
  return text.replace(from, to);
}

describe('handbook status', () => {
  it('reads the live files: fresh after a build, stale with the exact frozen and changed entries after edits', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const clean = await handbookStatus(repo);
    expect(clean).toMatchObject({ fresh: true, counts: { fresh: 165, changed: 0, moved: 0, frozen: 0 }, frozen: [], changed: [], moved: [] });

    const secrets = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(secrets, readFileSync(secrets, 'utf8').replace('export function maskSecrets(', 'export function hideSecrets('));
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    writeFileSync(truncate, `// shifted\n${readFileSync(truncate, 'utf8').replace('export function truncateOutput(', 'export function truncateOutput(/* edited */ ')}`);
    const shell = path.join(repo, 'src/tools/shell.ts');
    writeFileSync(shell, `\n\n\n${readFileSync(shell, 'utf8')}`);
    rmSync(path.join(repo, 'src/hooks.ts'));

    const stale = await handbookStatus(repo);
    expect(stale.fresh).toBe(false);
    expect(stale.frozen).toContainEqual({ unit: 'src/security/secrets.ts#maskSecrets', reason: 'maskSecrets is no longer in src/security/secrets.ts' });
    expect(stale.frozen.filter((entry) => entry.unit.startsWith('src/hooks.ts#'))).toHaveLength(6);
    expect(stale.changed).toEqual(['src/tools/truncate.ts#truncateOutput']);
    expect(stale.counts).toEqual({ fresh: 165 - 7 - 1, changed: 1, moved: 0, frozen: 7 });
    // The renamed function is a unit the handbook does not hold yet.
    expect(stale.newUnits).toEqual(['src/security/secrets.ts#hideSecrets']);
  });

  it('judges a file by its bytes, not its times: the same bytes written again stay fresh, an edit that keeps the length and the times is changed', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    // Written anew, byte for byte: another inode, later times.
    const secrets = path.join(repo, 'src/security/secrets.ts');
    const bytes = readFileSync(secrets);
    rmSync(secrets);
    writeFileSync(secrets, bytes);
    utimesSync(secrets, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    // Edited in place to the same length, its modification time put back.
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    const times = statSync(truncate);
    writeFileSync(truncate, once(readFileSync(truncate, 'utf8'), 'if (text.length <= maxChars)', 'if (text.length >= maxChars)'));
    utimesSync(truncate, times.atime, times.mtime);

    expect(await handbookStatus(repo)).toMatchObject({
      fresh: false,
      counts: { fresh: 164, changed: 1, moved: 0, frozen: 0 },
      changed: ['src/tools/truncate.ts#truncateOutput'],
      editedFiles: ['src/tools/truncate.ts'],
      newUnits: [],
    });
  });

  // Status reads the units of changed files only and counts every entry of the others fresh as stored.
  it('answers as resolving every entry of the whole graph does', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const secrets = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(secrets, once(readFileSync(secrets, 'utf8'), 'export function maskSecrets(', 'export function hideSecrets('));
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    writeFileSync(truncate, once(readFileSync(truncate, 'utf8'), 'if (text.length <= maxChars)', 'if (text.length < maxChars)'));
    renameSync(path.join(repo, 'src/tools/shell.ts'), path.join(repo, 'src/tools/shellTool.ts'));
    rmSync(path.join(repo, 'src/hooks.ts'));
    writeFileSync(path.join(repo, 'src/added.ts'), 'export function added(): number {\n  return 1;\n}\n');
    utimesSync(path.join(repo, 'src/tools/webFetch.ts'), new Date(), new Date());

    const report = await handbookStatus(repo);
    const handbook = openHandbook(repo, { withUnresolved: false });
    const resolver = liveResolverOf(handbook);
    const everyEntry = { counts: { fresh: 0, changed: 0, moved: 0, frozen: 0 }, frozen: [] as StatusReport['frozen'], changed: [] as string[], moved: [] as StatusReport['moved'] };
    for (const unit of handbook.graph.units.filter((candidate) => candidate.kind !== 'file')) {
      const resolved = await resolver.resolve(unit);
      everyEntry.counts[resolved.status] += 1;
      if (resolved.status === 'frozen') everyEntry.frozen.push({ unit: unit.id, reason: resolved.reason ?? 'not found' });
      if (resolved.status === 'changed') everyEntry.changed.push(unit.id);
      if (resolved.movedTo) everyEntry.moved.push({ unit: unit.id, to: `${resolved.movedTo.file}#${resolved.movedTo.symbol}` });
    }
    expect(everyEntry.counts).toMatchObject({ changed: 1, moved: 6 });
    expect(everyEntry.counts.frozen).toBeGreaterThan(1);
    expect({ counts: report.counts, frozen: report.frozen, changed: report.changed, moved: report.moved }).toEqual(everyEntry);
  });

  it('is stale when a known file gains a unit, though every entry still resolves, and says which', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    expect((await handbookStatus(repo)).newUnits).toEqual([]);
    const secrets = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(secrets, `${readFileSync(secrets, 'utf8')}
export function brandNewThing(): number {
  return 1;
}
`);
    const report = await handbookStatus(repo);
    expect(report.counts).toMatchObject({ changed: 0, moved: 0, frozen: 0 });
    expect(report.newUnits).toEqual(['src/security/secrets.ts#brandNewThing']);
    expect(report.fresh).toBe(false);
    const cli = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(cli.status).toBe(5);
    expect(cli.stdout).toMatch(/new units {2}src\/security\/secrets\.ts: brandNewThing \(not in the handbook yet\)$/m);
  });

  // The text said "changed    DEFAULT_MAX_CHARS, DEFAULT_MAX_CHARS": two files declare one, and the line said neither.
  it('names changed units under their file in its text, so two units of one name in two files read apart', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    for (const [file, before, after] of [['src/tools/truncate.ts', '30_000', '31_000'], ['src/tools/webFetch.ts', '15_000', '16_000']] as const) {
      const full = path.join(repo, file);
      writeFileSync(full, readFileSync(full, 'utf8').replace(`DEFAULT_MAX_CHARS = ${before}`, `DEFAULT_MAX_CHARS = ${after}`));
    }
    expect((await handbookStatus(repo)).changed).toEqual(expect.arrayContaining(['src/tools/truncate.ts#DEFAULT_MAX_CHARS', 'src/tools/webFetch.ts#DEFAULT_MAX_CHARS']));
    const cli = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(cli.status).toBe(5);
    expect(cli.stdout).toMatch(/^ {2}changed {4}src\/tools\/truncate\.ts: DEFAULT_MAX_CHARS(, \w+)*$/m);
    expect(cli.stdout).toMatch(/^ {2}changed {4}src\/tools\/webFetch\.ts: DEFAULT_MAX_CHARS(, \w+)*$/m);
  });

  it('is stale when a file it holds is gone though it held no unit but its file unit, and names it, as the sync that removes it does', async () => {
    const repo = copyOfFixture();
    // Side effects only, re-exports only, nothing at all: analysis keeps each as a file with no unit of its own.
    writeFileSync(path.join(repo, 'src/side-effect.ts'), "console.log('loaded');\n");
    writeFileSync(path.join(repo, 'src/reexport.ts'), "export type { ToolResult } from './tools/shell.js';\nexport * from './hooks.js';\n");
    writeFileSync(path.join(repo, 'src/empty.ts'), '');
    await buildHandbook(repo);
    expect(await handbookStatus(repo)).toMatchObject({ fresh: true, goneFiles: [] });
    const gone = ['src/empty.ts', 'src/reexport.ts', 'src/side-effect.ts'];
    for (const file of gone) rmSync(path.join(repo, file));

    const report = await handbookStatus(repo);
    expect(report).toMatchObject({ fresh: false, goneFiles: gone, counts: { changed: 0, moved: 0, frozen: 0 }, newFiles: [], newUnits: [], skipped: [] });
    const text = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(text.status).toBe(5);
    expect(text.stdout).toMatch(/^ {2}gone {7}src\/empty\.ts, src\/reexport\.ts, src\/side-effect\.ts \(no longer in the tree: a sync removes them\)$/m);
    expect((await syncHandbook(repo)).removed).toEqual(gone);
    expect(await handbookStatus(repo)).toMatchObject({ goneFiles: [], fresh: true });
  });

  it('is stale when a file was edited though no entry changed (a comment, an import), names it, and a sync makes it fresh', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    expect(await handbookStatus(repo)).toMatchObject({ fresh: true, editedFiles: [] });
    const shell = path.join(repo, 'src/tools/shell.ts');
    writeFileSync(shell, `// a note\n${readFileSync(shell, 'utf8')}`);

    const report = await handbookStatus(repo);
    expect(report).toMatchObject({ fresh: false, editedFiles: ['src/tools/shell.ts'], counts: { changed: 0, moved: 0, frozen: 0 }, newFiles: [], newUnits: [], goneFiles: [], skipped: [] });
    const text = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(text.status).toBe(5);
    expect(text.stdout).toMatch(/^ {2}edited {5}src\/tools\/shell\.ts \(changed since the build: a sync re-reads them\)$/m);
    await syncHandbook(repo);
    expect(await handbookStatus(repo)).toMatchObject({ fresh: true, editedFiles: [] });
  });

  it('is stale when a tsconfig changed though no source file did, says so, and a sync makes it fresh', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    // logger.ts imports through the alias: the tsconfig alone decides where that import leads.
    const tsconfig = path.join(repo, 'tsconfig.json');
    writeFileSync(tsconfig, readFileSync(tsconfig, 'utf8').replace('"@harness/*": ["src/*"]', '"@harness/*": ["lib/*"]'));
    const report = await handbookStatus(repo);
    expect(report).toMatchObject({ fresh: false, compilerSettings: 'compiler settings changed', editedFiles: [], newFiles: [], goneFiles: [] });
    const text = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(text.status).toBe(5);
    expect(text.stdout).toMatch(/^ {2}settings {3}compiler settings changed \(a sync analyzes everything again\)$/m);
    expect((await syncHandbook(repo)).upToDate).toBe(false);
    expect(await handbookStatus(repo)).toMatchObject({ fresh: true });
  });

  // Loading the compiler is most of a status; it was loaded once to read the tsconfigs again though none had changed.
  it('leaves the compiler unloaded while nothing changed, and reads the settings with it once a tsconfig or what it extends changes', async () => {
    const repo = copyOfFixture();
    writeFileSync(path.join(repo, 'tsconfig.base.json'), '{ "compilerOptions": { "strict": true } }\n');
    const tsconfig = path.join(repo, 'tsconfig.json');
    writeFileSync(tsconfig, readFileSync(tsconfig, 'utf8').replace('{', '{ "extends": "./tsconfig.base.json",'));
    await buildHandbook(repo);
    const fresh = statusReportingCompilerLoads(repo);
    expect(fresh.status).toBe(0);
    expect(fresh.compilerLoads).toEqual([]);

    // Read again with the compiler: the same settings, so still fresh.
    writeFileSync(tsconfig, `${readFileSync(tsconfig, 'utf8')}\n`);
    const reformatted = statusReportingCompilerLoads(repo);
    expect(JSON.parse(reformatted.stdout)).toMatchObject({ fresh: true, compilerSettings: null });
    expect(reformatted.compilerLoads).not.toEqual([]);

    writeFileSync(path.join(repo, 'tsconfig.base.json'), '{ "compilerOptions": { "strict": true, "jsx": "react-jsx" } }\n');
    const extended = statusReportingCompilerLoads(repo);
    expect(extended.status).toBe(5);
    expect(JSON.parse(extended.stdout)).toMatchObject({ fresh: false, compilerSettings: 'compiler settings changed' });
    expect(extended.compilerLoads).not.toEqual([]);

    // The sync stores what it read the new settings from: fresh again, without the compiler.
    expect((await syncHandbook(repo)).fullRebuild).toBe('compiler settings changed');
    const synced = statusReportingCompilerLoads(repo);
    expect(synced.status).toBe(0);
    expect(synced.compilerLoads).toEqual([]);
  });

  it('leaves the compiler unloaded after a warm sync that read a reformatted tsconfig to the same settings', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const live = await LiveHandbook.open(repo);
    try {
      expect((await live.sync()).upToDate).toBe(true);
      const tsconfig = path.join(repo, 'tsconfig.json');
      writeFileSync(tsconfig, `${readFileSync(tsconfig, 'utf8')}\n`);
      const truncate = path.join(repo, 'src/tools/truncate.ts');
      writeFileSync(truncate, readFileSync(truncate, 'utf8').replace('export function truncateOutput(', 'export function truncateOutput(/* edited */ '));
      expect(await live.sync()).toMatchObject({ upToDate: false, modified: ['src/tools/truncate.ts'] });
    } finally {
      live.close();
    }
    const status = statusReportingCompilerLoads(repo);
    expect(status.status).toBe(0);
    expect(status.compilerLoads).toEqual([]);
  });

  it('leaves the compiler unloaded after an up-to-date sync that read a changed tsconfig to the same settings', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    // No option the analysis reads: the settings stay the same, what they were read from does not.
    const tsconfig = path.join(repo, 'tsconfig.json');
    writeFileSync(tsconfig, once(readFileSync(tsconfig, 'utf8'), '"strict": true', '"strict": false'));
    const before = statusReportingCompilerLoads(repo);
    expect(JSON.parse(before.stdout)).toMatchObject({ fresh: true, compilerSettings: null });
    expect(before.compilerLoads).not.toEqual([]);
    expect((await syncHandbook(repo)).upToDate).toBe(true);
    const after = statusReportingCompilerLoads(repo);
    expect(after.status).toBe(0);
    expect(after.compilerLoads).toEqual([]);
  });

  it('is stale when package.json describes the project otherwise, as the overview a sync writes again', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const manifest = path.join(repo, 'package.json');
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), description: 'A harness told otherwise.' }));
    const report = await handbookStatus(repo);
    expect(report).toMatchObject({ fresh: false, projectChanged: true, editedFiles: [] });
    expect((await syncHandbook(repo)).upToDate).toBe(false);
    expect(await handbookStatus(repo)).toMatchObject({ fresh: true, projectChanged: false });
  });

  it('follows a unit moved to another file by its hash, and keeps an ambiguous one frozen', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    const text = readFileSync(truncate, 'utf8');
    const start = text.indexOf('export function truncateOutput(');
    writeFileSync(truncate, text.slice(0, start));
    writeFileSync(path.join(repo, 'src/tools/clip.ts'), `${text.slice(start)}\n`);
    const report = await handbookStatus(repo);
    expect(report.moved).toEqual([{ unit: 'src/tools/truncate.ts#truncateOutput', to: 'src/tools/clip.ts#truncateOutput' }]);
    expect(report.counts.moved).toBe(1);
    expect(report.frozen.map((entry) => entry.unit)).not.toContain('src/tools/truncate.ts#truncateOutput');
    writeFileSync(path.join(repo, 'src/tools/clip2.ts'), `${text.slice(start)}\n`);
    const ambiguous = await handbookStatus(repo);
    expect(ambiguous.moved).toEqual([]);
    expect(ambiguous.frozen.map((entry) => entry.unit)).toContain('src/tools/truncate.ts#truncateOutput');
  });

  it('freezes the units of a file analysis now skips with the reason, not as gone from a file still there', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo, { maxFileBytes: 10_000 });
    const secrets = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(secrets, Buffer.concat([Buffer.from([0x00, 0x01]), readFileSync(secrets)]));
    // Grown past the cap, with a new function a sync would not take in either.
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    writeFileSync(truncate, `${readFileSync(truncate, 'utf8')}export function brandNewThing(): number {\n  return 1;\n}\n${'// padding\n'.repeat(1_000)}`);
    const generated = path.join(repo, 'src/tools/shell.ts');
    writeFileSync(generated, `// @generated by a tool\n${readFileSync(generated, 'utf8')}`);

    const report = await handbookStatus(repo);
    const reasons = new Map(report.frozen.map((entry) => [entry.unit, entry.reason]));
    expect(reasons.get('src/security/secrets.ts#maskSecrets')).toBe('src/security/secrets.ts is now skipped as binary');
    expect(reasons.get('src/tools/truncate.ts#truncateOutput')).toBe('src/tools/truncate.ts is now skipped as too-large');
    expect(reasons.get('src/tools/shell.ts#runShellTool')).toBe('src/tools/shell.ts is now skipped as generated');
    expect(report.newUnits).toEqual([]);
    expect(report.fresh).toBe(false);
  });

  it('is fresh right after a build that analyzed a file through a symlink inside the repository', async () => {
    const repo = copyOfFixture();
    const shell = path.join(repo, 'src/tools/shell.ts');
    renameSync(shell, path.join(repo, 'src/tools/shellImpl.ts'));
    symlinkSync('shellImpl.ts', shell);
    await buildHandbook(repo);
    const report = await handbookStatus(repo);
    expect(report.frozen).toEqual([]);
    expect(report.fresh).toBe(true);
  });

  it('names the files of the handbook analysis now leaves out, with why, as the sync that drops them does', async () => {
    const repo = copyOfFixture();
    mkdirSync(path.join(repo, 'packages/lib'), { recursive: true });
    writeFileSync(path.join(repo, 'packages/lib/helper.ts'), 'export function help(): number {\n  return 3;\n}\n');
    await buildHandbook(repo, { maxFileBytes: 10_000 });
    const secrets = path.join(repo, 'src/security/secrets.ts');
    writeFileSync(secrets, Buffer.concat([readFileSync(secrets), Buffer.from([0x00])]));
    const truncate = path.join(repo, 'src/tools/truncate.ts');
    writeFileSync(truncate, `${readFileSync(truncate, 'utf8')}${'// padding\n'.repeat(1_000)}`);
    const shell = path.join(repo, 'src/tools/shell.ts');
    const outside = path.join(scratchDirectory(), 'shell.ts');
    writeFileSync(outside, readFileSync(shell));
    rmSync(shell);
    symlinkSync(outside, shell);
    // A `lib` beside a `src` is build output: the file is left out with its folder, its bytes unchanged.
    mkdirSync(path.join(repo, 'packages/src'));

    const expected = [
      { file: 'packages/lib/helper.ts', reason: 'build-output' },
      { file: 'src/security/secrets.ts', reason: 'binary' },
      { file: 'src/tools/shell.ts', reason: 'symlink-outside' },
      { file: 'src/tools/truncate.ts', reason: 'too-large' },
    ];
    const report = await handbookStatus(repo);
    expect(report.skipped).toEqual(expected);
    expect(report.frozen).toContainEqual({ unit: 'packages/lib/helper.ts#help', reason: 'packages/lib/helper.ts is now skipped as build-output' });
    expect(report.fresh).toBe(false);
    const text = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(text.stdout).toMatch(/^ {2}skipped {4}4 files \(1 build-output, 1 binary, 1 symlink-outside, 1 too-large\) still there, now left out by analysis: packages\/lib\/helper\.ts \(build-output\), src\/security\/secrets\.ts \(binary\), /m);
    const json = spawnSync(process.execPath, [CLI, 'status', repo, '--json'], { encoding: 'utf8' });
    expect(JSON.parse(json.stdout).skipped).toEqual(expected);

    expect((await syncHandbook(repo)).skipped).toEqual(expected);
    expect(await handbookStatus(repo)).toMatchObject({ skipped: [], fresh: true });
  });

  it('exits 0 when fresh and 5 when stale, with the frozen list in JSON', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo);
    const fresh = spawnSync(process.execPath, [CLI, 'status', repo], { encoding: 'utf8' });
    expect(fresh.status).toBe(0);
    expect(fresh.stdout).toMatch(/^fresh: /);
    rmSync(path.join(repo, 'src/tools/webFetch.ts'));
    const stale = spawnSync(process.execPath, [CLI, 'status', repo, '--json'], { encoding: 'utf8' });
    expect(stale.status).toBe(5);
    const report = JSON.parse(stale.stdout);
    expect(report.fresh).toBe(false);
    expect(report.frozen.map((entry: { unit: string }) => entry.unit)).toContain('src/tools/webFetch.ts#webFetchTool');
    const missing = spawnSync(process.execPath, [CLI, 'status', copyOfFixture()], { encoding: 'utf8' });
    expect(missing.status).toBe(3);
  });
});
