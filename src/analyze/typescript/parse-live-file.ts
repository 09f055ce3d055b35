import { ts } from 'ts-morph';
import { collectUnits, createUnitIndex } from './collect-units.js';
import { scriptKindOf } from './create-program.js';
import { shortHash } from '../../graph/content-hash.js';
import type { LiveUnitShape } from '../parse-live-file.js';

/** The units of one file as it is now, named and hashed exactly as a build names and hashes them. */
export function parseTypeScriptLiveFile(file: string, text: string): LiveUnitShape[] {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, scriptKindOf(file));
  const index = createUnitIndex();
  collectUnits(sourceFile, file, shortHash(text), index);
  return [...index.units.values()].filter((unit) => unit.kind !== 'file').map((unit) => ({ symbol: unit.symbol, hash: unit.hash, startLine: unit.startLine, endLine: unit.endLine }));
}
