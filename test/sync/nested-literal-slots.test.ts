import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A member of a type literal nested in an interface is a slot under the property holding it
 * (`Settings.section.entry`), so the slot a use in one file reaches, and its record, come from
 * declarations in another: an edit to the interface must reach the unchanged files that use it,
 * through a dot, a pattern, a destructuring assignment or a key, and the record of a file not
 * resolved again must follow it.
 */
const SETTINGS = 'export interface Settings {\n  section: { entry: string; sub: { leaf: number } };\n}\n';
const USES = {
  'src/reader.ts': "import type { Settings } from './settings';\nexport function byDot(s: Settings): number { return s.section.sub.leaf; }\nexport function byPattern(s: Settings): string { const { entry } = s.section; return entry; }\nexport function byKey(s: Settings): void { s.section['entry'] = 'x'; }\nexport function byAssignment(s: Settings): string { let entry = ''; ({ section: { entry } } = s); return entry; }\n",
};

const cases: Array<{ name: string; files: Record<string, string>; edit: (repo: string) => void }> = [
  { name: "the interface's lines move", files: { 'src/settings.ts': SETTINGS }, edit: (repo) => change(repo, 'src/settings.ts', (text) => `\n\n${text}`) },
  { name: 'the nested members move to lines of their own', files: { 'src/settings.ts': SETTINGS }, edit: (repo) => change(repo, 'src/settings.ts', (text) => text.replace('{ entry: string; sub: { leaf: number } }', '{\n    entry: string;\n    sub: {\n      leaf: number;\n    };\n  }')) },
  { name: 'a nested member changes its type', files: { 'src/settings.ts': SETTINGS }, edit: (repo) => change(repo, 'src/settings.ts', (text) => text.replace('leaf: number', 'leaf: 1 | 2')) },
  { name: 'a nested member is renamed', files: { 'src/settings.ts': SETTINGS }, edit: (repo) => change(repo, 'src/settings.ts', (text) => text.replace('entry: string', 'item: string')) },
  { name: 'the literal becomes a named interface', files: { 'src/settings.ts': SETTINGS }, edit: (repo) => change(repo, 'src/settings.ts', (text) => text.replace('section: { entry: string; sub: { leaf: number } };', 'section: Section;').concat('export interface Section { entry: string; sub: { leaf: number } }\n')) },
  { name: 'a named interface becomes the literal', files: { 'src/settings.ts': 'export interface Settings {\n  section: Section;\n}\nexport interface Section { entry: string; sub: { leaf: number } }\n' }, edit: (repo) => writeFileSync(path.join(repo, 'src/settings.ts'), SETTINGS) },
];

/** A class field's type holds a nested literal as an interface member's does, and is edited the same ways. */
const MACHINE = 'export class Machine {\n  knobs: { dial: number; panel: { lamp: boolean } } = { dial: 0, panel: { lamp: false } };\n  turn(): void {\n    this.knobs.dial = 1;\n  }\n}\n';
const MACHINE_USES = {
  'src/driver.ts': "import type { Machine } from './machine';\nexport function byDot(m: Machine): boolean { return m.knobs.panel.lamp; }\nexport function byPattern(m: Machine): number { const { dial } = m.knobs; return dial; }\nexport function byKey(m: Machine): void { m.knobs['dial'] = 2; }\n",
};
const classCases: typeof cases = [
  { name: "the class's lines move", files: { 'src/machine.ts': MACHINE }, edit: (repo) => change(repo, 'src/machine.ts', (text) => `\n\n${text}`) },
  { name: 'the nested members of the field move to lines of their own', files: { 'src/machine.ts': MACHINE }, edit: (repo) => change(repo, 'src/machine.ts', (text) => text.replace('{ dial: number; panel: { lamp: boolean } }', '{\n    dial: number;\n    panel: {\n      lamp: boolean;\n    };\n  }')) },
  { name: "a nested member of the field changes its type", files: { 'src/machine.ts': MACHINE }, edit: (repo) => change(repo, 'src/machine.ts', (text) => text.replace('lamp: boolean', 'lamp: boolean | undefined')) },
  { name: 'a nested member of the field is renamed', files: { 'src/machine.ts': MACHINE }, edit: (repo) => change(repo, 'src/machine.ts', (text) => text.replace('dial: number', 'level: number')) },
  { name: "the field's literal becomes a named interface", files: { 'src/machine.ts': MACHINE }, edit: (repo) => change(repo, 'src/machine.ts', (text) => text.replace('knobs: { dial: number; panel: { lamp: boolean } }', 'knobs: Knobs').concat('export interface Knobs { dial: number; panel: { lamp: boolean } }\n')) },
  { name: "a field's named interface becomes the literal", files: { 'src/machine.ts': MACHINE.replace('knobs: { dial: number; panel: { lamp: boolean } }', 'knobs: Knobs').concat('export interface Knobs { dial: number; panel: { lamp: boolean } }\n') }, edit: (repo) => writeFileSync(path.join(repo, 'src/machine.ts'), MACHINE) },
];

describe.each([
  ['an interface', cases, USES],
  ['a class field', classCases, MACHINE_USES],
])('a member of a literal nested in %s after an edit to the type holding it', (_holder, holderCases, uses) => {
  for (const keepOpen of [true, false]) {
    for (const { name, files, edit } of holderCases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { ...files, ...uses }, edit, keepOpen, step: name }));
    }
  }
});
