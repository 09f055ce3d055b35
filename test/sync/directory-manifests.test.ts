import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { changeFile, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * An import of a folder resolves through the package.json in it (`types`, `main`), though that
 * manifest names no workspace package: adding one, or pointing it elsewhere, moves the import
 * without any source file changing.
 */
const files = {
  'src/lib/impl.ts': 'export function helper(): number {\n  return 1;\n}\n',
  'src/lib/other.ts': 'export function helper(): number {\n  return 2;\n}\n',
  'src/use.ts': "import { helper } from './lib';\nexport function go(): number {\n  return helper();\n}\n",
};

describe('a package.json that decides where a folder import leads', () => {
  for (const keepOpen of [true, false]) {
    it(`is read again when one is added, keepOpen=${keepOpen}`, async () => {
      await expectEditSyncedAsColdBuild({
        files,
        edit: (repo) => writeFileSync(path.join(repo, 'src/lib/package.json'), '{ "types": "impl.ts" }\n'),
        keepOpen,
        step: 'a package.json added to the imported folder',
      });
    });

    it(`is read again when its entry changes, keepOpen=${keepOpen}`, async () => {
      await expectEditSyncedAsColdBuild({
        files: { ...files, 'src/lib/package.json': '{ "types": "impl.ts" }\n' },
        edit: (repo) => changeFile(repo, 'src/lib/package.json', () => '{ "types": "other.ts" }\n'),
        keepOpen,
        step: 'the folder package.json pointed at another file',
      });
    });
  }
});
