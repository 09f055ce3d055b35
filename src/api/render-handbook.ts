import path from 'node:path';
import { renderMarkdown, type RenderedPage } from '../render/render-markdown.js';
import { writePages } from '../render/write-pages.js';
import { openHandbook } from './open-handbook.js';

export interface RenderOptions {
  database?: string;
  /** Output folder; `<repo>/.handbook/markdown` by default. */
  out?: string;
  /** false renders in memory only, e.g. to check that a committed handbook is fresh. */
  write?: boolean;
}

/** Renders the current handbook to Markdown pages in a folder and returns what it wrote. */
export function renderHandbook(root: string, options: RenderOptions = {}): { outDirectory: string; pages: RenderedPage[] } {
  const handbook = openHandbook(root, options.database ? { database: options.database } : {});
  const outDirectory = path.resolve(options.out ?? path.join(handbook.root, '.handbook', 'markdown'));
  const pages = renderMarkdown({ graph: handbook.graph, organized: handbook.organized, register: handbook.register, outDirectory, root: handbook.root });
  if (options.write !== false) writePages(outDirectory, pages);
  return { outDirectory, pages };
}
