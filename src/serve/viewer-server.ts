import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertRepositoryRoot } from '../analyze/repository-root.js';
import { HandbookError } from '../errors.js';
import { Workspace } from '../harness/workspace.js';
import { databasePathFor, refuseUnbuildableDatabase } from '../store/open-database.js';
import { ApiError, apiErrorOf, isUnexpected } from './api-error.js';
import { answerApi, type ApiContext } from './api-routes.js';
import { CurrentHandbook } from './current-handbook.js';
import { DatabaseVersion } from './database-version.js';
import { streamEvents } from './event-stream.js';
import { HandbookUpdates, type HandbookUpdatesOptions } from './handbook-updates.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from './viewer-defaults.js';
import { appFile, WEB_APP_FOLDER } from './web-app.js';

export { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT };

export interface ViewerServerOptions {
  /** 0 takes any free port; 4173 by default. */
  port?: number;
  /** The address to listen on; 127.0.0.1 (this machine only) by default. */
  host?: string;
  /** Database file; `<repo>/.handbook/handbook.db` by default. */
  database?: string;
  /** The built browser app; `<package>/dist/web` by default. */
  app?: string;
  /** Quiet time after the last file change before the watcher syncs. */
  debounceMs?: number;
  /** Provider settings for the watcher's syncs when the handbook was built with a model. */
  provider?: HandbookUpdatesOptions['provider'];
  /** Where log lines go; standard error by default. */
  log?: (line: string) => void;
}

export interface ViewerServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /** The repository served, absolute. */
  root: string;
  /** Stops serving and watching; a sync in progress is stored whole first. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The app loads nothing from elsewhere and is never framed: a page that tried would get nothing.
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

function stderrLog(line: string): void {
  process.stderr.write(`handbook serve: ${line}\n`);
}

/**
 * `handbook serve`: the web viewer over the handbook of one repository. Read-only: only GET and
 * HEAD are answered, source files are read through the harness's gate, and the watcher it runs
 * writes only the handbook's own database. Bound to loopback, it also refuses requests whose Host
 * is not a loopback name, so a web page cannot reach it by pointing its own domain at 127.0.0.1.
 */
export async function startViewerServer(repo: string, options: ViewerServerOptions = {}): Promise<ViewerServer> {
  const root = assertRepositoryRoot(repo);
  const log = options.log ?? stderrLog;
  const host = options.host ?? DEFAULT_VIEWER_HOST;
  const app = options.app ?? WEB_APP_FOLDER;
  const database = databasePathFor(root, options.database);
  refuseUnbuildableDatabase(database);
  const version = new DatabaseVersion(database);
  const context: ApiContext = { root, database: options.database, current: new CurrentHandbook(root, options.database, version), workspace: new Workspace(root) };
  const updates = new HandbookUpdates(root, version, { log, ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }), ...(options.provider ? { provider: options.provider } : {}) });
  const onlyLoopbackNames = LOOPBACK_HOSTS.has(host);

  const server = createServer((request, response) => {
    try {
      handle(request, response);
    } catch (error) {
      fail(response, error);
    }
  });

  function handle(request: IncomingMessage, response: ServerResponse): void {
    // A request body is never read; draining it keeps the connection usable.
    request.resume();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      throw new ApiError(405, `${request.method ?? 'this method'} is not served: the viewer only reads (GET and HEAD)`);
    }
    if (onlyLoopbackNames && !LOOPBACK_HOSTS.has(hostnameOf(request.headers.host))) throw new ApiError(403, 'this server answers only requests addressed to localhost or 127.0.0.1');
    // A browser says when another site sent the request: blind requests from a page elsewhere would still cost work.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new ApiError(403, 'this server answers only its own pages');
    const { pathname, searchParams } = parseRequestUrl(request.url);
    if (pathname === '/api/events') {
      streamEvents(response, { generation: safeGeneration(version) }, updates, request.method === 'HEAD');
      return;
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      answerApi(pathname, searchParams, context)
        .then((answer) => send(response, 200, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(answer), 'utf8')))
        .catch((error: unknown) => fail(response, error));
      return;
    }
    const file = appFile(app, pathname);
    send(response, 200, file.contentType, file.bytes);
  }

  function fail(response: ServerResponse, error: unknown): void {
    const failure = apiErrorOf(error, version.deleted());
    if (isUnexpected(error)) log(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    send(response, failure.status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify({ error: failure.message }), 'utf8'));
  }

  await listen(server, options.port ?? DEFAULT_VIEWER_PORT, host);
  updates.start();
  // It serves anyway, and shows the handbook once one is built: the note keeps an empty page from looking broken.
  if (!existsSync(database)) log(`no handbook at ${database} yet: run \`handbook build ${root}\`; the open page shows it once it is built`);
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    root,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Event streams never end by themselves; closing their connections lets the server finish closing.
        server.closeAllConnections();
        await closed;
        await updates.close();
        version.close();
      })()),
  };
}

function send(response: ServerResponse, status: number, contentType: string, body: Buffer): void {
  // A HEAD answer carries the same headers; Node leaves out its body.
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': contentType, 'content-length': body.length, 'cache-control': 'no-store' });
  response.end(body);
}

function hostnameOf(header: string | undefined): string {
  if (!header) return '';
  return header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.replace(/:\d*$/, '');
}

function safeGeneration(version: DatabaseVersion): number {
  try {
    return version.generation();
  } catch {
    return 0;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE') reject(new HandbookError('INVALID_INPUT', `port ${port} on ${host} is in use`, 'pass another --port, or --port 0 for any free one'));
      else if (error.code === 'EACCES') reject(new HandbookError('INVALID_INPUT', `this user may not listen on port ${port}`, 'pass a port of 1024 or above, or --port 0 for any free one'));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new HandbookError('INVALID_INPUT', `cannot listen on ${host}: no such address on this machine`, 'pass --host 127.0.0.1, or an address of this machine'));
      else reject(error);
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
}

/** A request line the URL parser cannot read is the client's mistake, answered 400, not a server bug. */
function parseRequestUrl(url: string | undefined): URL {
  try {
    return new URL(url ?? '/', 'http://viewer.invalid');
  } catch {
    throw new ApiError(400, 'not a valid request URL');
  }
}
