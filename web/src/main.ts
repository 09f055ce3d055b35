/** The handbook viewer: header with search, hash-routed views, live updates from `handbook serve`. */
import { Api } from './api.js';
import type { View, ViewContext } from './context.js';
import { h, link } from './dom.js';
import { describeSync, followEvents } from './live.js';
import { href, parseRoute, type Route } from './router.js';
import { graphView } from './view-graph.js';
import { overviewView } from './view-overview.js';
import { registerView } from './view-register.js';
import { STATIC_SEARCH_MESSAGE, searchView } from './view-search.js';
import { stageView } from './view-stage.js';
import { unitView } from './view-unit.js';

async function start(): Promise<void> {
  const { api, overview } = await Api.detect();
  const context: ViewContext = { api, overview, askSites: new Map() };
  const body = document.body;
  body.dataset.mode = api.mode;

  const search = h('input', {
    id: 'search',
    type: 'search',
    name: 'q',
    autocomplete: 'off',
    placeholder: api.isStatic ? STATIC_SEARCH_MESSAGE : 'ask: where is … done?',
    title: api.isStatic ? STATIC_SEARCH_MESSAGE : 'describe a behaviour; press Enter',
    'aria-label': 'search the handbook',
    disabled: api.isStatic,
  });
  const form = h(
    'form',
    { class: 'search', role: 'search' },
    search,
    h('button', { type: 'submit', disabled: api.isStatic }, 'Ask'),
    api.isStatic ? h('span', { class: 'search-note' }, STATIC_SEARCH_MESSAGE) : null,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = search.value.trim();
    if (api.isStatic || query === '') return;
    const target = href.search(query);
    if (location.hash === target) void render();
    else location.hash = target;
  });
  const brand = link(href.overview(), 'handbook', 'brand');
  const navigation = {
    overview: link(href.overview(), 'Overview'),
    register: link(href.register(), 'Register'),
    graph: link(href.graph(), 'Graph'),
  };
  const notice = h('div', { id: 'notice', role: 'status', 'aria-live': 'polite', hidden: true });
  const main = h('main', { id: 'view' });
  body.replaceChildren(h('header', { class: 'top' }, brand, h('nav', {}, Object.values(navigation)), form), notice, main);

  let current: View | null = null;
  let token = 0;
  let generation = 0;
  let syncs = 0;
  let hellos = 0;
  body.dataset.sync = '0';
  let noticeTimer: number | undefined;

  function showNotice(text: string): void {
    notice.textContent = text;
    notice.hidden = false;
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(() => (notice.hidden = true), 4000);
  }

  async function load(route: Route): Promise<View> {
    switch (route.view) {
      case 'overview':
        return overviewView(context);
      case 'stage':
        return stageView(context, route.id);
      case 'unit':
        return unitView(context, route.id);
      case 'register':
        return registerView(context, route.slot);
      case 'search':
        return searchView(context, route.query);
      case 'graph':
        return graphView(context);
      case 'missing':
        return { element: h('div', { class: 'view' }, h('h1', {}, 'Not found'), h('p', {}, `No view for ${route.path}. `, link(href.overview(), 'Back to the overview'))) };
    }
  }

  async function render(reload = false): Promise<void> {
    const mine = ++token;
    const route = parseRoute(location.hash);
    body.dataset.view = route.view;
    body.dataset.loading = 'true';
    for (const [name, anchor] of Object.entries(navigation)) anchor.classList.toggle('active', name === route.view);
    if (route.view === 'search' && document.activeElement !== search) search.value = route.query;
    let view: View;
    try {
      // Every view names stages; the overview view fetches the overview itself.
      if (!context.overview && route.view !== 'overview') context.overview = await api.overview();
      view = await load(route);
    } catch (error) {
      view = { element: h('div', { class: 'view' }, h('h1', {}, 'Could not load this view'), h('p', { class: 'error' }, error instanceof Error ? error.message : String(error))) };
    }
    if (mine !== token) {
      view.dispose?.();
      return;
    }
    current?.dispose?.();
    current = view;
    main.replaceChildren(view.element);
    // A new view starts at its top, unless it is the same view reloaded after a sync.
    if (!reload) window.scrollTo(0, 0);
    view.mounted?.();
    if (context.overview) {
      generation = Math.max(generation, context.overview.generation);
      document.title = `${context.overview.name} · handbook`;
      brand.textContent = context.overview.name;
    }
    body.dataset.generation = String(generation);
    delete body.dataset.loading;
  }

  window.addEventListener('hashchange', () => void render());
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement?.tagName !== 'INPUT' && !api.isStatic) {
      event.preventDefault();
      search.focus();
    }
  });

  if (!api.isStatic) {
    followEvents(
      () => {
        // The first hello opens the stream; a later one is a reconnection, after changes it may have missed.
        if (++hellos > 1) {
          context.overview = null;
          void render(true);
        }
      },
      (event) => {
        context.overview = null;
        void render(true).then(() => {
          generation = Math.max(generation, event.generation);
          body.dataset.generation = String(generation);
          // A sync may update the current generation in place: this counter changes on every one.
          body.dataset.sync = String(++syncs);
          showNotice(`updated: ${describeSync(event)}`);
        });
      },
    );
  }
  await render();
}

void start();
