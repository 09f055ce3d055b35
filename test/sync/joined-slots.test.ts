import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

/**
 * An alias joins as what it names does: in a heritage clause, where the class or interface has
 * several supertypes, and as an intersection, wherever one is written. Editing the alias, the
 * clause or the intersection moves the slot code typed by another type reaches, as above.
 */
const PAIR = "import type { First } from './first';\nexport type Pair = First;\n";
const JOINT = "import type { Second } from './second';\nimport type { Pair } from './pair';\nexport interface Joint extends Second, Pair {}\n";
const MEET = "import type { First } from './first';\nimport type { Second } from './second';\nimport type { Pair } from './pair';\nexport type Meet = Second & First;\n";
const MAKE = "import type { First } from './first';\nimport type { Second } from './second';\n" +
  'export function make(): number {\n  const made: Second & First = { x: 1 };\n  return made.x;\n}\nexport function setBoth(both: Second & First): void {\n  both.x = 2;\n}\n';
const EARLY = "import type { First } from './first';\nexport interface Early extends First {}\n";
const LATE = "import type { Base } from './base';\nexport interface Late extends Base {}\n";
const MEET_EARLY = "import type { Second } from './second';\nimport type { Early } from './early';\nexport type Meet = Second & Early;\n";
// Reads through Second alone: no edge of it reaches a type a heritage edge joins to another.
const SECOND_READER = "import type { Second } from './second';\nexport function onlySecond(second: Second): number {\n  return second.x;\n}\n";
const toBase = (text: string): string => text.replace("import type { First } from './first';", "import type { Base } from './base';").replace('= First;', '= Base;');

const aliasCases: Array<{ name: string; files: Record<string, string>; edit: (repo: string) => void }> = [
  { name: 'a heritage clause comes to name an alias', files: { 'src/joint.ts': JOINT.replace('Second, Pair', 'Second') }, edit: (repo) => change(repo, 'src/joint.ts', (text) => text.replace('extends Second', 'extends Second, Pair')) },
  { name: 'a heritage clause stops naming an alias', files: { 'src/joint.ts': JOINT }, edit: (repo) => change(repo, 'src/joint.ts', (text) => text.replace('Second, Pair', 'Second')) },
  { name: 'an alias a heritage clause names comes to name another type', files: { 'src/joint.ts': JOINT }, edit: (repo) => change(repo, 'src/pair.ts', toBase) },
  { name: 'an alias a heritage clause names comes to declare the property itself', files: { 'src/joint.ts': JOINT }, edit: (repo) => change(repo, 'src/pair.ts', () => 'export type Pair = { x: number };\n') },
  { name: 'an alias of an intersection stops naming one of its types', files: { 'src/meet.ts': MEET }, edit: (repo) => change(repo, 'src/meet.ts', (text) => text.replace('Second & First', 'Second')) },
  { name: 'an alias of an intersection comes to name one more type', files: { 'src/meet.ts': MEET.replace('Second & First', 'Second') }, edit: (repo) => change(repo, 'src/meet.ts', (text) => text.replace('= Second;', '= Second & First;')) },
  { name: 'an alias an intersection names comes to name another type', files: { 'src/meet.ts': MEET.replace('Second & First', 'Second & Pair') }, edit: (repo) => change(repo, 'src/pair.ts', toBase) },
  { name: 'a type an intersection names comes to be declared', files: { 'src/meet.ts': MEET_EARLY }, edit: (repo) => writeFileSync(path.join(repo, 'src/early.ts'), EARLY) },
  { name: 'a type an intersection names goes', files: { 'src/meet.ts': MEET_EARLY, 'src/early.ts': EARLY }, edit: (repo) => rmSync(path.join(repo, 'src/early.ts')) },
  {
    name: 'a barrel an intersection imports through comes to pass on another type',
    files: { 'src/meet.ts': MEET_EARLY.replace("'./early'", "'./types'"), 'src/early.ts': EARLY, 'src/late.ts': LATE, 'src/types.ts': "export type { Early } from './early';\n" },
    edit: (repo) => change(repo, 'src/types.ts', () => "export type { Late as Early } from './late';\n"),
  },
  { name: 'an intersection in a body goes', files: { 'src/make.ts': MAKE.replace('both: Second & First', 'both: Second') }, edit: (repo) => change(repo, 'src/make.ts', (text) => text.replace('made: Second & First', 'made: Second')) },
  { name: 'an intersection in a body comes', files: { 'src/make.ts': MAKE.replaceAll('Second & First', 'Second') }, edit: (repo) => change(repo, 'src/make.ts', (text) => text.replace('made: Second', 'made: Second & First')) },
  { name: 'an intersection in a parameter goes', files: { 'src/make.ts': MAKE.replace('made: Second & First', 'made: Second') }, edit: (repo) => change(repo, 'src/make.ts', (text) => text.replace('both: Second & First', 'both: Second')) },
];

describe('a slot joined through an alias or an intersection after an edit to it or to the clause naming it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, files, edit } of aliasCases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () =>
        expectEditSyncedAsColdBuild({ files: { 'src/first.ts': FIRST, 'src/second.ts': SECOND, 'src/base.ts': BASE, 'src/reader.ts': READER, 'src/second-reader.ts': SECOND_READER, 'src/pair.ts': PAIR, ...files }, edit, keepOpen, step: name }));
    }
  }
});

/**
 * A file's join sites count only the imports they spell: adding an import to a file with an
 * intersection, or an export to a module it imports for something else, joins nothing, so it must
 * not send every reader of a property declared twice to be resolved again.
 */
const unspelled: Array<{ name: string; edit: (repo: string) => void; resolved: number }> = [
  { name: 'an import the intersection does not spell is added to its file', edit: (repo) => change(repo, 'src/meet.ts', (text) => `import type { Base } from './base';\n${text}`), resolved: 1 },
  { name: 'a module the file imports for something else gains an export', edit: (repo) => change(repo, 'src/pair.ts', (text) => `${text}const extra = 1;\nexport { extra };\n`), resolved: 2 },
];

describe('an edit near a join site that joins nothing', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit, resolved } of unspelled) {
      it(`${name}: resolves ${resolved} file(s), and sync equals a cold build, keepOpen=${keepOpen}`, async () => {
        const files = { 'src/first.ts': FIRST, 'src/second.ts': SECOND, 'src/base.ts': BASE, 'src/reader.ts': READER, 'src/second-reader.ts': SECOND_READER, 'src/pair.ts': PAIR, 'src/meet.ts': MEET };
        const summary = await expectEditSyncedAsColdBuild({ files, edit, keepOpen, step: name });
        expect(summary.resolvedFiles).toBe(resolved);
      });
    }
  }
});
