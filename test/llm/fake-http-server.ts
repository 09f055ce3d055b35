import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** One request as the fake server received it, body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the server does with one request. */
export type ScriptedReply =
  /** 200 with an SSE body, each frame written separately so the client reads it as a stream. */
  | { kind: 'stream'; frames: string[] }
  /** Writes the frames, then destroys the connection without ending the response. */
  | { kind: 'cut'; frames: string[] }
  /** Writes the frames, then neither ends nor closes: a stream that stalls. */
  | { kind: 'stall'; frames: string[] }
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** Never answers: for timeouts. */
  | { kind: 'hang' };

export interface FakeServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /**
   * Settles once the nth response has closed: sent whole, or its connection gone. A `stall`
   * reply is never sent whole, so for one this is the client hanging up.
   */
  responseClosed(index: number): Promise<void>;
}

/**
 * A local HTTP server on an ephemeral port that answers the nth request with the nth reply
 * (the last one repeats), or with what a function of the request returns, and records every request. It closes when the test finishes.
 * `route` rejects requests to any other path with a 404, as a real API would.
 */
export async function startFakeServer(
  route: { method: 'POST'; path: string },
  replies: ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply),
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const closings: Array<Promise<void>> = [];
  const server = createServer((request, response) => {
    const closing = new Promise<void>((resolve) => response.once('close', () => resolve()));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: parseJsonOrText(text) });
      closings.push(closing);
      if (request.method !== route.method || request.url !== route.path) {
        sendJson(response, 404, { error: { type: 'not_found_error', message: `no route for ${request.method} ${request.url}` } });
        return;
      }
      const reply = typeof replies === 'function' ? replies(requests[requests.length - 1]!, requests.length - 1) : replies[Math.min(requests.length, replies.length) - 1];
      if (!reply) throw new Error('startFakeServer needs at least one reply');
      play(reply, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const responseClosed = (index: number): Promise<void> => closings[index] ?? Promise.reject(new Error(`no request ${index} has arrived`));
  return { url: `http://127.0.0.1:${port}`, requests, responseClosed };
}

function play(reply: ScriptedReply, response: ServerResponse): void {
  switch (reply.kind) {
    case 'json':
      sendJson(response, reply.status, reply.body, reply.headers);
      return;
    case 'hang':
      return;
    case 'stream':
    case 'cut':
    case 'stall':
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of reply.frames) response.write(frame);
      if (reply.kind === 'stream') response.end();
      // Destroying at once would discard the frames still queued; cut only once they have been sent.
      if (reply.kind === 'cut') response.write('', () => setTimeout(() => response.socket?.destroy(), 20));
      return;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The port of a server that has just closed, so connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
