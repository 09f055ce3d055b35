import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A property several supertypes of one type declare is one slot, the smallest id of theirs: an
 * edit to one type's heritage can move the slot that code typed by another type, in another
 * file, reaches, though that code spells no name the edit changed.
 */
const FIRST = 'export interface First {\n  x: number;\n}\n';
const SECOND = 'export interface Second {\n  x: number;\n}\n';
const BASE = 'export class Base {\n  x = 0;\n}\n';
const BOTH = "import type { First } from './first';\nimport type { Second } from './second';\nexport class Both implements Second, First {\n  x = 0;\n}\n";
const SUB = "import { Base } from './base';\nimport type { First } from './first';\nexport class Sub extends Base implements First {}\n";
const OTHER = "import { Base } from './base';\nimport type { Second } from './second';\nexport class Other extends Base implements Second {}\n";
const READER = "import type { First } from './first';\nimport type { Second } from './second';\nimport type { Base } from './base';\n" +
  'export function viaFirst(f: First): number { return f.x; }\nexport function viaSecond(s: Second): number { return s.x; }\nexport function viaBase(b: Base): number { return b.x; }\n';

const cases: Array<{ name: string; files: Record<string, string>; edit: (repo: string) => void }> = [
  { name: 'a class comes to implement a second interface', files: { 'src/both.ts': BOTH.replace('Second, First', 'Second') }, edit: (repo) => change(repo, 'src/both.ts', (text) => text.replace('implements Second', 'implements Second, First')) },
  { name: 'a class stops implementing a second interface', files: { 'src/both.ts': BOTH }, edit: (repo) => change(repo, 'src/both.ts', (text) => text.replace('Second, First', 'Second')) },
  { name: 'a subclass inheriting the field comes to implement an interface', files: { 'src/sub.ts': SUB.replace(' implements First', '') }, edit: (repo) => change(repo, 'src/sub.ts', (text) => text.replace('extends Base', 'extends Base implements First')) },
  { name: 'a subclass inheriting the field stops implementing an interface', files: { 'src/sub.ts': SUB }, edit: (repo) => change(repo, 'src/sub.ts', (text) => text.replace(' implements First', '')) },
  { name: 'a third type joins two joined slots to a smaller one', files: { 'src/other.ts': OTHER, 'src/sub.ts': SUB.replace(' implements First', '') }, edit: (repo) => change(repo, 'src/sub.ts', (text) => text.replace('extends Base', 'extends Base implements First')) },
  { name: 'a third type leaves two joined slots', files: { 'src/other.ts': OTHER, 'src/sub.ts': SUB }, edit: (repo) => change(repo, 'src/sub.ts', (text) => text.replace(' implements First', '')) },
];

describe('a slot joined across supertypes after an edit to one heritage clause', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, files, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () =>
        expectEditSyncedAsColdBuild({ files: { 'src/first.ts': FIRST, 'src/second.ts': SECOND, 'src/base.ts': BASE, 'src/reader.ts': READER, ...files }, edit, keepOpen, step: name }));
    }
  }
});
