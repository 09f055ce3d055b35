import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, type SyncSummary } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

/**
 * Edits inside one unit's body that change how code outside it resolves, though no declaration
 * text moves: each once made a kept-open sync (or one from the store) differ from a cold build.
 * Two classes with a method of the same name, so a changed type shows as a changed call target.
 */
const ANIMALS = `export class Dog {
  speak(): string {
    return 'woof';
  }
}

export class Cat {
  speak(): string {
    return 'meow';
  }
  purr(): void {}
}
`;

function write(repo: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), text);
}

function edit(repo: string, file: string, anchor: string, replacement: string): void {
  const target = path.join(repo, file);
  const text = readFileSync(target, 'utf8');
  expect(text.split(anchor).length, `${anchor} in ${file}`).toBe(2);
  writeFileSync(target, text.replace(anchor, replacement));
}

/** Builds the fixture with these files added, opens it kept open, applies the edit, and compares with a cold build. */
async function expectEditSyncs(files: Record<string, string>, change: (repo: string) => void, check?: (summary: SyncSummary) => void): Promise<void> {
  const repo = copyOfFixture();
  write(repo, 'src/zoo/animals.ts', ANIMALS);
  for (const [file, text] of Object.entries(files)) write(repo, file, text);
  const database = path.join(scratchDirectory(), 'handbook.db');
  await buildHandbook(repo, { database });
  const live = await LiveHandbook.open(repo, { database });
  try {
    await live.sync();
    change(repo);
    const summary = await live.sync();
    expect(summary.upToDate).toBe(false);
    check?.(summary);
    await expectSameAsColdBuild(repo, database, 'after the edit');
  } finally {
    live.close();
  }
}

