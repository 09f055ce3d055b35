import { h, link } from './dom.js';
import { href } from './router.js';
import type { AccessSite, LiveSite, UnitNeighbour } from './types.js';

/**
 * Units an answer lists, each a link to its unit view, with where its code stands now: at `lineOf`
 * (a place inside it, such as a call or an access) where the build's line still says where that is,
 * else at its own first line; a unit edited, moved or gone since the build carries its badge. A
 * unit without live fields stands where the build put it: its site is where its code is.
 */
export function liveSiteList<T extends LiveSite>(sites: T[], empty = 'none', lineOf: (site: T) => number | undefined = () => undefined): HTMLElement {
  if (sites.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'ul',
    { class: 'units' },
    sites.map((site) => h('li', {}, link(href.unit(site.unit), site.symbol, 'unit'), ' ', h('span', { class: 'where' }, liveWhere(site, lineOf(site))), liveBadge(site))),
  );
}

/** Where a listed unit's code stands now, at `line` when given, as its list shows it: `file:line`, or gone. */
export function liveWhere(site: LiveSite, line?: number): string {
  return site.status === 'frozen' ? 'gone' : `${site.liveFile ?? site.file}:${line ?? site.liveLine ?? site.line}`;
}

/** The badge of a listed unit edited, moved or gone since the build, after a space; nothing when fresh. */
export function liveBadge(site: LiveSite): (Node | string)[] | null {
  return site.status === undefined || site.status === 'fresh' ? null : [' ', freshnessBadge(site.status, site.reason)];
}

/** A unit's callers (each at its call where the code holding it is unchanged) or callees. */
export function neighbourList(neighbours: UnitNeighbour[]): HTMLElement {
  return liveSiteList(neighbours, 'none', (neighbour) => neighbour.liveCallLine);
}

/** A slot's writers or readers, each at its first access where the code holding it is unchanged. */
export function accessList(accessors: AccessSite[]): HTMLElement {
  return liveSiteList(accessors, 'none', (accessor) => accessor.liveAccessLine);
}

export function section(title: string, ...children: (Node | string | null)[]): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...children);
}

export function freshnessBadge(status: string, reason?: string): HTMLElement {
  return h('span', { class: `badge freshness freshness-${status}`, title: reason ?? status }, status);
}
