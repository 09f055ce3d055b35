import { h, link } from './dom.js';
import { href } from './router.js';
import type { UnitNeighbour, UnitRef } from './types.js';

/** A list of units, each a link to its unit view, with where it is. */
export function unitList(refs: UnitRef[], empty = 'none'): HTMLElement {
  if (refs.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'ul',
    { class: 'units' },
    refs.map((ref) => h('li', {}, link(href.unit(ref.unit), ref.symbol, 'unit'), ' ', h('span', { class: 'where' }, `${ref.file}:${ref.line}`))),
  );
}

/**
 * A unit's callers or callees, each a link to its unit view, with where its code stands now: a
 * caller at its call when the code holding the call is unchanged, else at its own first line; a
 * neighbour edited, moved or gone since the build carries its badge.
 */
export function neighbourList(neighbours: UnitNeighbour[]): HTMLElement {
  if (neighbours.length === 0) return h('p', { class: 'muted' }, 'none');
  return h(
    'ul',
    { class: 'units' },
    neighbours.map((neighbour) =>
      h(
        'li',
        {},
        link(href.unit(neighbour.unit), neighbour.symbol, 'unit'),
        ' ',
        h('span', { class: 'where' }, neighbour.liveFile === undefined ? 'gone' : `${neighbour.liveFile}:${neighbour.liveCallLine ?? neighbour.liveLine}`),
        neighbour.status === 'fresh' ? null : [' ', freshnessBadge(neighbour.status, neighbour.reason)],
      ),
    ),
  );
}

export function section(title: string, ...children: (Node | string | null)[]): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...children);
}

export function freshnessBadge(status: string, reason?: string): HTMLElement {
  return h('span', { class: `badge freshness freshness-${status}`, title: reason ?? status }, status);
}
