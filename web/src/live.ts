import type { SyncEvent } from './types.js';

/** Follows /api/events: `hello` {generation} once per connection, then `sync` after every change on disk. */
export function followEvents(onHello: (generation: number) => void, onSync: (event: SyncEvent) => void): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource('api/events');
  const parse = (event: Event): SyncEvent | null => {
    try {
      return JSON.parse((event as MessageEvent<string>).data) as SyncEvent;
    } catch {
      return null;
    }
  };
  source.addEventListener('hello', (event) => {
    const data = parse(event);
    if (data && typeof data.generation === 'number') onHello(data.generation);
  });
  source.addEventListener('sync', (event) => {
    const data = parse(event);
    if (data) onSync(data);
  });
  return () => source.close();
}

/** "modified src/a.ts; added src/b.ts", or a rebuild when the change came from elsewhere (the lists are empty). */
export function describeSync(event: SyncEvent): string {
  const parts: string[] = [];
  for (const [word, files] of [
    ['added', event.added],
    ['modified', event.modified],
    ['removed', event.removed],
  ] as const) {
    if (files.length === 0) continue;
    const named = files.slice(0, 3).join(', ');
    parts.push(`${word} ${named}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'the handbook was rebuilt';
}
