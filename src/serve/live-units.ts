import { liveResolverOf } from '../api/live-resolution.js';
import type { Handbook } from '../api/open-handbook.js';
import type { Unit } from '../graph/model.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import type { LiveResolver, ResolvedLocation } from '../locate/live-resolver.js';

/**
 * Where units stand in the files on disk now. The resolver reads files by path from the root, so
 * the harness's gate judges each path first: a file swapped since the build for a link out of
 * the repository (or into .git) is reported frozen, never read. One instance judges and reads
 * each file once; make a new one to see later edits.
 */
export class LiveUnits {
  private readonly workspace: Workspace;
  private readonly resolver: LiveResolver;
  // The register lists a file's units many times over (each writer and reader of every slot): the gate judges each path once.
  private readonly refusals = new Map<string, string | undefined>();

  constructor(handbook: Handbook) {
    this.workspace = new Workspace(handbook.root);
    this.resolver = liveResolverOf(handbook);
  }

  async resolve(unit: Unit): Promise<ResolvedLocation> {
    const refused = this.refusalOf(unit.file);
    if (refused !== undefined) return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: refused };
    return this.resolver.resolve(unit);
  }

  /** Why the gate refuses to read a file, or undefined when it may be read. */
  private refusalOf(file: string): string | undefined {
    if (!this.refusals.has(file)) this.refusals.set(file, this.judge(file));
    return this.refusals.get(file);
  }

  private judge(file: string): string | undefined {
    try {
      this.workspace.resolve(file, 'read');
      return undefined;
    } catch (error) {
      if (error instanceof PathRefused) return error.message;
      throw error;
    }
  }
}
