import { h, link } from './dom.js';
import { href } from './router.js';
import type { UnitRef } from './types.js';

/** A list of units, each a link to its unit view, with where it is. */
export function unitList(refs: UnitRef[], empty = 'none'): HTMLElement {
  if (refs.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'ul',
    { class: 'units' },
    refs.map((ref) => h('li', {}, link(href.unit(ref.unit), ref.symbol, 'unit'), ' ', h('span', { class: 'where' }, `${ref.file}:${ref.line}`))),
  );
}

export function section(title: string, ...children: (Node | string | null)[]): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...children);
}

export function freshnessBadge(status: string, reason?: string): HTMLElement {
  return h('span', { class: `badge freshness freshness-${status}`, title: reason ?? status }, status);
}