describe('edits whose effect reaches past the edited unit', () => {
  it('an assignment to a module variable changes its narrowing in a closure elsewhere in the file', async () => {
    await expectEditSyncs({
      'src/zoo/narrow.ts': "import { Cat, Dog } from './animals.js';\n\nlet pet: Dog | Cat = new Dog();\n\nexport function reset(): void {\n  console.log('reset');\n}\n\nexport const talk = (): string => {\n  return pet.speak();\n};\n",
    }, (repo) => edit(repo, 'src/zoo/narrow.ts', "  console.log('reset');\n", "  console.log('reset');\n  pet = new Cat();\n"));
  });

  it('an assignment in a nested function changes narrowing in a callback of the outer one', async () => {
    await expectEditSyncs({
      'src/zoo/narrow2.ts': "import { Cat, Dog } from './animals.js';\n\nexport function outer(): string {\n  let pet: Dog | Cat = new Dog();\n  function reset(): void {\n    console.log('reset');\n  }\n  return [1].map(() => pet.speak()).join();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/narrow2.ts', "    console.log('reset');\n", "    console.log('reset');\n    pet = new Cat();\n"));
  });

  it('a constructor assignment decides the type of a field declared without one, used in the same file', async () => {
    await expectEditSyncs({
      'src/zoo/keeper.ts': "import { Cat, Dog } from './animals.js';\n\nexport class Keeper {\n  pet;\n  constructor() {\n    console.log('hello');\n    this.pet = new Dog();\n  }\n  talk(): string {\n    return this.pet.speak();\n  }\n}\nexport const unused = Cat;\n",
    }, (repo) => edit(repo, 'src/zoo/keeper.ts', '    this.pet = new Dog();\n', '    this.pet = new Cat();\n'));
  });

  it('and in another file', async () => {
    await expectEditSyncs({
      'src/zoo/keeper.ts': "import { Cat, Dog } from './animals.js';\n\nexport class Keeper {\n  pet;\n  constructor() {\n    console.log('hello');\n    this.pet = new Dog();\n  }\n}\nexport const unused = Cat;\n",
      'src/zoo/visitor.ts': "import { Keeper } from './keeper.js';\n\nexport function visit(): string {\n  return new Keeper().pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/keeper.ts', '    this.pet = new Dog();\n', '    this.pet = new Cat();\n'));
  });

  // In JavaScript any method's `this['pet'] =` decides the field's type, as `this.pet =` does.
  it.each(["this['pet']", 'this[`pet`]'])('a JavaScript method assigning a field through a literal key, %s, decides its type, used in the same file', async (target) => {
    await expectEditSyncs({
      'src/zoo/keeper.js': `import { Cat, Dog } from './animals.js';\n\nexport class Keeper {\n  adopt() {\n    console.log('hello');\n    ${target} = new Dog();\n  }\n  talk() {\n    return this.pet.speak();\n  }\n}\nexport const unused = Cat;\n`,
    }, (repo) => edit(repo, 'src/zoo/keeper.js', `    ${target} = new Dog();\n`, `    ${target} = new Cat();\n`));
  });

  // Another file's `x.pet` reaches the field through the slot a literal-key assignment declares.
  it.each(["this['pet']", 'this[`pet`]'])('a JavaScript method assigning a field through a literal key, %s, decides its type, used in another file', async (target) => {
    await expectEditSyncs({
      'src/zoo/keeper.js': `import { Cat, Dog } from './animals.js';\n\nexport class Keeper {\n  adopt() {\n    console.log('hello');\n    ${target} = new Dog();\n  }\n}\nexport const unused = Cat;\n`,
      'src/zoo/visitor.js': "import { Keeper } from './keeper.js';\n\nexport function visit() {\n  return new Keeper().pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/keeper.js', `    ${target} = new Dog();\n`, `    ${target} = new Cat();\n`));
  });

  it('a constant with a declared type stops being state when its initializer is no longer an object', async () => {
    await expectEditSyncs({
      'src/zoo/registry.ts': 'export const registry: Map<string, number> = (\n  new Map()\n);\n\nexport function makeMap(): Map<string, number> {\n  return new Map();\n}\n\nexport function count(): number {\n  return registry.size;\n}\n',
      'src/zoo/registryUser.ts': "import { registry } from './registry.js';\n\nexport function size(): number {\n  return registry.size;\n}\n",
    }, (repo) => edit(repo, 'src/zoo/registry.ts', '  new Map()\n', '  makeMap()\n'));
  });

  it('an index signature changes its type', async () => {
    await expectEditSyncs({
      'src/zoo/bag.ts': "import { Cat, Dog } from './animals.js';\n\nexport interface Bag {\n  [key: string]: Dog;\n}\n\nexport function talk(bag: Bag): string {\n  return bag.rex.speak();\n}\nexport const unused = Cat;\n",
      'src/zoo/bagUser.ts': "import type { Bag } from './bag.js';\n\nexport function other(bag: Bag): string {\n  return bag.rex.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/bag.ts', '  [key: string]: Dog;\n', '  [key: string]: Cat;\n'));
  });

  it('a field typed by an `as` assertion changes its assertion', async () => {
    await expectEditSyncs({
      'src/zoo/holder.ts': "import { Cat, Dog } from './animals.js';\n\nfunction makePet(): unknown {\n  return new Dog();\n}\n\nexport class Holder {\n  pet = makePet() as Dog;\n}\nexport const unused = Cat;\n",
      'src/zoo/user.ts': "import type { Holder } from './holder.js';\n\nexport function useIt(holder: Holder): string {\n  return holder.pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/holder.ts', 'makePet() as Dog;', 'makePet() as Cat;'));
  });

  it('a module that reads its own state through a namespace import of itself', async () => {
    const file = 'src/zoo/selfns.ts';
    await expectEditSyncs({
      [file]: "import * as self from './selfns.js';\n\nexport let copy: number = self.copy ?? 0;\nexport class Z {\n  copy = 1;\n}\n\nexport function bump(): void {\n  console.log('a');\n}\n",
    }, (repo) => {
      edit(repo, file, "  console.log('a');\n", "  console.log('a');\n  console.log('b');\n");
      edit(repo, 'src/zoo/animals.ts', "    return 'woof';\n", "    return 'woof!';\n");
    });
  });

  it('an outer assignment added beside a parameter of the same name', async () => {
    await expectEditSyncs({
      'src/zoo/narrow.ts': "import { Cat, Dog } from './animals.js';\n\nlet pet: Dog | Cat = new Dog();\n\nexport function reset(): void {\n  [1].forEach((pet) => console.log(pet));\n}\n\nexport const talk = (): string => {\n  return pet.speak();\n};\n",
    }, (repo) => edit(repo, 'src/zoo/narrow.ts', '  [1].forEach((pet) => console.log(pet));\n', '  [1].forEach((pet) => console.log(pet));\n  pet = new Cat();\n'));
  });

  it('the initializer of a variable with a declared union type narrows its uses in the same file', async () => {
    await expectEditSyncs({
      'src/zoo/narrow3.ts': "import { Cat, Dog } from './animals.js';\n\nlet pet: Dog | Cat = (\n  new Dog()\n);\n\nexport const talk = (): string => {\n  return pet.speak();\n};\n",
    }, (repo) => edit(repo, 'src/zoo/narrow3.ts', '  new Dog()\n', '  new Cat()\n'));
  });

  it('a field initialized from a function whose inferred type changes in another file', async () => {
    await expectEditSyncs({
      'src/zoo/factory.ts': "import { Cat, Dog } from './animals.js';\n\nexport function makePet() {\n  return new Dog();\n}\nexport const unused = Cat;\n",
      'src/zoo/keeper.ts': "import { makePet } from './factory.js';\n\nexport class Keeper {\n  pet = makePet();\n}\n",
      'src/zoo/visitor.ts': "import { Keeper } from './keeper.js';\n\nexport function visit(): string {\n  return new Keeper().pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/factory.ts', '  return new Dog();\n', '  return new Cat();\n'));
  });

  it('a field assigned in the constructor from such a function', async () => {
    await expectEditSyncs({
      'src/zoo/factory.ts': "import { Cat, Dog } from './animals.js';\n\nexport function makePet() {\n  return new Dog();\n}\nexport const unused = Cat;\n",
      'src/zoo/keeper.ts': "import { makePet } from './factory.js';\n\nexport class Keeper {\n  pet;\n  constructor() {\n    this.pet = makePet();\n  }\n}\n",
      'src/zoo/visitor.ts': "import { Keeper } from './keeper.js';\n\nexport function visit(): string {\n  return new Keeper().pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/factory.ts', '  return new Dog();\n', '  return new Cat();\n'));
  });

  it('a constructor local that decides an untyped field, used in another file', async () => {
    await expectEditSyncs({
      'src/zoo/keeper.ts': "import { Cat, Dog } from './animals.js';\n\nexport class Keeper {\n  pet;\n  constructor() {\n    const p = new Dog();\n    this.pet = p;\n  }\n}\nexport const unused = Cat;\n",
      'src/zoo/visitor.ts': "import { Keeper } from './keeper.js';\n\nexport function visit(): string {\n  return new Keeper().pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/keeper.ts', '    const p = new Dog();\n', '    const p = new Cat();\n'));
  });

  it('a field asserted to an alias that changes in another file', async () => {
    await expectEditSyncs({
      'src/zoo/alias.ts': "import { Cat, Dog } from './animals.js';\n\nexport type Pet = Dog;\nexport const unused = Cat;\n",
      'src/zoo/holder.ts': "import type { Pet } from './alias.js';\n\nfunction makePet(): unknown {\n  return 1;\n}\n\nexport class Holder {\n  pet = makePet() as Pet;\n}\n",
      'src/zoo/user.ts': "import type { Holder } from './holder.js';\n\nexport function useIt(holder: Holder): string {\n  return holder.pet.speak();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/alias.ts', 'export type Pet = Dog;', 'export type Pet = Cat;'));
  });

  it('a default-exported base class is renamed', async () => {
    await expectEditSyncs({
      'src/zoo/base.ts': 'export default class Animal {\n  legs = 2;\n}\n',
      'src/zoo/bird.ts': "import Base from './base.js';\n\nexport class Bird extends Base {\n  fly(): void {}\n}\n",
    }, (repo) => edit(repo, 'src/zoo/base.ts', 'export default class Animal {', 'export default class Creature {'));
  });

  it('a default export becomes a class, extended and instantiated through default imports', async () => {
    await expectEditSyncs({
      'src/zoo/base.ts': 'export default function Animal(): void {}\n',
      'src/zoo/bird.ts': "import Base from './base.js';\n\nexport class Bird extends Base {\n  fly(): void {}\n}\n",
      'src/zoo/maker.ts': "import Base from './base.js';\n\nexport function make(): unknown {\n  // @ts-ignore\n  return new Base();\n}\n",
    }, (repo) => edit(repo, 'src/zoo/base.ts', 'export default function Animal(): void {}\n', 'export default class Thing {}\n'));
  });

  it('a file declaring a global interface is renamed', async () => {
    await expectEditSyncs({
      'src/zoo/shapes.ts': 'export {};\n\ndeclare global {\n  interface Shape {\n    area(): number;\n  }\n}\n',
      'src/zoo/square.ts': 'export class Square implements Shape {\n  area(): number {\n    return 1;\n  }\n}\n',
    }, (repo) => renameSync(path.join(repo, 'src/zoo/shapes.ts'), path.join(repo, 'src/zoo/figures.ts')));
  });

  it('an edit inside a constructor body resolves neither the users of its class nor the rest of its file', async () => {
    await expectEditSyncs({
      'src/zoo/widget.ts': "export class Widget {\n  size: number;\n  constructor() {\n    this.size = 1;\n    console.log('a');\n  }\n}\n",
      'src/zoo/w1.ts': "import { Widget } from './widget.js';\nexport const w1 = (): Widget => new Widget();\n",
    }, (repo) => edit(repo, 'src/zoo/widget.ts', "    console.log('a');\n", "    console.log('a');\n    console.log('b');\n"), (summary) => {
      expect(summary.resolvedFiles).toBe(1);
      expect(summary.resolvedInPart).toBe(1);
    });
  });
});
