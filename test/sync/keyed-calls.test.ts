import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { changeFile as change, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * `x['run']()` resolves as `x.run()` does, to the method and every override or implementation,
 * wherever they are declared: an edit to those files must reach the unchanged caller.
 */
const FILES = {
  'src/tool.ts': 'export interface Tool {\n  run(): void;\n}\nexport class Engine implements Tool {\n  run(): void {}\n}\n',
  'src/turbo.ts': "import { Engine } from './tool';\nexport class Turbo extends Engine {\n  override run(): void {}\n}\n",
  'src/caller.ts': "import type { Engine, Tool } from './tool';\nexport function viaInterface(tool: Tool): void { tool['run'](); }\nexport function viaClass(engine: Engine): void { engine[`run`](); }\n",
};

const cases: Array<{ name: string; edit: (repo: string) => void }> = [
  { name: 'a new implementation in a new file', edit: (repo) => writeFileSync(path.join(repo, 'src/jet.ts'), "import type { Tool } from './tool';\nexport class Jet implements Tool {\n  run(): void {}\n}\n") },
  { name: 'the override is renamed', edit: (repo) => change(repo, 'src/turbo.ts', (text) => text.replace('override run()', 'go()')) },
  { name: 'the subclass stops extending the class', edit: (repo) => change(repo, 'src/turbo.ts', (text) => text.replace(' extends Engine', '').replace('override ', '')) },
  { name: 'the method is renamed', edit: (repo) => change(repo, 'src/tool.ts', (text) => text.replace('run(): void {}', 'start(): void {}')) },
  { name: "the method's lines move", edit: (repo) => change(repo, 'src/tool.ts', (text) => `\n\n${text}`) },
];

describe('a call through a string literal key after an edit to what it calls', () => {
  for (const keepOpen of [true, false]) {
    for (const { name, edit } of cases) {
      it(`${name}: sync equals a cold build, keepOpen=${keepOpen}`, () => expectEditSyncedAsColdBuild({ files: FILES, edit, keepOpen, step: name }));
    }
  }
});
