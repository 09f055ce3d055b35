import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A field a class declares for an interface it implements is the slot of the interface's
 * property, so the slot of `this.label` in one file depends on a declaration in another: an edit
 * to the interface, or to the class's implements clause, must reach the unchanged files that use it.
 */
const NAMED = 'export interface Named {\n  label: string;\n}\n';
const CARD = "import type { Named } from './named';\nexport class Card implements Named {\n  label = '';\n  rename(): void { this.label = 'card'; }\n}\n";
const READER = "import type { Named } from './named';\nimport type { Card } from './card';\nexport function byInterface(n: Named): string { return n.label; }\nexport function byClass(c: Card): string { return c.label; }\nexport function byPattern(c: Card): string { const { label } = c; return label; }\n";

const cases: Array<{ name: string; files: Record<string, string>; edit: (repo: string) => void }> = [
  { name: 'the interface gains the property', files: { 'src/named.ts': 'export interface Named {\n  title?: string;\n}\n' }, edit: (repo) => change(repo, 'src/named.ts', (text) => text.replace('{\n', '{\n  label: string;\n')) },
  { name: 'the interface loses the property', files: { 'src/named.ts': NAMED }, edit: (repo) => change(repo, 'src/named.ts', (text) => text.replace('  label: string;\n', '  title?: string;\n')) },
  { name: "the interface property's line moves", files: { 'src/named.ts': NAMED }, edit: (repo) => change(repo, 'src/named.ts', (text) => `\n\n${text}`) },
  { name: 'the class comes to implement the interface', files: { 'src/named.ts': NAMED, 'src/card.ts': CARD.replace(' implements Named', '') }, edit: (repo) => change(repo, 'src/card.ts', (text) => text.replace('class Card {', 'class Card implements Named {')) },
  { name: 'the class stops implementing the interface', files: { 'src/named.ts': NAMED }, edit: (repo) => change(repo, 'src/card.ts', (text) => text.replace(' implements Named', '')) },
];

describe('an implemented field after an edit to the interface or the implements clause', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, files, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { 'src/card.ts': CARD, 'src/reader.ts': READER, ...files }, edit, keepOpen, step: name }));
    }
  }
});
