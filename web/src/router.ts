/** Hash routes: #/ · #/stage/ID · #/unit/ID · #/register · #/search?q=... · #/graph */

export type Route =
  | { view: 'overview' }
  | { view: 'stage'; id: string }
  | { view: 'unit'; id: string }
  | { view: 'register'; slot?: string }
  | { view: 'search'; query: string }
  | { view: 'graph' }
  | { view: 'missing'; path: string };

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Parses location.hash. A unit id keeps its own '#' (ids are `file#symbol`), so nothing after the prefix is cut. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  if (path === '/' || path === '') return { view: 'overview' };
  if (path.startsWith('/stage/')) return { view: 'stage', id: decode(path.slice('/stage/'.length)) };
  if (path.startsWith('/unit/')) return { view: 'unit', id: decode(path.slice('/unit/'.length)) };
  if (path === '/register') return { view: 'register' };
  if (path.startsWith('/register/')) return { view: 'register', slot: decode(path.slice('/register/'.length)) };
  if (path === '/graph') return { view: 'graph' };
  if (path === '/search' || path.startsWith('/search?')) {
    const params = new URLSearchParams(path.slice('/search'.length).replace(/^\?/, ''));
    return { view: 'search', query: params.get('q') ?? '' };
  }
  return { view: 'missing', path };
}

/** encodeURI keeps '/' and '#', so links stay readable (#/unit/src/a.ts#f) and still round-trip. */
export const href = {
  overview: (): string => '#/',
  stage: (id: string): string => `#/stage/${encodeURIComponent(id)}`,
  unit: (id: string): string => `#/unit/${encodeURI(id)}`,
  register: (slot?: string): string => (slot === undefined ? '#/register' : `#/register/${encodeURIComponent(slot)}`),
  search: (query: string): string => `#/search?q=${encodeURIComponent(query)}`,
  graph: (): string => '#/graph',
};
