import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { renderHandbook } from '../../src/api/render-handbook.js';
import { HandbookError } from '../../src/errors.js';
import { PAGE_MANIFEST, pageManifestText } from '../../src/render/page-manifest.js';
import type { RenderedPage } from '../../src/render/render-markdown.js';
import { writePages } from '../../src/render/write-pages.js';
import { FIXTURE, PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';

const GOLDEN = path.join(PROJECT_ROOT, 'test', 'golden', 'mini-harness-handbook');

function filesUnder(directory: string, prefix = ''): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  ).sort();
}

/** Every file under the folder with its bytes, to show a refused render touched nothing. */
function contentsUnder(directory: string): Record<string, string> {
  return Object.fromEntries(filesUnder(directory).map((file) => [file, readFileSync(path.join(directory, file), 'base64')]));
}

function refusalOf(render: () => unknown): HandbookError {
  try {
    render();
  } catch (error) {
    if (HandbookError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the render was not refused');
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
    expect(filesUnder(GOLDEN)).toEqual([PAGE_MANIFEST, ...pages.map((page) => page.path)].sort());
    expect(readFileSync(path.join(GOLDEN, PAGE_MANIFEST), 'utf8')).toBe(pageManifestText(pages.map((page) => page.path)));
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

  it('refuses a folder holding files it did not write, and leaves it byte for byte as it was', () => {
    const out = path.join(scratchDirectory(), 'md');
    mkdirSync(path.join(out, 'stages'), { recursive: true });
    writeFileSync(path.join(out, 'overview.md'), 'mine');
    writeFileSync(path.join(out, 'stages', 'intro.md'), 'mine');
    writeFileSync(path.join(out, 'unassigned.md'), 'u');
    const before = contentsUnder(out);
    const refusal = refusalOf(() => renderHandbook(FIXTURE, { database, out }));
    expect(refusal.code).toBe('INVALID_INPUT');
    expect(refusal.message).toBe(`${out} holds files the handbook did not write (overview.md, stages/intro.md, unassigned.md)`);
    expect(contentsUnder(out)).toEqual(before);
    // A manifest it did not write, or one that names files outside the pages, does not make the folder its own.
    writeFileSync(path.join(out, PAGE_MANIFEST), JSON.stringify({ writtenBy: 'handbook render', format: 1, files: ['../elsewhere.md'] }));
    expect(refusalOf(() => renderHandbook(FIXTURE, { database, out })).code).toBe('INVALID_INPUT');
  });

  it('re-renders a folder it wrote: removes its pages that no longer belong and keeps files of others', () => {
    const out = path.join(scratchDirectory(), 'md');
    // An earlier render that still had a stage "gone".
    writePages(out, [...pages, { path: 'stages/gone.md', content: 'old' }]);
    writeFileSync(path.join(out, 'stages', 'notes.md'), 'mine');
    writeFileSync(path.join(out, 'skeleton.json'), '{}');
    renderHandbook(FIXTURE, { database, out });
    expect(existsSync(path.join(out, 'stages', 'gone.md'))).toBe(false);
    expect(readFileSync(path.join(out, 'stages', 'notes.md'), 'utf8')).toBe('mine');
    expect(readFileSync(path.join(out, 'skeleton.json'), 'utf8')).toBe('{}');
    expect(readFileSync(path.join(out, PAGE_MANIFEST), 'utf8')).toBe(pageManifestText(pages.map((page) => page.path)));
    expect(filesUnder(out)).toEqual([PAGE_MANIFEST, 'skeleton.json', 'stages/notes.md', ...pages.map((page) => page.path)].sort());
  });

  it('refuses to write a page over a file of someone else in a folder it wrote', () => {
    const out = path.join(scratchDirectory(), 'md');
    const overview = pages.find((page) => page.path === 'overview.md')!;
    writePages(out, [overview]);
    writeFileSync(path.join(out, 'register.md'), 'mine');
    const before = contentsUnder(out);
    expect(refusalOf(() => writePages(out, [overview, { path: 'register.md', content: 'new' }])).message).toBe(`${out} holds files the handbook did not write (register.md)`);
    expect(contentsUnder(out)).toEqual(before);
  });

  it('takes over a folder rendered before it kept a manifest, by the overview those renders wrote', () => {
    const out = path.join(scratchDirectory(), 'md');
    mkdirSync(path.join(out, 'stages'), { recursive: true });
    for (const page of pages) writeFileSync(path.join(out, page.path), `${page.content}\n`);
    writeFileSync(path.join(out, 'stages', 'gone.md'), 'old');
    writeFileSync(path.join(out, 'skeleton.json'), '{}');
    renderHandbook(FIXTURE, { database, out });
    expect(existsSync(path.join(out, 'stages', 'gone.md'))).toBe(false);
    expect(filesUnder(out)).toEqual([PAGE_MANIFEST, 'skeleton.json', ...pages.map((page) => page.path)].sort());
  });
});

describe("this project's own handbook", () => {
  it('is fresh: handbook/ is what `npm run handbook:self` writes from the current src/', async () => {
    const database = path.join(scratchDirectory(), 'self.db');
    await buildHandbook(PROJECT_ROOT, { database, include: ['src'], skeleton: path.join(PROJECT_ROOT, 'handbook', 'skeleton.json') });
    const out = path.join(PROJECT_ROOT, 'handbook');
    const expected = renderHandbook(PROJECT_ROOT, { database, out, write: false }).pages;
    const stale = expected.filter((page) => !existsSync(path.join(out, page.path)) || readFileSync(path.join(out, page.path), 'utf8') !== `${page.content}\n`.replace(/\n\n$/, '\n')).map((page) => page.path);
    const manifest = path.join(out, PAGE_MANIFEST);
    if (!existsSync(manifest) || readFileSync(manifest, 'utf8') !== pageManifestText(expected.map((page) => page.path))) stale.push(PAGE_MANIFEST);
    const extra = filesUnder(out).filter((file) => file !== 'skeleton.json' && file !== PAGE_MANIFEST && !expected.some((page) => page.path === file));
    expect({ stale, extra }, 'run `npm run handbook:self` and commit handbook/').toEqual({ stale: [], extra: [] });
  });
});
