import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { collectUnits, createUnitIndex } from '../../src/analyze/collect-units.js';
import { declarationDigest } from '../../src/analyze/declaration-digest.js';

function digestOf(text: string, file = 'src/keeper.js'): { members: string[]; digest: Record<string, string> } {
  const sourceFile = ts.createSourceFile(`/repo/${file}`, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const index = createUnitIndex();
  collectUnits(sourceFile, file, 'hash', index);
  return { members: [...index.memberNames].sort(), digest: declarationDigest(index, sourceFile) };
}

const keeper = (value: string): string => `export class Keeper {
  constructor() {
    this.dot = ${value};
  }
  adopt() {
    this['quoted'] = ${value};
    this[\`templated\`] = ${value};
  }
}
`;

// JavaScript declares a field by assigning it, through a literal key as through a dot: what the
// assignment holds is what other files' uses of the field see.
describe('a JavaScript field declared by assignment', () => {
  it('is a member named by a dot or by a literal key', () => {
    expect(digestOf(keeper('new Dog()')).members).toEqual(['adopt', 'dot', 'quoted', 'templated']);
  });

  it('has a digest entry that moves with what is assigned, by a dot or by a literal key', () => {
    const before = digestOf(keeper('new Dog()')).digest;
    const after = digestOf(keeper('new Cat()')).digest;
    for (const name of ['dot', 'quoted', 'templated']) {
      expect(before[name], name).toBeDefined();
      expect(after[name], name).not.toBe(before[name]);
    }
  });
});
