import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * Which classes a call through an alias reaches depends on the aliases that join it (`type Both
 * = Runner & Named`), declared in a file the caller never names: an edit there must reach it.
 */
const CONTRACTS = 'export type Runner = { run(): void };\nexport interface Named { label(): string }\nexport type Both = Runner & Named;\n';
const FILES = {
  'src/classes.ts': "import type { Both } from './contracts';\nexport class Slow implements Both { run(): void {} label(): string { return 's'; } }\n",
  'src/callers.ts': "import type { Runner } from './contracts';\nexport function viaRunner(r: Runner): void { r.run(); }\n",
};

const cases: Array<{ name: string; contracts: string; edit: (repo: string) => void }> = [
  { name: 'the alias stops joining the type called through', contracts: CONTRACTS, edit: (repo) => change(repo, 'src/contracts.ts', (text) => text.replace('Runner & Named', 'Named & { run(): void }')) },
  { name: 'the alias comes to join the type called through', contracts: CONTRACTS.replace('Runner & Named', 'Named & { run(): void }'), edit: (repo) => change(repo, 'src/contracts.ts', (text) => text.replace('Named & { run(): void }', 'Runner & Named')) },
  { name: "the called member moves within the alias's type literal", contracts: CONTRACTS, edit: (repo) => change(repo, 'src/contracts.ts', (text) => text.replace('{ run(): void }', '{\n  run(): void;\n}')) },
];

describe('a call through an alias after an edit to the aliases that join it', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, contracts, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: { 'src/contracts.ts': contracts, ...FILES }, edit, keepOpen, step: name }));
    }
  }
});
