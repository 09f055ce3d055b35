import { liveResolverOf } from '../api/live-resolution.js';
import type { Handbook } from '../api/open-handbook.js';
import type { Unit } from '../graph/model.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import type { LiveResolver, ResolvedLocation } from '../locate/live-resolver.js';

/**
 * Where units stand in the files on disk now. The resolver reads files by path from the root, so
 * the harness's gate judges each path first: a file swapped since the build for a link out of
 * the repository (or into .git) is reported frozen, never read. One instance reads each file
 * once; make a new one to see later edits.
 */
export class LiveUnits {
  private readonly workspace: Workspace;
  private readonly resolver: LiveResolver;

  constructor(handbook: Handbook) {
    this.workspace = new Workspace(handbook.root);
    this.resolver = liveResolverOf(handbook);
  }

  async resolve(unit: Unit): Promise<ResolvedLocation> {
    try {
      this.workspace.resolve(unit.file, 'read');
    } catch (error) {
      if (error instanceof PathRefused) return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: error.message };
      throw error;
    }
    return this.resolver.resolve(unit);
  }
}
