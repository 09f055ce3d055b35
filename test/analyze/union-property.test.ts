import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { scratchDirectory } from '../helpers/paths.js';

const TYPES = "export type Waiting = { status: 'waiting'; request: string };\nexport type Done = { status: 'done'; request: string };\nexport type Call = Waiting | Done;\n";
const READER = "import type { Call } from './types';\nexport function requestOf(call: Call): string {\n  return call.request;\n}\n";

/** A file checked before the reader that makes one constituent's type first, as a warm program may have. */
function firstMaking(name: 'Waiting' | 'Done'): string {
  const status = name === 'Waiting' ? 'waiting' : 'done';
  return `import type { ${name} } from './types';\nexport function make(): ${name} {\n  return { status: '${status}', request: 'r' };\n}\n`;
}

function readsOfRequestOf(made: 'Waiting' | 'Done'): string[] {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/a-first.ts'), firstMaking(made));
  writeFileSync(path.join(root, 'src/types.ts'), TYPES);
  writeFileSync(path.join(root, 'src/z-reader.ts'), READER);
  return analyzeRepository(root).graph.edges.filter((edge) => edge.from === 'src/z-reader.ts#requestOf' && edge.kind === 'reads').map((edge) => edge.to);
}

// The checker lists a union property's declarations by its constituents' type ids, which follow
// what was checked first: a kept-open program and a cold one could credit the read differently.
describe('a property read through a union of types that each declare it', () => {
  it.each(['Waiting', 'Done'] as const)('is the first declaration in source order, whichever constituent was checked first (%s)', (made) => {
    expect(readsOfRequestOf(made)).toEqual(['src/types.ts#Waiting.request']);
  });
});
