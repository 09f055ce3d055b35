import type { TreeNode } from './syntax-tree.js';

/**
 * What a front end read of each declaration of a file, kept between extractions of the file in a
 * warm session, by the declaration's node. An edit leaves every declaration but the one it touches
 * as it was: the next tree's copy lends their nodes (copyTreeReusing), the very same objects when
 * they stand before the edit, shifted copies when they stand after it. What was read of such a
 * node is what reading it again gives, but for the lines it moved by and for what it takes from
 * outside its node, which the front end checks before it reuses a part (see GoDeclarationPart).
 *
 * The parts live per session, keyed by the session's RecentTrees (what a warm session hands its
 * extraction), and per node in a WeakMap: a tree the session lets go takes its parts with it.
 */
export class KeptDeclarations<Part> {
  private readonly sessions = new WeakMap<object, WeakMap<TreeNode, Part>>();

  /** The parts of one session. */
  of(session: object): KeptParts<Part> {
    let parts = this.sessions.get(session);
    if (parts === undefined) this.sessions.set(session, (parts = new WeakMap()));
    return new KeptParts(parts);
  }
}

export class KeptParts<Part> {
  constructor(private readonly parts: WeakMap<TreeNode, Part>) {}

  /** What was read of `node` in an earlier tree of the file: of the node itself, or of the node it is a shifted copy of. */
  earlier(node: TreeNode, movedFrom: ReadonlyMap<TreeNode, TreeNode> | undefined): Part | undefined {
    const part = this.parts.get(node);
    if (part !== undefined) return part;
    const origin = movedFrom?.get(node);
    return origin === undefined ? undefined : this.parts.get(origin);
  }

  keep(node: TreeNode, part: Part): void {
    this.parts.set(node, part);
  }
}

/**
 * Unit symbols told apart as every front end does: the first declaration of a path is the path,
 * the next ones `path~2`, `path~3`. A symbol depends on every declaration before it in the file,
 * so a kept part is reused only when the same paths give it the same symbols again (`wouldGive`).
 */
export class DuplicateSymbols {
  private readonly taken = new Map<string, number>();

  take(path: string): string {
    const seen = this.taken.get(path) ?? 0;
    this.taken.set(path, seen + 1);
    return seen === 0 ? path : `${path}~${seen + 1}`;
  }

  /** Whether taking `paths` in order now would give `symbols`; takes nothing. */
  wouldGive(paths: readonly string[], symbols: readonly string[]): boolean {
    const within = new Map<string, number>();
    for (let index = 0; index < paths.length; index += 1) {
      const path = paths[index]!;
      const seen = (this.taken.get(path) ?? 0) + (within.get(path) ?? 0);
      within.set(path, (within.get(path) ?? 0) + 1);
      if (symbols[index] !== (seen === 0 ? path : `${path}~${seen + 1}`)) return false;
    }
    return true;
  }

  takeAll(paths: readonly string[]): void {
    for (const path of paths) this.take(path);
  }
}

/** Lines moved by `delta`, as a new object; the very object when nothing moved (kept reads are never changed). */
export function movedLines<T extends { line: number }>(fact: T, delta: number): T {
  return delta === 0 ? fact : { ...fact, line: fact.line + delta };
}
