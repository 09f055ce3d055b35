import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A field a subclass redeclares is the slot of the base class that declares it first, so the
 * slot of `this.x` in one file depends on declarations in another: an edit to the base must
 * reach the unchanged files that use the field, whether through a dot, a pattern, a
 * destructuring assignment or a key.
 */
const BASE = 'export class Base {\n  x = 0;\n  readBase(): number { return this.x; }\n}\n';
const USES = {
  'src/derived.ts': "import { Base } from './base';\nexport class Derived extends Base {\n  x = 1;\n  readDerived(): number { return this.x; }\n}\n",
  'src/reader.ts': "import type { Derived } from './derived';\nexport function byDot(d: Derived): number { return d.x; }\nexport function byPattern(d: Derived): number { const { x } = d; return x; }\nexport function byKey(d: Derived): void { d['x'] = 3; }\nexport function byAssignment(d: Derived): number { let x = 0; ({ x } = d); return x; }\n",
};
const ROOT = 'export class Root {\n  x = 5;\n}\n';

const cases: Array<{ name: string; files: Record<string, string>; edit: (repo: string) => void }> = [
  { name: 'the base gains the field', files: { 'src/base.ts': 'export class Base {\n  readBase(): number { return 1; }\n}\n' }, edit: (repo) => change(repo, 'src/base.ts', (text) => text.replace('{\n', '{\n  x = 0;\n')) },
  { name: 'the base loses the field', files: { 'src/base.ts': BASE }, edit: (repo) => change(repo, 'src/base.ts', (text) => text.replace('  x = 0;\n', '').replace('this.x', '1')) },
  { name: "the base field's line moves", files: { 'src/base.ts': BASE }, edit: (repo) => change(repo, 'src/base.ts', (text) => `\n\n${text}`) },
  { name: 'the base comes to extend a class declaring the field', files: { 'src/root.ts': ROOT, 'src/base.ts': BASE }, edit: (repo) => change(repo, 'src/base.ts', (text) => `import { Root } from './root';\n${text.replace('class Base {', 'class Base extends Root {')}`) },
  { name: 'the root comes to declare the field the others redeclare', files: { 'src/root.ts': ROOT.replace('x = 5', 'y = 5'), 'src/base.ts': BASE.replace('export class Base {', "import { Root } from './root';\nexport class Base extends Root {") }, edit: (repo) => change(repo, 'src/root.ts', (text) => text.replace('y = 5', 'x = 5')) },
  { name: 'the root renames the field the others redeclare', files: { 'src/root.ts': ROOT, 'src/base.ts': "import { Root } from './root';\nexport class Base extends Root {\n  readBase(): number { return 1; }\n}\n" }, edit: (repo) => change(repo, 'src/root.ts', (text) => text.replace('x = 5', 'y = 5')) },
];

describe('a redeclared field after an edit to the class it overrides', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, files, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { ...files, ...USES }, edit, keepOpen, step: name }));
    }
  }
});
