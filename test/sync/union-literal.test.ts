import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * Which member of a union a literal writes depends on the union's members, declared in files the
 * literal's file need not name (the parameter it is passed to is declared in a third): an edit
 * there must reach it.
 */
const TYPES = "export type A = { kind: 'a'; a: number };\nexport type C = { kind: 'c'; c: number };\nexport type U = A | C;\n";
const FILES = {
  'src/api.ts': "import type { U } from './types';\nexport function take(u: U): void { void u; }\n",
  'src/caller.ts': "import { take } from './api';\nexport function call(): void { take({ kind: 'a', a: 1 }); }\n",
};

const cases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: 'the union loses the member the literal fits', edit: (repo) => change(repo, 'src/types.ts', (text) => text.replace('export type U = A | C;', 'export type U = C;')) },
  { name: 'the union gains a second member the literal fits', edit: (repo) => change(repo, 'src/types.ts', (text) => `${text}export type B = { kind: 'a'; a: number; b?: string };\n`.replace('export type U = A | C;', 'export type U = A | B | C;')) },
  { name: "a member's literal value comes to fit the literal too", edit: (repo) => change(repo, 'src/types.ts', (text) => text.replace("kind: 'c'; c: number", "kind: 'a'; c?: number; a: number")) },
  { name: 'the fitting member moves', edit: (repo) => change(repo, 'src/types.ts', (text) => `\n\n${text}`) },
];

describe('a literal written for a union after an edit to the union or its members', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { 'src/types.ts': TYPES, ...FILES }, edit, keepOpen, step: name }));
    }
  }
});
