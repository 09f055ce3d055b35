import type { Handbook } from '../api/open-handbook.js';
import type { Workspace } from '../harness/workspace.js';
import type { SourceResponse } from './api-schemas.js';
import { ApiError } from './api-error.js';

/**
 * A source file's text, read through the harness's gate (which throws PathRefused for a path
 * outside the repository, a link out of it, or .git and .handbook). Only files the handbook
 * analyzed are served: the viewer shows code, and a .env beside it is none of its business.
 */
export function sourceAnswer(handbook: Handbook, workspace: Workspace, requested: string): SourceResponse {
  const { relative } = workspace.resolve(requested, 'read');
  if (handbook.graph.unitsOfFile(relative).length === 0) throw new ApiError(404, `${relative} is not a source file of the handbook`);
  const read = workspace.readText(relative);
  if (read.status !== 'text') throw new ApiError(404, read.status === 'missing' ? `${relative} no longer exists` : `${relative} is not a text file (${read.status})`);
  return { file: read.path.relative, text: read.text };
}
