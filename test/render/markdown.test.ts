import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { renderHandbook } from '../../src/api/render-handbook.js';
import type { RenderedPage } from '../../src/render/render-markdown.js';
import { FIXTURE, PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'mini-harness-handbook');

function filesUnder(directory: string, prefix = ''): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  ).sort();
}

describe('the Markdown handbook of the fixture harness', () => {
  let database: string;
  let pages: RenderedPage[];

  beforeAll(async () => {
    database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(FIXTURE, { database });
    pages = renderHandbook(FIXTURE, { database, out: GOLDEN, write: process.env.UPDATE_GOLDENS === 'true' }).pages;
  });

  it('has an overview, a page per stage and the register', async () => {
    expect(pages.map((page) => page.path)).toEqual(expect.arrayContaining(['overview.md', 'register.md', 'stages/security.md', 'stages/agent-loop.md']));
    const overview = pages.find((page) => page.path === 'overview.md')!.content;
    expect(overview).toContain('offline stager (deterministic, no model)');
    expect(overview).toContain('```mermaid\nflowchart LR');
    const security = pages.find((page) => page.path === 'stages/security.md')!.content;
    expect(security).toContain('[src/security/secrets.ts:27](../../../../fixtures/mini-harness/src/security/secrets.ts#L27)');
  });

  it('matches the golden pages byte for byte (UPDATE_GOLDENS=true rewrites them)', async () => {
    expect(filesUnder(GOLDEN)).toEqual(pages.map((page) => page.path).sort());
    for (const page of pages) expect(`${page.content}\n`.replace(/\n\n$/, '\n'), page.path).toBe(readFileSync(path.join(GOLDEN, page.path), 'utf8'));
  });

  it('renders the same bytes from a second build', async () => {
    const second = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(FIXTURE, { database: second });
    const again = renderHandbook(FIXTURE, { database: second, out: GOLDEN, write: false }).pages;
    expect(again).toEqual(pages);
  });

  it('keeps the Mermaid diagram under GitHub’s edge limit', async () => {
    const overview = pages.find((page) => page.path === 'overview.md')!.content;
    const diagram = overview.slice(overview.indexOf('```mermaid'), overview.indexOf('```', overview.indexOf('```mermaid') + 3));
    const edges = diagram.split('\n').filter((line) => line.includes('-->') || line.includes('-.-'));
    expect(edges.length).toBeGreaterThan(10);
    expect(edges.length).toBeLessThan(500);
  });

  it('removes pages of stages that no longer exist when rendering into the same folder', async () => {
    const out = path.join(scratchDirectory(), 'md');
    mkdirSync(path.join(out, 'stages'), { recursive: true });
    writeFileSync(path.join(out, 'stages', 'gone.md'), 'old');
    renderHandbook(FIXTURE, { database, out });
    expect(existsSync(path.join(out, 'stages', 'gone.md'))).toBe(false);
    expect(existsSync(path.join(out, 'stages', 'security.md'))).toBe(true);
  });
});

describe("this project's own handbook", () => {
  it('is fresh: handbook/ is what `npm run handbook:self` writes from the current src/', async () => {
    const database = path.join(scratchDirectory(), 'self.db');
    await buildHandbook(PROJECT_ROOT, { database, include: ['src'], skeleton: path.join(PROJECT_ROOT, 'handbook', 'skeleton.json') });
    const out = path.join(PROJECT_ROOT, 'handbook');
    const expected = renderHandbook(PROJECT_ROOT, { database, out, write: false }).pages;
    const stale = expected.filter((page) => !existsSync(path.join(out, page.path)) || readFileSync(path.join(out, page.path), 'utf8') !== `${page.content}\n`.replace(/\n\n$/, '\n')).map((page) => page.path);
    const extra = filesUnder(out).filter((file) => file !== 'skeleton.json' && !expected.some((page) => page.path === file));
    expect({ stale, extra }, 'run `npm run handbook:self` and commit handbook/').toEqual({ stale: [], extra: [] });
  });
});
