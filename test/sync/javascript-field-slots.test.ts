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

/**
 * A field declared only by assignment, as tsc emits every TypeScript class field: its first
 * `this.x =` (or `this['x'] =`) where `this` is the class's is the declaration, and a reader in
 * another file, not resolved again, keeps its slot record only while that stays so.
 */
const ASSIGNED = {
  'src/keeper.js': 'export class Keeper {\n  constructor() {\n    this.pet = 0;\n  }\n  feed() {\n    this.pet += 1;\n    return this.pet;\n  }\n}\n',
  'src/visitor.js': "import { Keeper } from './keeper.js';\nexport function visit() {\n  return new Keeper().pet;\n}\n",
  // A subclass's own assignment declares the same instance property: the base's slot.
  'src/pup.js': "import { Keeper } from './keeper.js';\nexport class Pup extends Keeper {\n  constructor() {\n    super();\n    this.pet = 5;\n    this.toy = 1;\n  }\n  walk() {\n    return this.pet + this.toy;\n  }\n}\n",
};

const constructorAt = (text: string, before: string): string => text.replace('  constructor() {\n', `${before}  constructor() {\n`);

const assignedCases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: "the constructor's assignment moves down a line", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '\n')) },
  { name: 'a method assigning the field comes before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  adopt() {\n    this.pet = 1;\n  }\n')) },
  { name: 'a method assigning the field through a literal key comes before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, "  adopt() {\n    this['pet'] = 1;\n  }\n")) },
  { name: 'a class field comes before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  pet = 2;\n')) },
  { name: 'a class field comes after the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('  feed() {\n', '  pet = 2;\n  feed() {\n')) },
  { name: "a function's own `this` assigns the name before the constructor", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  later() {\n    return function () {\n      this.pet = 1;\n    };\n  }\n')) },
  { name: 'an arrow function in a method assigns the field before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  later() {\n    return () => {\n      this.pet = 1;\n    };\n  }\n')) },
  { name: "the constructor's assignment is removed, a later method's stays", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('    this.pet = 0;\n', '').replace('    this.pet += 1;\n', '    this.pet = 1;\n')) },
  { name: "the field's only assignment is removed", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('    this.pet = 0;\n', '')) },
  { name: "the constructor's assignment becomes a literal key's", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('    this.pet = 0;\n', "    this['pet'] = 0;\n")) },
  { name: "the base comes to assign the subclass's own field", edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => text.replace('    this.pet = 0;\n', '    this.pet = 0;\n    this.toy = 0;\n')) },
  { name: 'a static method assigning the name comes before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  static reset() {\n    this.pet = 1;\n  }\n')) },
  { name: 'a private name is assigned before the constructor', edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => constructorAt(text, '  #pet = 0;\n  adopt() {\n    this.#pet = 1;\n  }\n')) },
];

describe('a JavaScript field declared only by assignment, after an edit to the class declaring it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of assignedCases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: ASSIGNED, edit, keepOpen, step: name }));
    }
  }
});

/**
 * Assignments that declare no instance field of the class, standing before the one that does: a
 * reader in another file is not resolved again when only lines move, so the slot's line is read
 * from the class, and must be the line of the assignment the checker lists first.
 */
const notTheField: Array<{ name: string; before: string }> = [
  { name: "a function's own `this`", before: '  later() {\n    return function () {\n      this.pet = 1;\n    };\n  }\n' },
  { name: 'a static method', before: '  static reset() {\n    this.pet = 1;\n  }\n' },
  { name: 'a private name', before: '  #pet = 0;\n  adopt() {\n    this.#pet = 1;\n  }\n' },
];

describe('a JavaScript field declared only by assignment, after assignments that declare no such field', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, before } of notTheField) {
      const files = { ...ASSIGNED, 'src/keeper.js': constructorAt(ASSIGNED['src/keeper.js'], before) };
      const step = `${name} assigns before the constructor, and the class moves down a line`;
      it(`${step}: sync equals a cold build, keepOpen=${keepOpen}`, () =>
        expectEditSyncedAsColdBuild({ files, edit: (repo) => changeFile(repo, 'src/keeper.js', (text) => `\n${text}`), keepOpen, step }));
    }
  }
});
