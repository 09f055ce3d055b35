import type { ServerResponse } from 'node:http';
import type { HelloEvent, SyncEvent } from './api-schemas.js';
import type { HandbookUpdates } from './handbook-updates.js';

/** Proxies and browsers drop a stream that stays silent for long; a comment line now and then keeps it open. */
const KEEP_ALIVE_MS = 15_000;

function message(event: 'hello' | 'sync', data: HelloEvent | SyncEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** /api/events: hello with the generation served now, then one sync event per change until the client goes away. */
export function streamEvents(response: ServerResponse, hello: HelloEvent, updates: HandbookUpdates, headOnly: boolean): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
  });
  if (headOnly) {
    response.end();
    return;
  }
  response.write(message('hello', hello));
  const unsubscribe = updates.subscribe((event) => response.write(message('sync', event)));
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  response.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}
