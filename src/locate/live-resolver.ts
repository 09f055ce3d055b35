import { decodeSource } from '../analyze/source-text.js';
import { shortHash } from '../graph/content-hash.js';
import type { FileHash, UnitLocation } from '../graph/model.js';
import { type LeftOut, leftOutReason, type LiveSource, type LiveSourceReader } from './live-source.js';

export type LocatorStatus = 'fresh' | 'changed' | 'moved' | 'frozen';

interface ResolvedPlace {
  /** Where the code stands now: in the unit's own file, or in `movedTo.file` when it moved. */
  line: number;
  endLine: number;
  /** Why a locator is frozen, changed or moved, in words. */
  reason?: string;
  /** Set when moved: the one place that now holds the unit's exact code. */
  movedTo?: { file: string; symbol: string };
}

/**
 * A unit as it stands on disk now. Live code comes with its hash, so a reader can hand out a
 * locator that `resolve` later judges against that code, not against the build; frozen code has none.
 */
export type ResolvedLocation = ResolvedPlace & ({ status: 'frozen' } | { status: Exclude<LocatorStatus, 'frozen'>; hash: string });

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

/** A file that holds other bytes than the build read: its units by symbol, and the place of the file's own unit (its hash and its lines). */
type LiveFile = { kind: 'unchanged' } | LeftOut | { kind: 'parsed'; units: Map<string, LiveUnit>; whole: Omit<LiveUnit, 'symbol'> };

type Place = LiveUnit & { file: string };

/**
 * Resolves stored locations against the files on disk, never the database alone: a file whose
 * bytes still match the build is fresh as stored; a changed file is parsed again and the unit
 * found by its symbol (same hash: fresh at its new lines; other hash: changed). A unit gone from
 * its file is moved when its exact code (same hash) stands at exactly one place of the files that
 * changed or appeared since the build; otherwise it is frozen, with the reason. A file a build
 * would now leave out (binary, over the size cap, generated, a link out of the repository) holds
 * no unit: a sync drops them all, whatever its bytes still parse to. Nothing is guessed.
 */
export class LiveResolver {
  private readonly liveFiles = new Map<string, Promise<LiveFile>>();
  /** Files read and found to hold the build's bytes: known without waiting on their promise. */
  private readonly unchanged = new Set<string>();
  private readonly recordOf: Map<string, FileHash>;
  private changedCode: Promise<Map<string, Place[]>> | undefined;

  constructor(
    files: readonly FileHash[],
    private readonly read: LiveSourceReader,
    private readonly parse: LiveFileParser,
    private readonly discover: SourceDiscovery,
  ) {
    this.recordOf = new Map(files.map((file) => [file.path, file]));
  }

  async resolve(unit: UnitLocation): Promise<ResolvedLocation> {
    const live = await this.fileOf(unit.file);
    if (live.kind === 'unchanged') return { status: 'fresh', line: unit.startLine, endLine: unit.endLine, hash: unit.hash };
    // A file's own unit is the whole file: edited, it changed; it is never looked for by symbol, as no file holds it under one.
    if (unit.kind === 'file' && live.kind === 'parsed') return { status: 'changed', line: live.whole.startLine, endLine: live.whole.endLine, hash: live.whole.hash, reason: `${unit.file} changed since the build` };
    const found = live.kind === 'parsed' ? live.units.get(unit.symbol) : undefined;
    if (found?.hash === unit.hash) return { status: 'fresh', line: found.startLine, endLine: found.endLine, hash: found.hash };
    if (found) return { status: 'changed', line: found.startLine, endLine: found.endLine, hash: found.hash, reason: `${unit.symbol} changed since the build` };
    const gone = live.kind === 'parsed' ? `${unit.symbol} is no longer in ${unit.file}` : leftOutReason(unit.file, live);
    const places = (await this.codeChangedSinceBuild()).get(unit.hash) ?? [];
    if (places.length !== 1) return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: gone };
    const place = places[0]!;
    return {
      status: 'moved',
      line: place.startLine,
      endLine: place.endLine,
      hash: place.hash,
      reason: `${gone}; the same code is now ${place.file}#${place.symbol}`,
      movedTo: { file: place.file, symbol: place.symbol },
    };
  }

  /**
   * Whether a file holds the bytes the build read, so every unit in it is fresh as stored. Judged
   * without parsing and without waiting, so a caller can ask it inside a store's read transaction
   * and read only the units of the files that changed. A file that did change is read again when
   * it is resolved.
   */
  unchangedSinceBuild(file: string): boolean {
    if (this.liveFiles.has(file)) return this.unchanged.has(file);
    if (!this.holdsBuildBytes(file, this.read(file))) return false;
    this.unchanged.add(file);
    this.liveFiles.set(file, Promise.resolve({ kind: 'unchanged' }));
    return true;
  }

  /** Whether a file the build analyzed holds other bytes now and is still code a build would analyze: a sync re-reads it, whether or not an entry changed. */
  async editedSinceBuild(file: string): Promise<boolean> {
    return (await this.fileOf(file)).kind === 'parsed';
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

  private holdsBuildBytes(file: string, source: LiveSource): boolean {
    const stored = this.recordOf.get(file);
    return source.kind === 'source' && stored !== undefined && shortHash(source.bytes) === stored.hash;
  }

  private async load(file: string): Promise<LiveFile> {
    const source = this.read(file);
    if (source.kind !== 'source') return source;
    if (this.holdsBuildBytes(file, source)) {
      this.unchanged.add(file);
      return { kind: 'unchanged' };
    }
    const text = decodeSource(source.bytes, file);
    const units = await this.parse(file, text);
    // Hashed and counted as a build records a file: its bytes, and its lines as the compiler breaks them.
    const whole = { hash: shortHash(source.bytes), startLine: 1, endLine: text.split(/\r\n|[\n\r\u2028\u2029]/).length };
    return { kind: 'parsed', units: new Map(units.map((unit) => [unit.symbol, unit])), whole };
  }
}
