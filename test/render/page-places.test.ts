import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { type Handbook, openHandbook } from '../../src/api/open-handbook.js';
import type { OrganizedHandbook } from '../../src/organize/model.js';
import type { PagePlaces } from '../../src/render/page-places.js';
import { renderMarkdown, unitsOnPages } from '../../src/render/render-markdown.js';
import { FIXTURE, scratchDirectory } from '../helpers/paths.js';

/** Places nowhere near the build's, each marked, remembering which units the pages asked about. */
function elsewhere(asked: Set<string>): PagePlaces {
  return {
    unit: (unit) => (asked.add(unit.id), { file: `now/${unit.file}`, line: unit.startLine + 1000, note: '(changed)' }),
    access: (unit) => (asked.add(unit.id), { file: `now/${unit.file}`, line: 2000, note: '(changed)' }),
    declaration: (entry) => ({ file: `now/${entry.file}`, note: '(gone)' }),
    nameNote: (id) => (asked.add(id), '(gone)'),
  };
}

describe('the Markdown pages with places given', () => {
  let handbook: Handbook;
  let organized: OrganizedHandbook;

  beforeAll(async () => {
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(FIXTURE, { database });
    handbook = openHandbook(FIXTURE, { database });
    // The fixture's stager places every unit; one taken out of its stage gives the unassigned page something to list.
    const [first, ...rest] = handbook.organized.stages;
    const left = first!.members.find((member) => member.primary)!.unit;
    organized = { ...handbook.organized, stages: [{ ...first!, members: first!.members.filter((member) => member.unit !== left), entryPoints: first!.entryPoints.filter((unit) => unit !== left) }, ...rest], unassigned: [left] };
  });

  it('links every unit, write, read and declaration where the places say, with their notes, on every page', () => {
    const asked = new Set<string>();
    const root = scratchDirectory();
    const pages = renderMarkdown({ graph: handbook.graph, organized, register: handbook.register, outDirectory: root, root, places: elsewhere(asked) });
    expect(pages.map((page) => page.path)).toContain('unassigned.md');
    let linked = 0;
    for (const page of pages) {
      const links = [...page.content.matchAll(/\[([^[\]\n]+)\]\(([^()\s]+#L\d+)\)/g)];
      linked += links.length;
      for (const [whole, text, target] of links) {
        expect(text, page.path).toMatch(/^now\/src\/.+:\d{4}$/);
        expect(target, page.path).toContain('now/src/');
        expect(page.content.slice(page.content.indexOf(whole!) + whole!.length), page.path).toMatch(/^ \(changed\)/);
      }
    }
    expect(linked).toBeGreaterThan(100);
    expect(pages.find((page) => page.path === 'unassigned.md')!.content).toMatch(/^- `[^`]+` \(\w+\) \[now\/src\/.+:\d{4}\]\(.+\) \(changed\)$/m);
    const register = pages.find((page) => page.path === 'register.md')!.content;
    expect(register).not.toMatch(/declared at /);
    expect(register).toMatch(/declared in now\/src\/tools\/validate\.ts \(gone\); stages: /);
    // Units named without a place: a stage's secondary members, and the writers and readers in its table of state.
    const secondary = pages.flatMap((page) => page.content.split('\n## ').filter((section) => section.startsWith('Also involved')).flatMap((section) => section.split('\n').filter((line) => line.startsWith('- '))));
    expect(secondary.length).toBeGreaterThan(3);
    for (const line of secondary) expect(line).toMatch(/^- `[^`]+` \(gone\)$/);
    const accessors = pages.filter((page) => page.path.startsWith('stages/')).flatMap((page) => page.content.split('\n').filter((line) => line.startsWith('| `')).flatMap((row) => row.split(' | ').slice(1, 3)));
    expect(accessors.filter((cell) => cell !== '-').length).toBeGreaterThan(10);
    for (const cell of accessors.filter((text) => text !== '-')) expect(cell).toMatch(/^`[^`]+` \(gone\)(, `[^`]+` \(gone\))*$/);
    // Every unit a page placed or named is one a reader is told to place beforehand.
    const told = unitsOnPages(organized, handbook.register);
    expect([...asked].filter((id) => !told.has(id))).toEqual([]);
    expect(asked.size).toBeGreaterThan(50);
  });
});
