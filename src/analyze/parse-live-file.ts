import { shortHash } from '../graph/content-hash.js';
import type { Unit } from '../graph/model.js';
import { languageOfPath } from './languages.js';

/** A unit of a file as it is now: what a locator is checked against. */
export type LiveUnitShape = Pick<Unit, 'symbol' | 'hash' | 'startLine' | 'endLine'>;

/**
 * The units of one file as it is now, named and hashed exactly as a build names and hashes them,
 * by the front end of the file's language (each loaded on first use).
 */
export async function parseLiveFile(file: string, text: string): Promise<LiveUnitShape[]> {
  const language = languageOfPath(file);
  if (language === 'typescript' || language === undefined) return (await import('./typescript/parse-live-file.js')).parseTypeScriptLiveFile(file, text);
  const { SYNTAX_FRONT_ENDS } = await import('./syntax-front-ends.js');
  const frontEnd = SYNTAX_FRONT_ENDS.get(language)!;
  const lines = text.length === 0 ? 0 : text.split('\n').length;
  const { units } = frontEnd.extract({ path: file, text, hash: shortHash(text), lines, test: false });
  return units.filter((unit) => unit.kind !== 'file').map((unit) => ({ symbol: unit.symbol, hash: unit.hash, startLine: unit.startLine, endLine: unit.endLine }));
}
