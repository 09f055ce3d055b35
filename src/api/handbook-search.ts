import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SearchFunction } from '../harness/tool-context.js';
import { askHandbook } from './ask-handbook.js';

/** The handbook's router as the harness's search tool; undefined when the repository has no handbook to search. */
export function handbookSearch(root: string, database?: string): SearchFunction | undefined {
  if (!existsSync(database ?? path.join(root, '.handbook', 'handbook.db'))) return undefined;
  return async (query, limit) =>
    (await askHandbook(root, query, { limit, ...(database ? { database } : {}) })).locations.map((location) => ({
      file: location.file,
      symbol: location.symbol,
      line: location.line,
      endLine: location.endLine,
      hash: location.hash,
      ...(location.stage ? { stage: location.stage } : {}),
      why: location.why,
    }));
}
