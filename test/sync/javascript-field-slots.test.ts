import { describe, it } from 'vitest';
import { changeFile, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * In JavaScript a field is declared by a class field or by assignment in a method (`this.pet = v`),
 * and its first declaration decides whether it is a slot. A file not resolved again keeps its slot
 * records only while that first declaration still makes one.
 */
const FILES = {
  'src/keeper.js': 'export class Keeper {\n  pet = 0;\n  feed() {\n    return this.pet;\n  }\n}\n',
  'src/visitor.js': "import { Keeper } from './keeper.js';\nexport function visit() {\n  return new Keeper().pet;\n}\n",
};

const cases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: 'a method assigning the field comes before its declaration', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('  pet = 0;\n', '  adopt() {\n    this.pet = 1;\n  }\n  pet = 0;\n')) },
  { name: 'a method assigning the field through a literal key comes before its declaration', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('  pet = 0;\n', "  adopt() {\n    this['pet'] = 1;\n  }\n  pet = 0;\n")) },
  { name: "the field's declaration moves down a line", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('  pet = 0;\n', '\n  pet = 0;\n')) },
];

describe('a JavaScript field after an edit to the class declaring it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: FILES, edit, keepOpen, step: name }));
    }
  }
});
