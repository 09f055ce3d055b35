import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewerServer, writeStaticSite, type ViewerServer } from '../../src/index.js';
import {
  graphResponseSchema,
  overviewResponseSchema,
  registerResponseSchema,
  sourceResponseSchema,
  stageResponseSchema,
  staticMarkerSchema,
  unitResponseSchema,
} from '../../src/serve/api-schemas.js';
import { unitFileName, unitIdOfFileName } from '../../src/serve/unit-file-name.js';
import { PROJECT_ROOT, copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { send } from './http-client.js';
import { runCli, runCliAsync } from '../helpers/cli-run.js';

const handbook = (args: string[]) => runCli(args);

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('handbook render --html', () => {
  let repo: string;
  let server: ViewerServer;
  beforeAll(async () => {
    repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
    server = await startViewerServer(repo, { port: 0, log: () => undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  const api = async (url: string): Promise<unknown> => (await send(server.url, url)).json();

  it('writes the app and every view as JSON in the shapes of the API, with the answers the server gives', async () => {
    const site = path.join(scratchDirectory(), 'site');
    const result = handbook(['render', '--repo', repo, '--html', site, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).not.toHaveProperty('pages');
    expect(report.html.directory).toBe(site);
    expect(report.html.skippedSources).toEqual([]);
    // Markdown only when --out asks for it too.
    expect(existsSync(path.join(repo, '.handbook', 'markdown'))).toBe(false);

    for (const name of ['index.html', 'app.js', 'app.css']) expect(readFileSync(path.join(site, name))).toEqual(readFileSync(path.join(PROJECT_ROOT, 'dist', 'web', name)));
    const data = path.join(site, 'data');
    expect(staticMarkerSchema.parse(readJson(path.join(data, 'static.json')))).toEqual({ static: true });

    const overview = overviewResponseSchema.parse(readJson(path.join(data, 'overview.json')));
    expect(overview).toEqual(await api('/api/overview'));
    expect(registerResponseSchema.parse(readJson(path.join(data, 'register.json')))).toEqual(await api('/api/register'));
    const graph = graphResponseSchema.parse(readJson(path.join(data, 'graph.json')));
    expect(graph).toEqual(await api('/api/graph'));
    expect(readdirSync(path.join(data, 'stages')).sort()).toEqual(overview.stages.map((stage) => `${stage.id}.json`).sort());
    for (const stage of overview.stages) expect(stageResponseSchema.parse(readJson(path.join(data, 'stages', `${stage.id}.json`)))).toEqual(await api(`/api/stage/${stage.id}`));

    const unitFiles = readdirSync(path.join(data, 'units'));
    // The fixture's ids are short enough to be spelled out whole in their file names.
    const unitIds = unitFiles.map((name) => unitIdOfFileName(name.replace(/\.json$/, ''))!);
    expect(unitIds).toEqual(expect.arrayContaining(graph.nodes.map((node) => node.id)));
    for (const [index, name] of unitFiles.entries()) {
      const unit = unitResponseSchema.parse(readJson(path.join(data, 'units', name)));
      expect(unit.unit.id).toBe(unitIds[index]);
      expect(unitFileName(unit.unit.id)).toBe(name.replace(/\.json$/, ''));
    }
    expect(readJson(path.join(data, 'units', `${unitFileName('src/agent/agentLoop.ts#AgentLoop.run')}.json`))).toEqual(await api(`/api/unit?id=${encodeURIComponent('src/agent/agentLoop.ts#AgentLoop.run')}`));

    const files = new Set(unitIds.map((id) => id.split('#')[0]!));
    expect(files.size).toBe(25);
    for (const file of files) {
      const source = sourceResponseSchema.parse(readJson(path.join(data, 'sources', `${file}.json`)));
      expect(source).toEqual({ file, text: readFileSync(path.join(repo, file), 'utf8') });
    }
    const appFiles = readdirSync(path.join(PROJECT_ROOT, 'dist', 'web'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    expect(report.html.files).toHaveLength(appFiles + 4 + overview.stages.length + unitFiles.length + files.size);
  });

  it('replaces data/ of an earlier render whole, and writes Markdown too when --out is given', async () => {
    const site = path.join(scratchDirectory(), 'site');
    expect(handbook(['render', '--repo', repo, '--html', site]).code).toBe(0);
    const stale = path.join(site, 'data', 'units', `${unitFileName('src/gone.ts#gone')}.json`);
    writeFileSync(stale, '{}');
    const out = path.join(scratchDirectory(), 'markdown');
    const again = handbook(['render', '--repo', repo, '--html', site, '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^wrote \d+ pages to .*\nwrote the web viewer to .*: \d+ files/);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(path.join(out, 'overview.md'))).toBe(true);
  });

  it('writes the same bytes twice: a render holds nothing of the moment it ran', async () => {
    const first = path.join(scratchDirectory(), 'site');
    const second = path.join(scratchDirectory(), 'site');
    expect(handbook(['render', '--repo', repo, '--html', first]).code).toBe(0);
    expect(handbook(['render', '--repo', repo, '--html', second]).code).toBe(0);
    const contents = (site: string) =>
      readdirSync(site, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(path.relative(site, entry.parentPath), entry.name))
        .sort()
        .map((file) => [file, readFileSync(path.join(site, file), 'utf8')]);
    expect(contents(second)).toEqual(contents(first));
  });

  it('writes the source of a file a unit moved into since the build, which the build never read', async () => {
    const moving = copyOfFixture();
    expect(handbook(['build', moving, '--no-progress']).code).toBe(0);
    // maskSecrets (lines 27-37) moves unchanged into a new file, and the handbook is not rebuilt.
    const secrets = path.join(moving, 'src/security/secrets.ts');
    const lines = readFileSync(secrets, 'utf8').split('\n');
    const moved = lines.splice(26, 11);
    writeFileSync(secrets, lines.join('\n'));
    const mask = ['// Moved out of secrets.ts.', '', ...moved, ''].join('\n');
    writeFileSync(path.join(moving, 'src/security/mask.ts'), mask);

    const site = path.join(scratchDirectory(), 'site');
    const result = handbook(['render', '--repo', moving, '--html', site, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).html.skippedSources).toEqual([]);
    const data = path.join(site, 'data');
    const unit = unitResponseSchema.parse(readJson(path.join(data, 'units', `${unitFileName('src/security/secrets.ts#maskSecrets')}.json`)));
    expect(unit).toMatchObject({ status: 'moved', liveFile: 'src/security/mask.ts', liveLine: 3, liveEndLine: 13 });
    // The page shows the file the code stands in: without its source it would have nothing to show.
    expect(sourceResponseSchema.parse(readJson(path.join(data, 'sources', 'src/security/mask.ts.json')))).toEqual({ file: 'src/security/mask.ts', text: mask });
    expect(sourceResponseSchema.parse(readJson(path.join(data, 'sources', 'src/security/secrets.ts.json')))).toEqual({ file: 'src/security/secrets.ts', text: lines.join('\n') });
  });

  // One concurrent test a folder, each in a copy of its own: one after another, the CLI starts of this test added up under one timeout on a loaded machine.
  const foreignFolders: Array<[string, (copy: string) => string]> = [
    ['the repository', (copy) => copy],
    ['its src/', (copy) => path.join(copy, 'src')],
  ];
  it.concurrent.for(foreignFolders)('refuses a folder of files it did not write, as Markdown does: %s', async ([, folderOf]) => {
    const folder = folderOf(copyOfFixture());
    const before = readdirSync(folder).sort();
    const refused = await runCliAsync(['render', '--repo', repo, '--html', folder]);
    expect(refused.code, refused.stdout).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^handbook: .* holds files the handbook did not write \(.*\) \(pick an empty folder for the site, or remove them\)$/m);
    expect(readdirSync(folder).sort()).toEqual(before);
  });

  it('refuses a folder of files it did not write before any Markdown page, and takes a folder Markdown was rendered into', async () => {
    const copy = copyOfFixture();
    // Markdown asked for too: the site's refusal comes before any page is written.
    const pages = path.join(scratchDirectory(), 'pages');
    const first = handbook(['render', '--repo', repo, '--out', pages, '--html', path.join(copy, 'src')]);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/holds files the handbook did not write/);
    expect(existsSync(pages)).toBe(false);
    // A folder Markdown was rendered into, before or in the same command, takes the site beside the pages.
    const both = path.join(scratchDirectory(), 'both');
    expect(handbook(['render', '--repo', repo, '--out', both, '--html', both]).code).toBe(0);
    const again = handbook(['render', '--repo', repo, '--html', both, '--out', both]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(path.join(both, 'overview.md')) && existsSync(path.join(both, 'index.html'))).toBe(true);
  });

  it('refuses a data/ folder it did not write, and a missing app, in one line', async () => {
    const site = path.join(scratchDirectory(), 'site');
    mkdirSync(path.join(site, 'data'), { recursive: true });
    writeFileSync(path.join(site, 'data', 'mine.txt'), 'keep me');
    const refused = handbook(['render', '--repo', repo, '--html', site]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/data exists and was not written by handbook render --html/);
    expect(readFileSync(path.join(site, 'data', 'mine.txt'), 'utf8')).toBe('keep me');
    await expect(writeStaticSite(repo, path.join(scratchDirectory(), 'site'), { app: path.join(scratchDirectory(), 'web') })).rejects.toThrow(/web app is not built/);
  });
});
