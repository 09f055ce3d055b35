import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook, syncHandbook } from '../../src/index.js';
import { expectSameAsColdBuild, handbookContent } from '../helpers/handbook-snapshot.js';
import { copyOfFixture } from '../helpers/paths.js';

const LONG = 120_000;

/**
 * The handbook in <repo>/.handbook moves with its repository. The compiler settings point into the
 * tree (the fixture's `@harness/*` alias, a workspace package), so these check that a sync at the
 * new place keeps the stored analysis, and that the settings it goes on with point where the tree is now.
 */
function fixtureWithWorkspacePackage(): string {
  const repo = copyOfFixture();
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  };
  write('packages/redact/package.json', JSON.stringify({ name: '@mini/redact', main: 'dist/index.js' }));
  write('packages/redact/src/index.ts', "export function redact(text: string): string {\n  return text.replace(/\\d/g, '#');\n}\n");
  write('src/observability/scrub.ts', "import { redact } from '@mini/redact';\n\nexport function scrub(line: string): string {\n  return redact(line);\n}\n");
  return repo;
}

/** An edit whose edges resolve only through the alias and the workspace package, so stale settings would lose them. */
function editThroughAliases(repo: string): void {
  const secrets = path.join(repo, 'src/security/secrets.ts');
  writeFileSync(secrets, `${readFileSync(secrets, 'utf8')}\nexport function maskAll(lines: string[]): string[] {\n  return lines.map((line) => maskSecrets(line));\n}\n`);
  const logger = path.join(repo, 'src/observability/logger.ts');
  const text = readFileSync(logger, 'utf8').replace("import { maskSecrets } from '@harness/security/secrets.js';", "import { maskAll, maskSecrets } from '@harness/security/secrets.js';\nimport { redact } from '@mini/redact';");
  writeFileSync(logger, `${text}\nexport function maskedLines(lines: string[]): string[] {\n  return maskAll(lines).map((line) => redact(line));\n}\n`);
  const scrub = path.join(repo, 'src/observability/scrub.ts');
  writeFileSync(scrub, readFileSync(scrub, 'utf8').replace('return redact(line);', 'return redact(line.trim());'));
}

async function expectKeptAt(place: string, before: ReturnType<typeof handbookContent>, database: string): Promise<void> {
  const summary = await syncHandbook(place);
  expect(summary.fullRebuild).toBeUndefined();
  expect(summary).toMatchObject({ upToDate: true, resolvedFiles: 0, added: [], modified: [], removed: [] });
  expect(summary.build.root).toBe(place);
  expect(handbookContent(place, database)).toEqual(before);
  const handbook = openHandbook(place);
  expect(handbook.generation.root).toBe(place);
  expect(handbook.summary.root).toBe(place);
}

describe('a repository synced where it moved', () => {
  it('keeps the stored analysis after the folder is renamed, and resolves an edit there through the new place', async () => {
    const repo = fixtureWithWorkspacePackage();
    await buildHandbook(repo);
    const before = handbookContent(repo, path.join(repo, '.handbook/handbook.db'));
    expect(JSON.stringify(openHandbook(repo).generation.settings).includes(repo), 'the stored settings name the folder the repository sat in').toBe(false);

    const moved = path.join(path.dirname(repo), 'moved-harness');
    renameSync(repo, moved);
    const database = path.join(moved, '.handbook/handbook.db');
    await expectKeptAt(moved, before, database);

    editThroughAliases(moved);
    const edited = await syncHandbook(moved);
    expect(edited.fullRebuild).toBeUndefined();
    expect(edited.modified).toEqual(['src/observability/logger.ts', 'src/observability/scrub.ts', 'src/security/secrets.ts']);
    const graph = openHandbook(moved).graph.toData();
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'src/observability/logger.ts#maskedLines', to: 'packages/redact/src/index.ts#redact', kind: 'calls' }));
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'src/observability/logger.ts#maskedLines', to: 'src/security/secrets.ts#maskAll', kind: 'calls' }));
    await expectSameAsColdBuild(moved, database, 'an edit after the move');
  }, LONG);

  it('keeps the stored analysis when the repository is reached through a symlink', async () => {
    const repo = fixtureWithWorkspacePackage();
    await buildHandbook(repo);
    const database = path.join(repo, '.handbook/handbook.db');
    const before = handbookContent(repo, database);

    const link = path.join(path.dirname(repo), 'linked-harness');
    symlinkSync(repo, link);
    await expectKeptAt(link, before, database);

    editThroughAliases(link);
    const edited = await syncHandbook(link);
    expect(edited.fullRebuild).toBeUndefined();
    await expectSameAsColdBuild(link, database, 'an edit through the symlink');
  }, LONG);
});
