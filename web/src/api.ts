/**
 * The API client. Live mode talks to `handbook serve` under api/; static mode (a folder written by
 * `handbook render --html DIR`) reads the same answers from JSON files under data/.
 * Every URL is relative to the page, so the viewer also works below a path prefix.
 */
import { unitFileName } from '../../src/serve/unit-file-name.js';
import type { AskResult, GraphData, Overview, Register, SourceFile, StageDetail, UnitDetail } from './types.js';

export type Mode = 'live' | 'static';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}


/** Path of a stage's answer in a static export. */
function staticStagePath(id: string): string {
  return `data/stages/${encodeURIComponent(id)}.json`;
}

/** Path of a source file's answer in a static export: data/sources/<relative path>.json. */
function staticSourcePath(file: string): string {
  return `data/sources/${file.split('/').map(encodeURIComponent).join('/')}.json`;
}

async function getJson<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (error) {
    throw new ApiError(`cannot reach the server (${String(error)})`, 0);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(response.ok ? `not JSON: ${url}` : `${response.status} ${response.statusText}`, response.status);
  }
  if (!response.ok) {
    const message = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : response.statusText;
    throw new ApiError(message, response.status);
  }
  return body as T;
}

export class Api {
  private constructor(readonly mode: Mode) {}

  /**
   * Live when api/overview answers; static when data/static.json says `{static: true}`. The live
   * probe goes first so a served viewer makes no failing request; its overview is kept.
   */
  static async detect(): Promise<{ api: Api; overview: Overview | null }> {
    try {
      const response = await fetch('api/overview', { cache: 'no-store', headers: { accept: 'application/json' } });
      if (response.ok && (response.headers.get('content-type') ?? '').includes('json')) return { api: new Api('live'), overview: (await response.json()) as Overview };
      // A live server without a handbook answers with an error: still live.
      if (response.status === 503 || response.status === 500) return { api: new Api('live'), overview: null };
    } catch {
      // no server behind the page
    }
    try {
      const response = await fetch('data/static.json', { cache: 'no-store' });
      if (response.ok) {
        const body = (await response.json()) as { static?: unknown };
        if (body && body.static === true) return { api: new Api('static'), overview: null };
      }
    } catch {
      // not a static site either
    }
    return { api: new Api('live'), overview: null };
  }

  get isStatic(): boolean {
    return this.mode === 'static';
  }

  overview(): Promise<Overview> {
    return getJson(this.isStatic ? 'data/overview.json' : 'api/overview');
  }

  stage(id: string): Promise<StageDetail> {
    return getJson(this.isStatic ? staticStagePath(id) : `api/stage/${encodeURIComponent(id)}`);
  }

  register(): Promise<Register> {
    return getJson(this.isStatic ? 'data/register.json' : 'api/register');
  }

  unit(id: string): Promise<UnitDetail> {
    return getJson(this.isStatic ? `data/units/${unitFileName(id)}.json` : `api/unit?id=${encodeURIComponent(id)}`);
  }

  source(file: string): Promise<SourceFile> {
    return getJson(this.isStatic ? staticSourcePath(file) : `api/source?file=${encodeURIComponent(file)}`);
  }

  ask(request: string, limit = 20): Promise<AskResult> {
    if (this.isStatic) return Promise.reject(new ApiError('search needs `handbook serve`', 503));
    return getJson(`api/ask?q=${encodeURIComponent(request)}&limit=${limit}`);
  }

  graph(): Promise<GraphData> {
    return getJson(this.isStatic ? 'data/graph.json' : 'api/graph');
  }
}
