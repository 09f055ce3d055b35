import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeSource } from '../analyze/source-text.js';
import { shortHash } from '../graph/content-hash.js';
import type { SourceFileRecord, Unit } from '../graph/model.js';

export type LocatorStatus = 'fresh' | 'changed' | 'moved' | 'frozen';

export interface ResolvedLocation {
  status: LocatorStatus;
  line: number;
  endLine: number;
  /** Why a locator is frozen or changed, in words. */
  reason?: string;
}

interface LiveUnit {
  symbol: string;
  hash: string;
  startLine: number;
  endLine: number;
}

/** Parses one live file into its units; loaded on demand, since it needs the compiler. */
export type LiveFileParser = (file: string, text: string) => Promise<LiveUnit[]>;

/**
 * Resolves stored locations against the files on disk, never the database alone: a file whose
 * bytes still match the build is fresh as stored; a changed file is parsed again and the unit
 * found by its symbol (same hash: fresh at its new lines; other hash: changed); a unit or file
 * that is gone is frozen, with the reason. Nothing is guessed.
 */
type LiveFile = { kind: 'unchanged' } | { kind: 'missing' } | { kind: 'parsed'; units: Map<string, LiveUnit> };

export class LiveResolver {
  private readonly liveFiles = new Map<string, Promise<LiveFile>>();
  private readonly recordOf: Map<string, SourceFileRecord>;

  constructor(
    private readonly root: string,
    files: readonly SourceFileRecord[],
    private readonly parse: LiveFileParser,
  ) {
    this.recordOf = new Map(files.map((file) => [file.path, file]));
  }

  async resolve(unit: Unit): Promise<ResolvedLocation> {
    const live = await this.fileOf(unit.file);
    if (live.kind === 'unchanged') return { status: 'fresh', line: unit.startLine, endLine: unit.endLine };
    if (live.kind === 'missing') return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: `${unit.file} no longer exists` };
    const found = live.units.get(unit.symbol);
    if (!found) return { status: 'frozen', line: unit.startLine, endLine: unit.endLine, reason: `${unit.symbol} is no longer in ${unit.file}` };
    if (found.hash === unit.hash) return { status: 'fresh', line: found.startLine, endLine: found.endLine };
    return { status: 'changed', line: found.startLine, endLine: found.endLine, reason: `${unit.symbol} changed since the build` };
  }

  /** The symbols a file holds now, when it changed since the build (it is parsed again); undefined when unchanged or gone. */
  async liveSymbolsOf(file: string): Promise<string[] | undefined> {
    const live = await this.fileOf(file);
    return live.kind === 'parsed' ? [...live.units.keys()] : undefined;
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
    let bytes: Buffer;
    try {
      // Only a regular file inside the root is read: a FIFO would block the answer for good, and a
      // link out of the repository is not the repository's code.
      const absolute = path.join(this.root, file);
      if (!lstatSync(absolute).isFile()) return { kind: 'missing' };
      bytes = readFileSync(absolute);
    } catch {
      return { kind: 'missing' };
    }
    const stored = this.recordOf.get(file);
    if (stored && shortHash(bytes) === stored.hash) return { kind: 'unchanged' };
    const units = await this.parse(file, decodeSource(bytes));
    return { kind: 'parsed', units: new Map(units.map((unit) => [unit.symbol, unit])) };
  }
}
