import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editNeighbours } from '../helpers/neighbour-edits.js';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';

/**
 * The web viewer in a real browser: `handbook serve` on a copy of the fixture, Debian's Chromium
 * driven by playwright-core (which never downloads a browser). CI installs Chromium first (.ci/run);
 * elsewhere CHROMIUM_PATH may point at another build.
 */
/** What the page functions below read of the browser's globals; the tests compile without the DOM library. */
interface PageGlobals {
  location: { hash: string };
  document: { body: { dataset: Record<string, string | undefined> } };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const TIMEOUT = 120_000;
const QUESTION = 'where is secret masking done?';

interface AskAnswer {
  locations: { file: string; symbol: string; line: number; endLine: number; stage: string | null; behavior: { id: string; name: string } | null }[];
}
interface UnitAnswer {
  unit: { id: string; symbol: string; file: string };
  status: string;
  liveLine: number;
  liveEndLine: number;
}
interface GraphAnswer {
  stages: { id: string; name: string; color: string }[];
  nodes: { id: string; label: string; stage: string | null }[];
}
interface OverviewAnswer {
  generation: number;
  stages: { id: string; name: string }[];
}

function startServer(repo: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--repo', repo, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`handbook serve did not start within 60 s:\n${log}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      log += chunk.toString();
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => log });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`handbook serve exited with ${code}:\n${log}`));
    });
  });
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

