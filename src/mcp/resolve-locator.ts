import { type Stats, statSync } from 'node:fs';
import { liveSourceOf } from '../api/live-resolution.js';
import type { Handbook } from '../api/open-handbook.js';
import { HandbookError } from '../errors.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import { liveUnitsOf } from '../locate/live-file-units.js';
import type { LocatorStatus } from '../locate/live-resolver.js';
import type { LiveSourceReader } from '../locate/live-source.js';

export interface Locator {
  file: string;
  symbol: string;
  /** The unit's content hash when the locator was taken; without it a change cannot be told from no change. */
  hash?: string | undefined;
}

export interface ResolvedLocator {
  file: string;
  symbol: string;
  status: LocatorStatus;
  line?: number;
  endLine?: number;
  /** The live hash of the code found. */
  hash?: string;
  movedTo?: { file: string; symbol: string; line: number; endLine: number };
  reason?: string;
}

/**
 * Where a locator from an earlier answer points now, judged by the files on disk: the symbol in
 * its file with the same hash is fresh, with another hash changed; gone from there, the same code
 * standing at exactly one other place of the (just synced) handbook is moved; anything else is
 * frozen, with the reason. Files are read as the handbook's build reads them, so a file it now
 * leaves out (binary, generated, over the size cap, a link out of the repository) holds no code;
 * a path outside the repository (or inside .git and .handbook) is refused.
 */
export async function resolveLocator(handbook: Handbook, locator: Locator): Promise<ResolvedLocator> {
  const read = liveSourceOf(handbook);
  const { file, isFile } = pathInside(handbook.root, locator.file);
  const live = await liveUnitsOf(read, file);
  // A README or a file outside the built folders is still there: calling it gone would send the model looking for a move.
  if (isFile && !('units' in live) && read(file).kind === 'missing') {
    throw new HandbookError('INVALID_INPUT', `${file} is not a source file the handbook analyzes`, 'it holds units of TypeScript and JavaScript files only; pass the file that holds the symbol, as an earlier answer gave it');
  }
  const base = { file, symbol: locator.symbol };
  const found = 'units' in live ? live.units.get(locator.symbol) : undefined;
  if (found) {
    const where = { line: found.startLine, endLine: found.endLine, hash: found.hash };
    if (locator.hash === undefined || locator.hash === found.hash) return { ...base, status: 'fresh', ...where };
    return { ...base, status: 'changed', ...where, reason: `${locator.symbol} changed since that locator was taken` };
  }
  const gone = 'units' in live ? `${locator.symbol} is no longer in ${file}` : live.gone;
  if (locator.hash === undefined) return { ...base, status: 'frozen', reason: `${gone}; pass the hash to follow code that moved` };
  const movedTo = await findMove(read, handbook.graph, locator.hash, `${file}#${locator.symbol}`);
  if (movedTo) return { ...base, status: 'moved', line: movedTo.line, endLine: movedTo.endLine, hash: locator.hash, movedTo, reason: `${gone}; the same code is now ${movedTo.file}#${movedTo.symbol}` };
  return { ...base, status: 'frozen', reason: gone };
}

/** The requested path from the root, judged by its name: a path out of the repository is a mistake to report, not code that is gone. */
function pathInside(root: string, requested: string): { file: string; isFile: boolean } {
  try {
    const { relative, absolute } = new Workspace(root).name(requested);
    const stats = statOf(absolute, relative);
    // Not code gone: a folder is still there, and reporting it as a file that "no longer exists" misleads.
    if (stats?.isDirectory()) throw new HandbookError('INVALID_INPUT', `${relative} is a folder, not a file`, 'pass the file that holds the symbol, as an earlier answer gave it');
    return { file: relative, isFile: stats?.isFile() ?? false };
  } catch (error) {
    if (error instanceof PathRefused) throw new HandbookError('INVALID_INPUT', error.message, 'pass a path inside the repository, as an earlier answer gave it');
    throw error;
  }
}

/** A name no file system holds (a part over 255 bytes) is a malformed locator, not a failure of the server. */
function statOf(absolute: string, relative: string): Stats | undefined {
  try {
    return statSync(absolute, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') throw new HandbookError('INVALID_INPUT', `${relative.slice(0, 200)}… is too long to be a file name`, 'pass the file that holds the symbol, as an earlier answer gave it');
    throw error;
  }
}

/** The one place of the handbook holding this exact code, confirmed on disk; none when it stands in several. */
async function findMove(read: LiveSourceReader, graph: ProgramGraph, hash: string, from: string): Promise<ResolvedLocator['movedTo']> {
  const candidates = graph.units.filter((unit) => unit.kind !== 'file' && unit.hash === hash && unit.id !== from);
  if (candidates.length !== 1) return undefined;
  const candidate = candidates[0]!;
  const live = await liveUnitsOf(read, candidate.file);
  const found = 'units' in live ? live.units.get(candidate.symbol) : undefined;
  if (found?.hash !== hash) return undefined;
  return { file: candidate.file, symbol: candidate.symbol, line: found.startLine, endLine: found.endLine };
}
