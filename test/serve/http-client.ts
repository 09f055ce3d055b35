import { request as httpRequest, type IncomingMessage } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  json(): any;
}

/**
 * One request with node:http, not fetch: the tests send what a browser would not (a foreign
 * Host, a path with `..` left in it, any method).
 */
export function send(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }), ...options.headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: () => JSON.parse(body) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export interface ServerEvent {
  event: string;
  data: any;
}

export interface EventStream {
  events: ServerEvent[];
  /** The first event, from the start of the stream, that satisfies `predicate`. */
  next(predicate: (event: ServerEvent) => boolean, timeoutMs?: number): Promise<ServerEvent>;
  /** Raw text received, comments included. */
  raw(): string;
  close(): void;
}

/** Reads /api/events as a browser's EventSource would: blocks split by a blank line, each `event:` and `data:`. */
export function openEvents(base: string): Promise<EventStream> {
  const url = new URL('/api/events', base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, (response) => {
      let raw = '';
      let pending = '';
      const events: ServerEvent[] = [];
      const waiters: Array<{ predicate: (event: ServerEvent) => boolean; resolve: (event: ServerEvent) => void }> = [];
      response.setEncoding('utf8');
      // close() cuts the stream mid-response, which ends it with an error by design.
      response.on('error', () => undefined);
      response.on('data', (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const fields = new Map(block.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
          if (!fields.has('event')) continue;
          const event = { event: fields.get('event')!, data: JSON.parse(fields.get('data') ?? 'null') };
          events.push(event);
          for (const waiter of waiters.filter((candidate) => candidate.predicate(event))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(event);
          }
        }
      });
      resolve({
        events,
        raw: () => raw,
        next: (predicate, timeoutMs = 20_000) => {
          const seen = events.find(predicate);
          if (seen) return Promise.resolve(seen);
          return new Promise((found, fail) => {
            const timer = setTimeout(() => fail(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(events)}`)), timeoutMs);
            waiters.push({ predicate, resolve: (event) => (clearTimeout(timer), found(event)) });
          });
        },
        close: () => outgoing.destroy(),
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
