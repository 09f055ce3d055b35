import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDirectory } from './paths.js';

/** A repository big enough that writing its handbook takes a while: files of functions calling across files. */
export function syntheticRepository(fileCount: number, functionsPerFile: number): string {
  const root = scratchDirectory('handbook-synthetic-');
  mkdirSync(path.join(root, 'src'));
  for (let file = 0; file < fileCount; file += 1) {
    const next = (file + 1) % fileCount;
    const lines = [`import { f${next}_0 } from './m${next}';`, `export class Service${file} { state = 0; run(): number { this.state += 1; return f${file}_0(); } }`];
    for (let fn = 0; fn < functionsPerFile; fn += 1) {
      const call = fn + 1 < functionsPerFile ? `f${file}_${fn + 1}()` : file === fileCount - 1 ? '0' : `f${next}_0()`;
      lines.push(`/** Step ${fn} of module ${file}. */\nexport function f${file}_${fn}(): number { return ${call} + ${fn}; }`);
    }
    writeFileSync(path.join(root, 'src', `m${file}.ts`), `${lines.join('\n')}\n`);
  }
  return root;
}
