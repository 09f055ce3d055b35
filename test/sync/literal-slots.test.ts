import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * An object literal writes the slots of the type it is written for, which another file declares:
 * an edit to that type, or to the parameter the literal is passed to, must reach the unchanged file.
 */
const SETTINGS = 'export interface Settings {\n  x: number;\n}\nexport interface Other {\n  x: number;\n}\n';
const TAKE = "import type { Settings } from './settings';\nexport function take(s: Settings): number { return s.x; }\n";
const MAKER = "import type { Settings } from './settings';\nimport { take } from './take';\nexport const cfg: Settings = { x: 1 };\nexport function pass(): number { return take({ x: 2 }); }\n";

const cases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: 'the interface loses the property', edit: (repo) => change(repo, 'src/settings.ts', (text) => text.replace('Settings {\n  x: number;', 'Settings {\n  y?: number;')) },
  { name: "the interface property's line moves", edit: (repo) => change(repo, 'src/settings.ts', (text) => `\n\n${text}`) },
  { name: 'the parameter the literal is passed to takes another type', edit: (repo) => change(repo, 'src/take.ts', (text) => text.replace('type { Settings }', 'type { Other }').replace('s: Settings', 's: Other')) },
];

describe('an object literal typed by a declaration in another file, after an edit to it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () =>
        expectEditSyncedAsColdBuild({ files: { 'src/settings.ts': SETTINGS, 'src/take.ts': TAKE, 'src/maker.ts': MAKER }, edit, keepOpen, step: name }));
    }
  }
});
