import type { Slot } from '../../graph/model.js';
import type { ExtractedFile } from '../front-end.js';
import type { EdgeSink } from './edge-sink.js';

/** What a front end resolves of each file before the steps that take the whole language at once. */
export interface ResolvedUses {
  sink: EdgeSink;
  slots: Map<string, Slot>;
  resolvedCallLines: number[];
}

/** Positions: other files' edges carry their own lines, and slot lines are taken afresh, so a shift alone changes nothing elsewhere. */
const POSITION_KEYS = new Set(['line', 'lines', 'startLine', 'endLine']);

/**
 * Everything of a file that resolving another file can read, as one string: `head` (its imports,
 * declarations and units, as the language has them) with positions left out, and the locals those
 * facts reach (a factory's `return y` reaches local y), numbered in the order they are reached, so
 * that a local added elsewhere in the file does not move them. Not its uses: they decide only its
 * own edges. Two versions of a file with the same surface resolve every other file alike.
 */
export function surfaceKey(head: Record<string, unknown>, locals: readonly unknown[]): string {
  const numbered = new Map<number, number>();
  const reached: number[] = [];
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (record.kind === 'local' && typeof record.local === 'number') {
      let at = numbered.get(record.local);
      if (at === undefined) {
        at = reached.length;
        numbered.set(record.local, at);
        reached.push(record.local);
      }
      return { kind: 'local', local: at };
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) if (!POSITION_KEYS.has(key)) copy[key] = visit(record[key]);
    return copy;
  };
  const visited = visit(head);
  // Visiting a local may reach more: the list grows while it is read.
  const reachedLocals: unknown[] = [];
  for (let at = 0; at < reached.length; at += 1) reachedLocals.push(visit(locals[reached[at]!] ?? null));
  return JSON.stringify([visited, reachedLocals]);
}

/** The units of a file as other files see them: ids, kinds, owners, whether exported. */
export function unitsSurface(extracted: ExtractedFile): unknown[] {
  return extracted.units.map((unit) => [unit.id, unit.kind, unit.parent ?? '', unit.exported]);
}

/** Each file's uses as last resolved, with the extraction they were resolved from and its surface. */
type Kept<Uses> = Map<string, { extracted: ExtractedFile; surface: string; uses: Uses }>;

/**
 * A language's per-file uses kept between resolutions, in the memo object the syntax session
 * hands its front end. They are reused when no change can reach them: the same files as last
 * time, and every file that changed (another extraction than the one resolved) shows other files
 * the same surface. An edit inside a function body that leaves what its file declares, imports
 * and returns alone is the common case, and resolves one file instead of all.
 */
export class KeptUses<Facts, Uses extends ResolvedUses> {
  private readonly memos = new WeakMap<object, Kept<Uses>>();
  /** Surfaces by extraction: a changed file's is taken to judge reuse and again to remember it, and a large file's costs milliseconds. */
  private readonly surfaces = new WeakMap<ExtractedFile<Facts>, string>();

  constructor(private readonly surfaceOfExtraction: (extracted: ExtractedFile<Facts>) => string) {}

  private surfaceOf(extracted: ExtractedFile<Facts>): string {
    let surface = this.surfaces.get(extracted);
    if (surface === undefined) this.surfaces.set(extracted, (surface = this.surfaceOfExtraction(extracted)));
    return surface;
  }

  /** The uses of the unchanged files, or undefined when everything must be resolved again. */
  reusable(files: ReadonlyMap<string, ExtractedFile<Facts>>, memo: object | undefined): Map<string, Uses> | undefined {
    const last = memo ? this.memos.get(memo) : undefined;
    if (!last || last.size !== files.size) return undefined;
    const kept = new Map<string, Uses>();
    for (const [path, extracted] of files) {
      const before = last.get(path);
      if (!before) return undefined;
      if (before.extracted === extracted) kept.set(path, before.uses);
      else if (before.surface !== this.surfaceOf(extracted)) return undefined;
    }
    return kept;
  }

  remember(memo: object | undefined, files: ReadonlyMap<string, ExtractedFile<Facts>>, uses: ReadonlyMap<string, Uses>): void {
    if (!memo) return;
    const last = this.memos.get(memo);
    const next: Kept<Uses> = new Map();
    for (const [path, extracted] of files) {
      const before = last?.get(path);
      next.set(path, { extracted, surface: before?.extracted === extracted ? before.surface : this.surfaceOf(extracted), uses: uses.get(path)! });
    }
    this.memos.set(memo, next);
  }
}

/**
 * A copy of a file's uses to finish the resolution in: the kept ones stay as they were made. A
 * field's slot is taken as its owner declares it now (`currentSlot`): a kept resolution holds the
 * line the owner's file had then.
 */
export function copyOfUses<Uses extends ResolvedUses>(uses: Uses, currentSlot: (slot: Slot) => Slot): Uses {
  return {
    ...uses,
    sink: uses.sink.clone(),
    slots: new Map([...uses.slots].map(([id, slot]) => [id, slot.kind === 'field' ? currentSlot(slot) : slot])),
    resolvedCallLines: [...uses.resolvedCallLines],
  };
}

/**
 * A language's whole-program tables kept between resolutions of a session's files (in the memo
 * object the session hands its front end), with the files they were built from. When no file
 * shows the others another surface (KeptUses found its uses reusable), the last program is handed
 * to `patch` with the files whose extraction changed; otherwise a new one is built.
 */
export class KeptPrograms<Facts, Program> {
  private readonly memos = new WeakMap<object, { files: ReadonlyMap<string, ExtractedFile<Facts>>; program: Program }>();

  program(
    files: ReadonlyMap<string, ExtractedFile<Facts>>,
    memo: object | undefined,
    surfacesKept: boolean,
    build: () => Program,
    patch: (program: Program, changed: ReadonlyMap<string, ExtractedFile<Facts>>) => void,
  ): Program {
    const last = memo ? this.memos.get(memo) : undefined;
    let program: Program;
    if (surfacesKept && last) {
      program = last.program;
      patch(program, new Map([...files].filter(([path, extracted]) => last.files.get(path) !== extracted)));
    } else program = build();
    if (memo) this.memos.set(memo, { files, program });
    return program;
  }
}
