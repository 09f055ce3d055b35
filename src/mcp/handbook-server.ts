import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SyncOptions } from '../api/live-handbook.js';
import { HandbookError } from '../errors.js';
import { FreshHandbook } from './fresh-handbook.js';
import { registerHandbookPages } from './handbook-pages.js';
import { registerHandbookTools } from './handbook-tools.js';
import { type InputThread, readOnThread } from './input-thread.js';

export interface HandbookServerOptions {
  /** Database file; `<repo>/.handbook/handbook.db` by default. */
  database?: string;
  /** Provider settings for the syncs before each answer when the handbook was built with a model. */
  provider?: SyncOptions['provider'];
  /** Where log lines go; never stdout, which carries the protocol. Standard error by default. */
  log?: (line: string) => void;
  /** Whether no one will read the answers any more, so a sync in progress may be abandoned; never by default. */
  stopping?: () => boolean;
}

export interface ServeOptions extends HandbookServerOptions {
  /** Stops serving, as the end of input does. */
  signal?: AbortSignal;
  /** The protocol streams; the process's stdin (read on a thread of its own) and stdout by default. */
  input?: Readable;
  output?: Writable;
}

const VERSION = '0.1.0';

/** Quiet after the client's initialized notification before warming up: its listing requests come within milliseconds. */
const WARM_UP_DELAY_MS = 500;

const INSTRUCTIONS = `This server answers questions about one repository (an AI-agent harness) from its handbook: a program graph of the code, grouped into execution stages, with a register of shared state.
Start with overview (stages in order) or ask (where a behaviour is implemented). entry gives one unit with its callers and callees; register gives who writes and reads shared state; resolve checks a locator (file, symbol, hash) from an earlier answer against the code on disk now; plan turns a change request into a checked edit plan without touching source; status says whether the handbook matches the files.
Before every answer the server re-syncs the files that changed on disk since the previous one, so answers reflect the code as it is now; each answer's freshness field lists what was re-synced and any entry whose code is gone (frozen). Locations are paths from the repository root with 1-based lines.`;

function describe(error: unknown): string {
  if (HandbookError.isInstance(error)) return `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

function stderrLog(line: string): void {
  process.stderr.write(`handbook mcp: ${line}\n`);
}

/** An MCP server over the handbook of one repository: eight tools and the rendered pages as resources. */
export function createHandbookServer(repo: string, options: HandbookServerOptions = {}): { server: McpServer; handbook: FreshHandbook } {
  const log = options.log ?? stderrLog;
  const handbook = new FreshHandbook(repo, {
    ...(options.database ? { database: options.database } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.stopping ? { stopping: options.stopping } : {}),
    log,
  });
  const server = new McpServer({ name: 'handbook', title: 'Harness handbook', version: VERSION }, { instructions: INSTRUCTIONS });
  registerHandbookTools(server, handbook, log);
  registerHandbookPages(server, handbook);
  return { server, handbook };
}

/**
 * `handbook mcp`: serves the handbook over stdio until the input ends (the client went away),
 * the output breaks, or the signal fires; then abandons a sync in progress at its next progress
 * report, waiting only for a write it has begun, and closes the database. The first sync starts
 * once the client has initialized and listed what it needs, so its first call does not pay for
 * opening the analysis.
 */
export async function serveHandbook(repo: string, options: ServeOptions = {}): Promise<void> {
  const reader: InputThread = options.input ? { stream: options.input, ended: () => false, close: async () => undefined } : readOnThread(0);
  try {
    await serveFrom(reader, repo, options);
  } finally {
    await reader.close();
  }
}

async function serveFrom(reader: InputThread, repo: string, options: ServeOptions): Promise<void> {
  const log = options.log ?? stderrLog;
  const input = reader.stream;
  const output = options.output ?? process.stdout;
  let over = false;
  // The reader's flag too: the end event that settles `ended` waits for a sync holding the thread to finish.
  const stopping = (): boolean => over || reader.ended();
  const { server, handbook } = createHandbookServer(repo, { ...(options.database ? { database: options.database } : {}), ...(options.provider ? { provider: options.provider } : {}), log, stopping });
  const ended = new Promise<string>((resolve) => {
    input.once('end', () => resolve('the client closed the connection'));
    input.once('close', () => resolve('the client closed the connection'));
    // A client gone while an answer is written is a broken pipe; the listener stays so a second write error is no crash.
    output.on('error', (error) => resolve(`the client stopped reading (${error.message})`));
    if (options.signal?.aborted) resolve('stopped');
    options.signal?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  server.server.onerror = (error) => log(`protocol error: ${error.message}`);
  // Warming up parses the whole repository without yielding (20 s on a large harness), and no
  // message is read meanwhile: started at once, it held up the tools/list every client sends
  // right after initializing. It waits for that burst, and does not start for a client gone by then.
  let warmUp: NodeJS.Timeout | undefined;
  server.server.oninitialized = () => {
    warmUp = setTimeout(() => {
      handbook.warmUp().then(
        (generation) => generation === undefined || log(`ready: handbook generation ${generation}`),
        (error: unknown) => log(`not ready: ${describe(error)}`),
      );
    }, WARM_UP_DELAY_MS);
  };
  await server.connect(new StdioServerTransport(input, output));
  log(`serving ${handbook.root} over stdio`);
  log(`${await ended}; shutting down`);
  over = true;
  clearTimeout(warmUp);
  await server.close();
  await handbook.close();
}
