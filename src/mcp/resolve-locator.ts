import { parseLiveFile } from '../analyze/parse-live-file.js';
import { HandbookError } from '../errors.js';
import type { ProgramGraph } from '../graph/program-graph.js';
import { PathRefused, Workspace } from '../harness/workspace.js';
import type { LocatorStatus } from '../locate/live-resolver.js';

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

type LiveUnit = Awaited<ReturnType<typeof parseLiveFile>>[number];

/**
 * Where a locator from an earlier answer points now, judged by the files on disk: the symbol in
 * its file with the same hash is fresh, with another hash changed; gone from there, the same code
 * standing at exactly one other place of the (just synced) handbook is moved; anything else is
 * frozen, with the reason. Paths go through the workspace gate, so nothing outside the
 * repository (or inside .git and .handbook) is read.
 */
export async function resolveLocator(root: string, graph: ProgramGraph, locator: Locator): Promise<ResolvedLocator> {
  const workspace = new Workspace(root);
  const live = await liveUnitsOf(workspace, locator.file);
  const file = live.relative;
  const base = { file, symbol: locator.symbol };
  const found = live.units?.get(locator.symbol);
  if (found) {
    const where = { line: found.startLine, endLine: found.endLine, hash: found.hash };
    if (locator.hash === undefined || locator.hash === found.hash) return { ...base, status: 'fresh', ...where };
    return { ...base, status: 'changed', ...where, reason: `${locator.symbol} changed since that locator was taken` };
  }
  const gone = live.units ? `${locator.symbol} is no longer in ${file}` : `${file} ${live.missing}`;
  if (locator.hash === undefined) return { ...base, status: 'frozen', reason: `${gone}; pass the hash to follow code that moved` };
  const movedTo = await findMove(workspace, graph, locator.hash, `${file}#${locator.symbol}`);
  if (movedTo) return { ...base, status: 'moved', line: movedTo.line, endLine: movedTo.endLine, hash: locator.hash, movedTo, reason: `${gone}; the same code is now ${movedTo.file}#${movedTo.symbol}` };
  return { ...base, status: 'frozen', reason: gone };
}

async function liveUnitsOf(workspace: Workspace, requested: string): Promise<{ relative: string; units?: Map<string, LiveUnit>; missing?: string }> {
  let read: ReturnType<Workspace['readText']>;
  try {
    read = workspace.readText(requested);
  } catch (error) {
    if (error instanceof PathRefused) throw new HandbookError('INVALID_INPUT', error.message, 'pass a path inside the repository, as an earlier answer gave it');
    throw error;
  }
  if (read.status !== 'text') return { relative: read.path.relative, missing: read.status === 'missing' ? 'no longer exists' : `is not a source file (${read.status})` };
  const units = await parseLiveFile(read.path.relative, read.text);
  return { relative: read.path.relative, units: new Map(units.map((unit) => [unit.symbol, unit])) };
}

/** The one place of the handbook holding this exact code, confirmed on disk; none when it stands in several. */
async function findMove(workspace: Workspace, graph: ProgramGraph, hash: string, from: string): Promise<ResolvedLocator['movedTo']> {
  const candidates = graph.units.filter((unit) => unit.kind !== 'file' && unit.hash === hash && unit.id !== from);
  if (candidates.length !== 1) return undefined;
  const candidate = candidates[0]!;
  const live = (await liveUnitsOf(workspace, candidate.file)).units?.get(candidate.symbol);
  if (live?.hash !== hash) return undefined;
  return { file: candidate.file, symbol: candidate.symbol, line: live.startLine, endLine: live.endLine };
}
