import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { skipReasonOfBytes } from '../analyze/discover-files.js';
import { decodeSource } from '../analyze/source-text.js';
import { shortHash } from '../graph/content-hash.js';
import type { SkipReason, SourceFileRecord, Unit } from '../graph/model.js';

export type LocatorStatus = 'fresh' | 'changed' | 'moved' | 'frozen';

export interface ResolvedLocation {
  status: LocatorStatus;
  /** Where the code stands now: in the unit's own file, or in `movedTo.file` when it moved. */
  line: number;
  endLine: number;
  /** Why a locator is frozen, changed or moved, in words. */
  reason?: string;
  /** Set when moved: the one place that now holds the unit's exact code. */
  movedTo?: { file: string; symbol: string };
}

interface LiveUnit {
  symbol: string;
  hash: string;
  startLine: number;
  endLine: number;
}

/** Parses one live file into its units; loaded on demand, since it needs the compiler. */
export type LiveFileParser = (file: string, text: string) => Promise<LiveUnit[]>;

/** The source files a build would analyze now, by path from the root: where moved code is looked for. */
export type SourceDiscovery = () => readonly string[];

type LiveFile = { kind: 'unchanged' } | { kind: 'missing' } | { kind: 'skipped'; reason: SkipReason } | { kind: 'parsed'; units: Map<string, LiveUnit> };

type Place = LiveUnit & { file: string };

/**
 * Resolves stored locations against the files on disk, never the database alone: a file whose
 * bytes still match the build is fresh as stored; a changed file is parsed again and the unit
 * found by its symbol (same hash: fresh at its new lines; other hash: changed). A unit gone from
 * its file is moved when its exact code (same hash) stands at exactly one place of the files that
 * changed or appeared since the build; otherwise it is frozen, with the reason. A changed file a
 * build would now leave out (binary, over the size cap, generated) holds no unit: a sync drops them
 * all, whatever its bytes still parse to. Nothing is guessed.
 */
export class LiveResolver {
  private readonly liveFiles = new Map<string, Promise<LiveFile>>();
  private readonly recordOf: Map<string, SourceFileRecord>;
  private changedCode: Promise<Map<string, Place[]>> | undefined;

  constructor(
    private readonly root: string,
    files: readonly SourceFileRecord[],
    private readonly parse: LiveFileParser,
    private readonly discover: SourceDiscovery,
    /** The size cap the handbook was built with; discovery's default when absent. */
    private readonly maxFileBytes?: number,
  ) {
    this.recordOf = new Map(files.map((file) => [file.path, file]));
  }

  async resolve(unit: Unit): Promise<ResolvedLocation> {
    const live = await this.fileOf(unit.file);
    if (live.kind === 'unchanged') return { status: 'fresh', line: unit.startLine, endLine: unit.endLine };
    const found = live.kind === 'parsed' ? live.units.get(unit.symbol) : undefined;
    if (found?.hash === unit.hash) return { status: 'fresh', line: found.startLine, endLine: found.endLine };
    if (found) return { status: 'changed', line: found.startLine, endLine: found.endLine, reason: `${unit.symbol} changed since the build` };
    const gone =
      live.kind === 'missing' ? `${unit.file} no longer exists` : live.kind === 'skipped' ? `${unit.file} is now skipped as ${live.reason}` : `${unit.symbol} is no longer in ${unit.file}`;
    const places = (await this.codeChangedSinceBuild()).get(unit.hash) ?? [];
    if (places.length !== 1) return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: gone };
    const place = places[0]!;
    return {
      status: 'moved',
      line: place.startLine,
      endLine: place.endLine,
      reason: `${gone}; the same code is now ${place.file}#${place.symbol}`,
      movedTo: { file: place.file, symbol: place.symbol },
    };
  }

  /** The symbols a file holds now, when it changed since the build (it is parsed again); undefined when unchanged, gone or now skipped. */
  async liveSymbolsOf(file: string): Promise<string[] | undefined> {
    const live = await this.fileOf(file);
    return live.kind === 'parsed' ? [...live.units.keys()] : undefined;
  }

  /**
   * The units of every file that changed or appeared since the build, by hash. Built once, and only
   * when some unit is gone from its file: it discovers the tree and parses every such file, a cost
   * an answer whose candidates all stand where they were never pays.
   */
  private codeChangedSinceBuild(): Promise<Map<string, Place[]>> {
    this.changedCode ??= (async () => {
      const byHash = new Map<string, Place[]>();
      for (const file of this.discover()) {
        const live = await this.fileOf(file);
        if (live.kind !== 'parsed') continue;
        for (const unit of live.units.values()) byHash.set(unit.hash, [...(byHash.get(unit.hash) ?? []), { ...unit, file }]);
      }
      return byHash;
    })();
    return this.changedCode;
  }

  private fileOf(file: string): Promise<LiveFile> {
    let pending = this.liveFiles.get(file);
    if (!pending) {
      pending = this.load(file);
      this.liveFiles.set(file, pending);
    }
    return pending;
  }

  private async load(file: string): Promise<LiveFile> {
    const absolute = path.join(this.root, file);
    try {
      // Only a regular file inside the root is read: a FIFO would block the answer for good, and a
      // link out of the repository is not the repository's code.
      if (!lstatSync(absolute).isFile()) return { kind: 'missing' };
    } catch {
      return { kind: 'missing' };
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(absolute);
    } catch {
      // Still there, as discovery would count it: a file it may not read is left out, not gone.
      return { kind: 'skipped', reason: 'unreadable' };
    }
    const stored = this.recordOf.get(file);
    if (stored && shortHash(bytes) === stored.hash) return { kind: 'unchanged' };
    const skipped = skipReasonOfBytes(bytes, this.maxFileBytes);
    if (skipped) return { kind: 'skipped', reason: skipped };
    const units = await this.parse(file, decodeSource(bytes));
    return { kind: 'parsed', units: new Map(units.map((unit) => [unit.symbol, unit])) };
  }
}
