import { describe, it } from 'vitest';
import { changeFile, expectEditSyncedAsColdBuild } from '../helpers/handbook-snapshot.js';

/**
 * A unit's hash ignores whitespace, but a variable's signature is cut a fixed number of characters
 * into its initializer as written: CRLF line endings (or re-indenting) change where that cut
 * falls, so the signature and the search terms built from it move while the hash does not.
 */
const schema = [
  'export const shellSchema = {',
  "  type: 'object',",
  "  description: 'Run a bash command in the workspace and return its output and exit code.',",
  '};',
  '',
].join('\n');

describe('a change of line endings only', () => {
  for (const keepOpen of [true, false]) {
    it(`stores the signature and search terms a cold build does, keepOpen=${keepOpen}`, async () => {
      await expectEditSyncedAsColdBuild({
        files: { 'src/schema.ts': schema, 'src/use.ts': "import { shellSchema } from './schema';\nexport function describe(): string { return shellSchema.description; }\n" },
        edit: (repo) => changeToCrlf(repo, 'src/schema.ts'),
        keepOpen,
        step: 'CRLF line endings',
      });
    });
  }
});

function changeToCrlf(repo: string, file: string): void {
  changeFile(repo, file, (text) => text.replaceAll('\n', '\r\n'));
}
