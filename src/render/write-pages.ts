import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RenderedPage } from './render-markdown.js';

/** Writes the pages and removes stale ones (a stage that no longer exists), so the folder is exactly the handbook. */
export function writePages(outDirectory: string, pages: readonly RenderedPage[]): void {
  mkdirSync(path.join(outDirectory, 'stages'), { recursive: true });
  const wanted = new Set(pages.map((page) => page.path));
  for (const existing of readdirSync(path.join(outDirectory, 'stages'))) {
    if (existing.endsWith('.md') && !wanted.has(`stages/${existing}`)) rmSync(path.join(outDirectory, 'stages', existing));
  }
  for (const name of ['overview.md', 'register.md', 'unassigned.md']) if (!wanted.has(name)) rmSync(path.join(outDirectory, name), { force: true });
  for (const page of pages) writeFileSync(path.join(outDirectory, page.path), page.content.endsWith('\n') ? page.content : `${page.content}\n`);
}