/** Any static web server will do for `handbook render --html`: this one serves files under a folder. */
function serveFolder(folder: string): Promise<{ server: Server; url: string }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = path.join(folder, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(folder + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** Waits until the current view finished loading (the app drops data-loading when a view is in place). */
async function viewLoaded(page: Page, view: string): Promise<void> {
  await page.waitForSelector(`body[data-view="${view}"]:not([data-loading])`, { timeout: 60_000 });
}

function hex(color: string): [number, number, number] {
  return [Number.parseInt(color.slice(1, 3), 16), Number.parseInt(color.slice(3, 5), 16), Number.parseInt(color.slice(5, 7), 16)];
}

describe('web viewer in Chromium', () => {
  it('has a Chromium to drive (.ci/run installs Debian\'s chromium package)', () => {
    expect(existsSync(CHROMIUM), `no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`).toBe(true);
  });

  let repo = '';
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    repo = copyOfFixture();
    execFileSync(process.execPath, [CLI, 'build', repo, '--no-progress'], { stdio: 'pipe', timeout: TIMEOUT });
    server = await startServer(repo);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  }, TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server?.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, TIMEOUT);

  it(
    'shows the stages, answers a search by stage, opens a result at its live lines, draws the graph and follows an edit on disk',
    async () => {
      const base = server!.url;
      const overview = await getJson<OverviewAnswer>(`${base}/api/overview`);
      expect(overview.stages.length).toBeGreaterThan(3);

      // Overview: every stage, in order, each linking to its stage view.
      await page.goto(`${base}/`);
      await viewLoaded(page, 'overview');
      const stageNames = await page.locator('li.stage-card h3 a').allTextContents();
      expect(stageNames).toEqual(overview.stages.map((stage) => stage.name));
      expect(await page.getAttribute('body', 'data-generation')).toBe(String(overview.generation));
      expect(await page.getAttribute('body', 'data-mode')).toBe('live');

      // A stage view lists its behaviours, then each behaviour's members grouped by file.
      await page.locator('li.stage-card h3 a').first().click();
      await viewLoaded(page, 'stage');
      expect(await page.locator('.file-group').count()).toBeGreaterThan(0);
      const firstStage = await getJson<{ behaviors: { id: string; name: string; members: string[] }[] }>(`${base}/api/stage/${encodeURIComponent(overview.stages[0]!.id)}`);
      expect(firstStage.behaviors.length).toBeGreaterThan(0);
      expect(await page.locator('table.behaviors tbody tr').count()).toBe(firstStage.behaviors.length);
      expect(await page.locator('section.behavior').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-behavior')))).toEqual(firstStage.behaviors.map((behavior) => behavior.id));
      for (const behavior of firstStage.behaviors) {
        expect(await page.locator(`section.behavior[data-behavior="${behavior.id}"] ul.units li`).count()).toBe(behavior.members.length);
      }

      // Search from the header: sites grouped by stage, in the order ask ranks them.
      const ask = await getJson<AskAnswer>(`${base}/api/ask?q=${encodeURIComponent(QUESTION)}&limit=20`);
      expect(ask.locations.length).toBeGreaterThan(0);
      await page.fill('#search', QUESTION);
      await page.press('#search', 'Enter');
      await viewLoaded(page, 'search');
      await page.waitForSelector('a.result');
      const groups: (string | null)[] = [];
      for (const section of await page.locator('.result-group').all()) groups.push(await section.getAttribute('data-stage'));
      const expectedGroups = [...new Set(ask.locations.map((location) => location.stage ?? ''))];
      expect(groups).toEqual(expectedGroups);
      // Within a stage, by behaviour: each behaviour group holds the locations ask puts in it.
      const behaviorGroups: (string | null)[] = [];
      for (const group of await page.locator('.behavior-group').all()) behaviorGroups.push(await group.getAttribute('data-behavior'));
      const expectedBehaviors = expectedGroups.flatMap((stage) => [...new Set(ask.locations.filter((location) => (location.stage ?? '') === stage).map((location) => location.behavior?.id ?? ''))]);
      expect(behaviorGroups).toEqual(expectedBehaviors);
      expect(await page.locator('a.result').count()).toBe(ask.locations.length);
      expect(await page.locator('.result-group .why').first().textContent()).toMatch(/\S/);
      const first = ask.locations[0]!;
      expect(first.file).toBe('src/security/secrets.ts');

      // The first result: the file's source with the unit's live lines highlighted, and its freshness.
      await page.locator('a.result').first().click();
      await viewLoaded(page, 'unit');
      const unitId = `${first.file}#${first.symbol}`;
      const unit = await getJson<UnitAnswer>(`${base}/api/unit?id=${encodeURIComponent(unitId)}`);
      expect(await page.locator('.view.unit').getAttribute('data-unit')).toBe(unitId);
      await page.waitForSelector('.source .line.highlight');
      const highlighted = await page.locator('.source .line.highlight').allTextContents();
      expect(highlighted).toHaveLength(unit.liveEndLine - unit.liveLine + 1);
      expect(highlighted.join('\n')).toContain(first.symbol.split('.').pop()!);
      expect(await page.locator('.source .line.highlight').first().getAttribute('data-line')).toBe(String(unit.liveLine));
      expect(await page.locator(`.badge.freshness-${unit.status}`).count()).toBe(1);
      expect(unit.status).toBe('fresh');
      const source = await getJson<{ text: string }>(`${base}/api/source?file=${encodeURIComponent(first.file)}`);
      expect(await page.locator('.source .line').count()).toBe(source.text.replace(/\n$/, '').split('\n').length);

      // The graph: sigma on WebGL, coloured by stage, with a legend; the picture is not blank.
      const graph = await getJson<GraphAnswer>(`${base}/api/graph`);
      await page.goto(`${base}/#/graph`);
      await viewLoaded(page, 'graph');
      await page.waitForSelector('.graph-canvas[data-ready="true"] canvas');
      await page.waitForTimeout(800);
      expect(await page.locator('.legend li').count()).toBeGreaterThanOrEqual(graph.stages.length);
      const shot = PNG.sync.read(await page.locator('.graph-canvas').screenshot());
      const colors = new Set<number>();
      let inked = 0;
      const stageColors = graph.stages.map((stage) => hex(stage.color));
      const seenStages = new Set<number>();
      for (let offset = 0; offset < shot.data.length; offset += 4) {
        const [r, g, b] = [shot.data[offset]!, shot.data[offset + 1]!, shot.data[offset + 2]!];
        colors.add((r << 16) | (g << 8) | b);
        if (r < 235 || g < 235 || b < 235) inked += 1;
        stageColors.forEach(([sr, sg, sb], index) => {
          if (Math.abs(r - sr) + Math.abs(g - sg) + Math.abs(b - sb) < 24) seenStages.add(index);
        });
      }
      const pixels = shot.width * shot.height;
      expect(colors.size).toBeGreaterThan(50);
      expect(inked / pixels).toBeGreaterThan(0.005);
      expect(seenStages.size).toBeGreaterThanOrEqual(Math.min(4, stageColors.length));

      // Clicking a node opens its unit.
      const target = graph.nodes.find((node) => node.id === unitId) ?? graph.nodes[0]!;
      const point = (await page.evaluate(
        `(() => { const s = window.handbookGraph; const d = s.getNodeDisplayData(${JSON.stringify(target.id)}); return s.framedGraphToViewport(d); })()`,
      )) as { x: number; y: number };
      const box = (await page.locator('.graph-canvas').boundingBox())!;
      await page.mouse.click(box.x + point.x, box.y + point.y);
      // Functions, not strings: the viewer's content security policy forbids evaluating strings in the page.
      await page.waitForFunction((hash) => (globalThis as unknown as PageGlobals).location.hash === hash, `#/unit/${encodeURI(target.id)}`, { timeout: 15_000 });
      await viewLoaded(page, 'unit');

      // An edit on disk while the page is open: the server syncs, the page reloads its view.
      await page.goto(`${base}/#/unit/${encodeURI(unitId)}`);
      await viewLoaded(page, 'unit');
      const generation = await page.getAttribute('body', 'data-generation');
      const syncs = Number(await page.getAttribute('body', 'data-sync'));
      appendFileSync(
        path.join(repo, 'src/security/secrets.ts'),
        "\n/** Hides bearer tokens in an HTTP authorization header. */\nexport function scrubBearerToken(header: string): string {\n  return header.replace(/Bearer\\s+\\S+/g, 'Bearer [REDACTED]');\n}\n",
      );
      // A sync updates the current generation in place; data-sync counts the syncs the page applied.
      await page.waitForFunction((before) => Number((globalThis as unknown as PageGlobals).document.body.dataset.sync) > before, syncs, { timeout: 60_000 });
      expect(Number(await page.getAttribute('body', 'data-generation'))).toBeGreaterThanOrEqual(Number(generation));
      await viewLoaded(page, 'unit');
      expect(await page.locator('#notice').textContent()).toMatch(/updated/);
      expect(await page.locator('.source .line').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('export function scrubBearerToken')]));
      await page.fill('#search', 'scrub the bearer token from the authorization header');
      await page.press('#search', 'Enter');
      await viewLoaded(page, 'search');
      expect(await page.locator('a.result .symbol').allTextContents()).toContain('scrubBearerToken');

      expect(pageErrors).toEqual([]);
    },
    TIMEOUT * 2,
  );

  it(
    'works as a static site from `handbook render --html`: the same views from data/, search disabled',
    async () => {
      const staticRepo = copyOfFixture();
      const site = path.join(scratchDirectory(), 'site');
      execFileSync(process.execPath, [CLI, 'build', staticRepo, '--no-progress'], { stdio: 'pipe', timeout: TIMEOUT });
      execFileSync(process.execPath, [CLI, 'render', '--repo', staticRepo, '--html', site], { stdio: 'pipe', timeout: TIMEOUT });
      const { server: files, url } = await serveFolder(site);
      const staticPage = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
      const errors: string[] = [];
      staticPage.on('pageerror', (error) => errors.push(error.message));
      try {
        const overview = JSON.parse(readFileSync(path.join(site, 'data', 'overview.json'), 'utf8')) as OverviewAnswer;
        await staticPage.goto(`${url}/`);
        await viewLoaded(staticPage, 'overview');
        expect(await staticPage.getAttribute('body', 'data-mode')).toBe('static');
        expect(await staticPage.locator('li.stage-card h3 a').allTextContents()).toEqual(overview.stages.map((stage) => stage.name));
        expect(await staticPage.locator('#search').isDisabled()).toBe(true);
        expect(await staticPage.locator('header').textContent()).toContain('search needs `handbook serve`');

        await staticPage.goto(`${url}/#/unit/${encodeURI('src/security/secrets.ts#maskSecrets')}`);
        await viewLoaded(staticPage, 'unit');
        expect((await staticPage.locator('.source .line.highlight').allTextContents()).join('\n')).toContain('export function maskSecrets');
        expect(await staticPage.locator('.badge.freshness-fresh').count()).toBe(1);

        await staticPage.goto(`${url}/#/stage/${encodeURIComponent(overview.stages[0]!.id)}`);
        await viewLoaded(staticPage, 'stage');
        expect(await staticPage.locator('.file-group').count()).toBeGreaterThan(0);

        await staticPage.goto(`${url}/#/register`);
        await viewLoaded(staticPage, 'register');
        expect(await staticPage.locator('details.slot').count()).toBeGreaterThan(0);

        await staticPage.goto(`${url}/#/graph`);
        await viewLoaded(staticPage, 'graph');
        await staticPage.waitForSelector('.graph-canvas[data-ready="true"] canvas');

        await staticPage.goto(`${url}/#/search?q=secrets`);
        await viewLoaded(staticPage, 'search');
        expect(await staticPage.locator('.view.search').textContent()).toContain('search needs `handbook serve`');
        expect(errors).toEqual([]);
      } finally {
        await staticPage.close();
        await new Promise((resolve) => files.close(resolve));
      }
    },
    TIMEOUT,
  );

  it(
    "shows listed units where their code stands now, on a static site rendered from a handbook behind the code: a unit's callers and callees, a stage's entry points and members, a slot's writers and readers",
    async () => {
      const staleRepo = copyOfFixture();
      const site = path.join(scratchDirectory(), 'site');
      execFileSync(process.execPath, [CLI, 'build', staleRepo, '--no-progress'], { stdio: 'pipe', timeout: TIMEOUT });
      editNeighbours(staleRepo);
      execFileSync(process.execPath, [CLI, 'render', '--repo', staleRepo, '--html', site], { stdio: 'pipe', timeout: TIMEOUT });
      const { server: files, url } = await serveFolder(site);
      const stalePage = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
      const errors: string[] = [];
      stalePage.on('pageerror', (error) => errors.push(error.message));
      const relations = async (unit: string, title: string): Promise<string[]> => {
        await stalePage.goto(`${url}/#/unit/${encodeURI(unit)}`);
        await viewLoaded(stalePage, 'unit');
        return stalePage.locator('.relations section', { has: stalePage.locator('h2', { hasText: title }) }).locator('li').allTextContents();
      };
      try {
        expect(await relations('src/tools/shell.ts#runShellTool', 'Callees')).toEqual(
          expect.arrayContaining(['capture src/tools/shell.ts:43', 'maskSecrets src/security/mask.ts:3 moved', 'truncateOutput gone frozen']),
        );
        // A caller is shown at its call where its code is unchanged, and at its own first line where it changed.
        expect(await relations('src/security/secrets.ts#maskSecrets', 'Callers')).toEqual(
          expect.arrayContaining(['runShellTool src/tools/shell.ts:39', 'Logger.write src/observability/logger.ts:40 changed']),
        );

        // A moved member stands under the file that holds it now.
        await stalePage.goto(`${url}/#/stage/security`);
        await viewLoaded(stalePage, 'stage');
        const moved = stalePage.locator('.file-group', { has: stalePage.locator('h3', { hasText: 'src/security/mask.ts' }) }).locator('li');
        expect(await moved.allTextContents()).toEqual(['maskSecrets function lines 3–13 moved']);
        // A member still where the build put it comes without live fields: its build lines are where its code is.
        const inPlace = stalePage.locator('.file-group', { has: stalePage.locator('h3', { hasText: 'src/security/secrets.ts' }) }).locator('li', { hasText: 'redactValue' });
        expect(await inPlace.allTextContents()).toEqual(['redactValue function lines 21–24']);
        expect(await stalePage.locator('section', { has: stalePage.locator('h2', { hasText: 'Entry points' }) }).locator('li').allTextContents()).toEqual(['maskSecrets src/security/mask.ts:3 moved']);

        // A reader is shown at its read where its code is unchanged, and at its own first line where it changed.
        await stalePage.goto(`${url}/#/register/${encodeURIComponent('src/observability/logger.ts#Logger.scope')}`);
        await viewLoaded(stalePage, 'register');
        const readers = stalePage.locator('details[data-slot="src/observability/logger.ts#Logger.scope"] .columns > div', { has: stalePage.locator('h4', { hasText: 'Readers' }) }).locator('li');
        expect(await readers.allTextContents()).toEqual(['Logger.child src/observability/logger.ts:24', 'Logger.write src/observability/logger.ts:40 changed']);
        expect(errors).toEqual([]);
      } finally {
        await stalePage.close();
        await new Promise((resolve) => files.close(resolve));
      }
    },
    TIMEOUT,
  );
});
