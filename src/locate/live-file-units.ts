import { decodeSource } from '../analyze/source-text.js';
import type { parseLiveFile } from '../analyze/parse-live-file.js';
import { leftOutReason, type LiveSourceReader } from './live-source.js';

export type LiveUnit = Awaited<ReturnType<typeof parseLiveFile>>[number];

/**
 * A file's units as a build would find them now, by symbol, or why it holds none in the live
 * resolver's words: for readers that judge a locator against the file itself, not against the build.
 */
export async function liveUnitsOf(read: LiveSourceReader, file: string): Promise<{ units: Map<string, LiveUnit> } | { gone: string }> {
  const source = read(file);
  if (source.kind !== 'source') return { gone: leftOutReason(file, source) };
  // The parser brings the compiler (most of a second to load). The library entry reaches this
  // module through the approval policy's tool names, so a static import made every CLI start pay for it.
  const { parseLiveFile } = await import('../analyze/parse-live-file.js');
  const units = await parseLiveFile(file, decodeSource(source.bytes, file));
  return { units: new Map(units.map((unit) => [unit.symbol, unit])) };
}
