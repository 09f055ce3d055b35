import { freshnessBadge } from './components.js';
import type { View, ViewContext } from './context.js';
import { stageName } from './context.js';
import { h, plural } from './dom.js';
import { href } from './router.js';
import type { AskLocation } from './types.js';

export const STATIC_SEARCH_MESSAGE = 'search needs `handbook serve`';

export async function searchView(context: ViewContext, query: string): Promise<View> {
  if (context.api.isStatic) {
    return { element: h('div', { class: 'view search' }, h('h1', {}, 'Search'), h('p', { class: 'muted' }, STATIC_SEARCH_MESSAGE)) };
  }
  if (query.trim() === '') {
    return { element: h('div', { class: 'view search' }, h('h1', {}, 'Search'), h('p', { class: 'muted' }, 'Describe a behaviour in the search box, e.g. “where is the retry policy?”')) };
  }
  const result = await context.api.ask(query);
  context.askSites.clear();
  const groups = new Map<string, AskLocation[]>();
  for (const location of result.locations) {
    context.askSites.set(`${location.file}#${location.symbol}`, location);
    const key = location.stage ?? '';
    const group = groups.get(key) ?? [];
    group.push(location);
    groups.set(key, group);
  }
  const element = h(
    'div',
    { class: 'view search' },
    h('h1', {}, 'Search'),
    h('p', { class: 'meta' }, `${plural(result.locations.length, 'location')} for “${result.request}” (${result.router} router, ${result.stager.kind === 'llm' ? `stages by ${result.stager.model}` : 'offline stager'})`),
    result.note ? h('p', { class: 'notice-inline' }, result.note) : null,
    result.frozen > 0 ? h('p', { class: 'notice-inline' }, `${result.frozen} frozen ${result.frozen === 1 ? 'entry' : 'entries'} left out: their code was not found on disk.`) : null,
    result.locations.length === 0 ? h('p', { class: 'muted' }, 'Nothing found.') : null,
    [...groups.entries()].map(([stage, locations]) =>
      h(
        'section',
        { class: 'result-group', 'data-stage': stage },
        h('h2', {}, stage ? h('a', { href: href.stage(stage) }, stageName(context, stage)) : '(no stage)'),
        byBehavior(locations).map((group) =>
          h(
            'div',
            { class: 'behavior-group', 'data-behavior': group[0]!.behavior?.id ?? '' },
            group[0]!.behavior ? h('h3', { class: 'behavior' }, group[0]!.behavior.name) : null,
            resultList(group),
          ),
        ),
      ),
    ),
  );
  return { element };
}

/** A stage's locations by behaviour, each behaviour where its best location stands. */
function byBehavior(locations: AskLocation[]): AskLocation[][] {
  const groups = new Map<string, AskLocation[]>();
  for (const location of locations) {
    const key = location.behavior?.id ?? '';
    groups.set(key, [...(groups.get(key) ?? []), location]);
  }
  return [...groups.values()];
}

function resultList(locations: AskLocation[]): HTMLElement {
  return h(
    'ol',
    { class: 'results' },
    locations.map((location) =>
      h(
        'li',
        {},
        h(
          'a',
          { class: 'result', href: href.unit(`${location.file}#${location.symbol}`) },
          h('span', { class: 'symbol' }, location.symbol),
          ' ',
          h('span', { class: 'where' }, `${location.file}:${location.line}`),
        ),
        ' ',
        h('span', { class: 'score', title: 'score' }, location.score.toFixed(2)),
        ' ',
        location.status !== 'fresh' ? freshnessBadge(location.status) : null,
        h('div', { class: 'why' }, location.why),
      ),
    ),
  );
}
