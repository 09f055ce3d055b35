import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { handbookStatus } from '../../src/api/handbook-status.js';
import { CLI, copyOfFixture } from '../helpers/paths.js';

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
    expect(cli.stdout).toMatch(/new units {2}brandNewThing \(not in the handbook yet\)/);
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
