import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { scratchDirectory } from '../helpers/paths.js';
import { REAL_CODE, realCodeDirectory } from '../helpers/real-code.js';

const directory = realCodeDirectory();
const available = existsSync(directory);

const edit = (repo: string, file: string, change: (text: string) => string): void => {
  const target = path.join(repo, file);
  const before = readFileSync(target, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the scripted edit did not change ${file}`);
  writeFileSync(target, after);
};

/** Each step is two edits of the kinds the issue names, synced one by one, checked against a cold build once. */
const STEPS: Array<{ name: string; edits: Array<(repo: string) => void> }> = [
  {
    name: 'change a body, add a function',
    edits: [
      (repo) => edit(repo, 'dist/src/utils/retry.js', (text) => text.replace('export async function retryWithBackoff(fn, options) {', 'export async function retryWithBackoff(fn, options) {\n    options = options ?? {};')),
      (repo) => edit(repo, 'dist/src/utils/retry.js', (text) => `${text}\nexport function retryTwice(fn) {\n    return retryWithBackoff(fn, { maxAttempts: 2 });\n}\n`),
    ],
  },
  {
    name: 'add a file, rename a widely imported file',
    edits: [
      (repo) => writeFileSync(path.join(repo, 'dist/src/utils/retryPolicy.js'), "import { retryTwice } from './retry.js';\nexport const policy = { run: (fn) => retryTwice(fn) };\n"),
      (repo) => renameSync(path.join(repo, 'dist/src/utils/errors.js'), path.join(repo, 'dist/src/utils/failures.js')),
    ],
  },
  {
    name: 'delete a file, introduce a syntax error',
    edits: [
      (repo) => rmSync(path.join(repo, 'dist/src/core/turn.js')),
      (repo) => edit(repo, 'dist/src/core/geminiChat.js', (text) => text.replace('export class GeminiChat {', 'export class GeminiChat {{ (( broken')),
    ],
  },
  {
    name: 'fix the syntax error, move a function between files',
    edits: [
      (repo) => edit(repo, 'dist/src/core/geminiChat.js', (text) => text.replace('export class GeminiChat {{ (( broken', 'export class GeminiChat {')),
      (repo) => {
        edit(repo, 'dist/src/utils/retry.js', (text) => text.replace(/\nexport function retryTwice\(fn\) \{[\s\S]*?\n\}\n/, '\n'));
        edit(repo, 'dist/src/utils/retryPolicy.js', () => "import { retryWithBackoff } from './retry.js';\nexport function retryTwice(fn) {\n    return retryWithBackoff(fn, { maxAttempts: 2 });\n}\nexport const policy = { run: (fn) => retryTwice(fn) };\n");
      },
    ],
  },
];

describe.skipIf(!available)(`sync on a real harness: ${REAL_CODE.name}@${REAL_CODE.version} from npm`, () => {
  it('equals a cold build after every step of a scripted edit sequence', async () => {
    const repo = path.join(scratchDirectory('handbook-real-sync-'), 'core');
    cpSync(directory, repo, { recursive: true });
    const database = path.join(scratchDirectory(), 'handbook.db');
    // Two of its largest folders keep the test's cold builds short; the bench checks the invariant on all of gemini-cli.
    const scope = { include: ['dist/src/core', 'dist/src/utils'] };
    const built = await buildHandbook(repo, { ...scope, database });
    const live = await LiveHandbook.open(repo, { database });
    try {
      for (const step of STEPS) {
        for (const apply of step.edits) {
          apply(repo);
          const summary = await live.sync();
          expect(summary.upToDate, step.name).toBe(false);
          expect(summary.fullRebuild, step.name).toBeUndefined();
          expect(summary.resolvedFiles, step.name).toBeLessThan(built.files / 2);
        }
        await expectSameAsColdBuild(repo, database, step.name, scope);
      }
    } finally {
      live.close();
    }
  }, 300_000);
});
