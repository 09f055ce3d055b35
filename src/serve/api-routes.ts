import { askHandbook } from '../api/ask-handbook.js';
import type { Workspace } from '../harness/workspace.js';
import { ApiError } from './api-error.js';
import type { CurrentHandbook } from './current-handbook.js';
import { graphAnswer } from './graph-answer.js';
import { LiveUnits } from './live-units.js';
import { overviewAnswer, registerAnswer, stageAnswer } from './organized-answers.js';
import { primaryBehaviors, primaryStages } from './primary-stages.js';
import { sourceAnswer } from './source-answer.js';
import { unitAnswer } from './unit-answer.js';

export interface ApiContext {
  root: string;
  database: string | undefined;
  current: CurrentHandbook;
  workspace: Workspace;
}

/** The most locations one search returns, as for `handbook ask --limit`. */
const MAX_ASK_LIMIT = 500;

function required(query: URLSearchParams, name: string, what: string): string {
  const value = query.get(name);
  if (value === null || value.trim() === '') throw new ApiError(400, `pass ${name}, ${what}`);
  return value;
}

function askLimit(query: URLSearchParams): number | undefined {
  const raw = query.get('limit');
  if (raw === null) return undefined;
  const limit = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_ASK_LIMIT)) throw new ApiError(400, `limit must be a whole number from 1 to ${MAX_ASK_LIMIT}, not "${raw}"`);
  return limit;
}

/** The JSON answer of one GET under /api/ (the event stream aside); throws ApiError or a library error. */
export async function answerApi(pathname: string, query: URLSearchParams, context: ApiContext): Promise<unknown> {
  const stage = /^\/api\/stage\/([^/]+)$/.exec(pathname);
  if (stage) {
    const handbook = context.current.read();
    return stageAnswer(handbook, decodeSegment(stage[1]!), new LiveUnits(handbook));
  }
  switch (pathname) {
    case '/api/overview': {
      const handbook = context.current.read();
      return overviewAnswer(handbook, new LiveUnits(handbook));
    }
    case '/api/register': {
      const handbook = context.current.read();
      return registerAnswer(handbook, new LiveUnits(handbook));
    }
    case '/api/graph': {
      const handbook = context.current.read();
      return graphAnswer(handbook, primaryStages(handbook), primaryBehaviors(handbook));
    }
    case '/api/unit': {
      const id = required(query, 'id', 'a unit id such as src/agent/loop.ts#AgentLoop.run');
      const handbook = context.current.read();
      return unitAnswer(handbook, id, new LiveUnits(handbook), primaryStages(handbook));
    }
    case '/api/source':
      return sourceAnswer(context.current.read(), context.workspace, required(query, 'file', 'a path from the repository root'));
    case '/api/ask': {
      const request = required(query, 'q', 'the behaviour to find, in words');
      const limit = askLimit(query);
      return askHandbook(context.root, request, { ...(context.database ? { database: context.database } : {}), ...(limit === undefined ? {} : { limit }) });
    }
    default:
      throw new ApiError(404, `no API endpoint ${pathname}`);
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, `"${segment}" is not a valid URL path segment`);
  }
}
