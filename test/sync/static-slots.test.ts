import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A static and an instance member of one name are two slots, so a sync that takes a slot's
 * record again from its declaration (the reader's file is not resolved again) must find the
 * declaration of the right one, down to the members of the type literals they hold.
 */
const COUNTER = 'export class Counter {\n  static total = 0;\n  total = 0;\n  limits: { max: number } = { max: 2 };\n  static limits: { max: number } = { max: 1 };\n}\n';
const READER = "import { Counter } from './counter';\nexport function bump(c: Counter): void { c.total += 1; Counter.total += 1; }\nexport function cap(c: Counter): number { return c.limits.max + Counter.limits.max; }\n";

const cases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: 'the declarations move down', edit: (repo) => change(repo, 'src/counter.ts', (text) => `\n\n${text}`) },
  { name: 'the static and the instance field trade places', edit: (repo) => change(repo, 'src/counter.ts', (text) => text.replace('  static total = 0;\n  total = 0;\n', '  total = 0;\n  static total = 0;\n')) },
  { name: 'a static field becomes an instance field', edit: (repo) => change(repo, 'src/counter.ts', (text) => text.replace('  static limits', '  other').replace('Counter.limits.max', '1')) },
];

describe('a static and an instance field of one name after an edit to their class', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { 'src/counter.ts': COUNTER, 'src/reader.ts': READER }, edit, keepOpen, step: name }));
    }
  }
});
