import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { liveResolverOf } from '../api/live-resolution.js';
import { HandbookError } from '../errors.js';
import { livePagePlaces } from '../locate/live-page-places.js';
import type { PagePlaces } from '../render/page-places.js';
import { type RenderedPage, renderMarkdown, unitsOnPages } from '../render/render-markdown.js';
import type { FreshHandbook, FreshView } from './fresh-handbook.js';

const SCHEME = 'handbook://';
/** The MCP specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** `stages/agent-loop.md` is served as handbook://stages/agent-loop. */
function uriOf(page: RenderedPage): string {
  return `${SCHEME}${page.path.replace(/\.md$/, '')}`;
}

function titleOf(page: RenderedPage): string {
  return page.content.match(/^# (.+)$/m)?.[1] ?? page.path;
}

/**
 * Renders the pages in memory, as `handbook render` would write them into the repository root:
 * links to source then read as paths from the root (one level up from a stage page). With
 * `places`, each unit and declaration is linked where it stands then, not where the build saw it.
 */
function renderPages(view: FreshView, places?: PagePlaces): RenderedPage[] {
  const { graph, organized, register } = view.handbook();
  return renderMarkdown({ graph, organized, register, outDirectory: view.root, root: view.root, ...(places ? { places } : {}) });
}

/**
 * Where the code the pages list stands on disk now. The sync before the read brought the handbook
 * in step with the files it read, but code edited during or after that read (an agent at work, a
 * sync of many seconds) would otherwise be linked at lines that no longer hold it.
 */
function livePlacesFor(view: FreshView): Promise<PagePlaces> {
  const handbook = view.handbook();
  return livePagePlaces(handbook.graph, handbook.register, unitsOnPages(handbook.organized, handbook.register), liveResolverOf(handbook));
}

/** What the list of pages shows: their names and titles follow the project's title, the stages, and whether any unit is unassigned. */
function listingOf(view: FreshView): string {
  const { organized } = view.handbook();
  return JSON.stringify([organized.overview.title, organized.stages.map((stage) => [stage.id, stage.name]), organized.unassigned.length > 0]);
}

/** The rendered Markdown pages (overview, one per stage, register, unassigned) as resources, synced before every read. */
export function registerHandbookPages(server: McpServer, fresh: FreshHandbook): void {
  // What the client was last given as the list, and the handbook it was read from: a client that
  // listed the pages keeps that list until told it changed (a first build, stages placed anew).
  let listed: string | undefined;
  let readFrom: number | undefined;
  fresh.afterSync((view) => {
    if (listed === undefined || (view.sync.upToDate && view.sync.generation === readFrom)) return;
    readFrom = view.sync.generation;
    const listing = listingOf(view);
    if (listing === listed) return;
    listed = listing;
    if (server.isConnected()) server.sendResourceListChanged();
  });
  const template = new ResourceTemplate(`${SCHEME}{+page}`, {
    // A client lists resources as it connects; before the first build there are none, and the tools say why.
    list: () =>
      readable(() =>
        fresh
          .answer(async (view) => {
            listed = listingOf(view);
            readFrom = view.sync.generation;
            return { resources: renderPages(view).map((page) => ({ uri: uriOf(page), name: page.path.replace(/\.md$/, ''), title: titleOf(page), mimeType: 'text/markdown' })) };
          })
          .catch((error: unknown) => {
            if (HandbookError.isInstance(error) && error.code === 'NO_HANDBOOK') {
              listed = '';
              return { resources: [] };
            }
            throw error;
          }),
      ),
  });
  server.registerResource(
    'handbook-page',
    template,
    {
      title: 'Handbook pages',
      description: 'The handbook as Markdown: handbook://overview (what the code is, its stages in order), handbook://stages/<stage id> (one stage), handbook://register (shared state), handbook://unassigned (units no stage claimed, when there are any). Each link points where the code stands as the page is read; code edited since the handbook last read it is marked (changed), moved code (moved from FILE), deleted code (gone), with no line.',
      mimeType: 'text/markdown',
    },
    (uri, variables) =>
      readable(() =>
        fresh.answer(async (view) => {
          const pages = renderPages(view, await livePlacesFor(view));
          const page = pages.find((candidate) => uriOf(candidate) === uri.href || candidate.path === `${String(variables.page)}.md`);
          if (!page) throw new McpError(RESOURCE_NOT_FOUND, `no handbook page ${uri.href}; pages: ${pages.map(uriOf).join(', ')}`);
          return { contents: [{ uri: uriOf(page), mimeType: 'text/markdown', text: page.content }] };
        }),
      ),
  );
}

/**
 * Resources have no error result: a library error becomes the protocol error, in its one line.
 * Before the first build no page exists, which the protocol says with its own code, not as an
 * internal error of the server.
 */
async function readable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!HandbookError.isInstance(error)) throw error;
    const message = `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
    throw error.code === 'NO_HANDBOOK' ? new McpError(RESOURCE_NOT_FOUND, message) : new Error(message);
  }
}
