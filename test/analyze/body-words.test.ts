import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { collectUnits, createUnitIndex } from '../../src/analyze/typescript/collect-units.js';

function bodyWordsOf(source: string): Map<string, string[]> {
  const sourceFile = ts.createSourceFile('src/a.ts', source, ts.ScriptTarget.ES2022, true);
  const index = createUnitIndex();
  collectUnits(sourceFile, 'src/a.ts', 'hash', index);
  return new Map([...index.bodyWords].map(([id, words]) => [id, [...words]]));
}

describe("a unit's body vocabulary", () => {
  it("holds the words of its identifiers and of the comments before its statements, not a nested function's doc or tool directives", () => {
    const words = bodyWordsOf(`
export function outer(input: string): string {
  // Mask credentials before anything reaches the transcript.
  const masked = input.trim();
  // eslint-disable-next-line no-console
  console.log(masked);
  /** Zebra crossing helper. */
  const viaArrow = () => masked;
  /* Giraffe neck helper. */
  function viaDeclaration() { return masked; }
  return viaArrow() + viaDeclaration();
}
`);
    const outer = words.get('src/a.ts#outer')!;
    expect(outer).toEqual(expect.arrayContaining(['mask', 'credentials', 'transcript', 'masked', 'input', 'trim']));
    for (const word of ['eslint', 'disable', 'zebra', 'crossing', 'giraffe', 'neck']) expect(outer).not.toContain(word);
  });
});
