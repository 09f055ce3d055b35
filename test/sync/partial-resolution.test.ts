import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';

const LOOP = 'src/agent/agentLoop.ts';
const SECRETS = 'src/security/secrets.ts';

/** Replaces `anchor` (which must be there once) in a file of the repository. */
function edit(repo: string, file: string, anchor: string, replacement: string): void {
  const target = path.join(repo, file);
  const text = readFileSync(target, 'utf8');
  expect(text.split(anchor).length, `${anchor} in ${file}`).toBe(2);
  writeFileSync(target, text.replace(anchor, replacement));
}

describe('a kept-open handbook resolves an edit inside one unit without the rest of its file', () => {
  let repo: string;
  let database: string;
  let live: LiveHandbook;

  beforeAll(async () => {
    repo = copyOfFixture();
    database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(repo, { database });
    live = await LiveHandbook.open(repo, { database });
  });
  afterAll(() => live?.close());

  // Each step: the edit, and whether the file may be resolved in part. After each, the handbook must equal a cold build.
  const steps: Array<{ name: string; inPart: number; apply: () => void }> = [
    {
      // The first sync reads the analysis back from the store; no earlier text of the file is at hand to compare with.
      name: 'an edit in the first sync',
      inPart: 0,
      apply: () => edit(repo, LOOP, '    for (const call of calls) {\n', "    for (const call of calls) {\n      this.logger.info('dispatching');\n"),
    },
    {
      // A new assignment to a module variable can change its narrowing elsewhere in the file: resolved whole.
      name: 'a new write of module state inside a method',
      inPart: 0,
      apply: () => edit(repo, LOOP, "      this.logger.info('dispatching');\n", "      this.logger.info('dispatching');\n      activeRunId = call.id;\n"),
    },
    {
      name: 'another edit of that method, writing the same state',
      inPart: 1,
      apply: () => edit(repo, LOOP, '      activeRunId = call.id;\n', "      activeRunId = call.id;\n      this.logger.info('assigned');\n"),
    },
    {
      name: 'a nested function and a call to it',
      inPart: 1,
      apply: () => edit(repo, LOOP, '    this.turnCount += 1;\n    if (shouldCompact', "    this.turnCount += 1;\n    function note(text: string): void {\n      console.log(text, currentRunId());\n    }\n    note('step');\n    if (shouldCompact"),
    },
    {
      name: 'lines deleted, edges after them move up',
      inPart: 1,
      apply: () => edit(repo, LOOP, "    function note(text: string): void {\n      console.log(text, currentRunId());\n    }\n    note('step');\n", ''),
    },
    {
      name: 'a field written in another method',
      inPart: 1,
      apply: () => edit(repo, LOOP, "    if (this.config.approvalMode === 'deny') return false;\n", "    if (this.config.approvalMode === 'deny') return false;\n    this.turnCount += 0;\n    this.aborted = this.aborted || this.turnCount > 100;\n"),
    },
    {
      name: 'two methods of a class edited at once',
      inPart: 1,
      apply: () => {
        edit(repo, LOOP, '    this.turnCount += 0;\n', '');
        edit(repo, LOOP, '    activeRunId = randomUUID();\n', '    activeRunId = randomUUID();\n    this.approvals.remember(task, true);\n');
      },
    },
    {
      // The store keeps each file's call lines: a file's first edit in a kept-open handbook is resolved in part too.
      name: 'a call dropped from a function in another file',
      inPart: 1,
      apply: () => edit(repo, SECRETS, '  if (value.length <= 12) return REDACTED;\n', '  if (value.length <= 12) return REDACTED.toLowerCase();\n'),
    },
    {
      name: 'a recursive call added to it',
      inPart: 1,
      apply: () => edit(repo, SECRETS, '  if (value.length <= 12) return REDACTED.toLowerCase();\n', '  if (value.length <= 12) return REDACTED.toLowerCase();\n  if (value.startsWith(" ")) return redactValue(value.trim());\n'),
    },
    {
      name: 'a helper with an inferred type, used in the same file',
      inPart: 0,
      apply: () => edit(repo, SECRETS, '/** Masks every known secret in `text`. */', 'function marker() {\n  return REDACTED;\n}\n\nexport function markerText(): string {\n  return `${marker()}`;\n}\n\n/** Masks every known secret in `text`. */'),
    },
    {
      // The helper's type may have changed, and the file uses it outside the edited body: resolved whole.
      name: 'an edit of that helper',
      inPart: 0,
      apply: () => edit(repo, SECRETS, 'function marker() {\n  return REDACTED;\n', 'function marker() {\n  const text = redactValue(REDACTED);\n  return text.length;\n'),
    },
    {
      name: 'an edit between two units',
      inPart: 0,
      apply: () => edit(repo, SECRETS, "const REDACTED = '[REDACTED]';\n", "const REDACTED = '[REDACTED]';\nconst UNUSED = maskSecrets('');\n"),
    },
  ];

  for (const [position, step] of steps.entries()) {
    it(`${position + 1}. ${step.name}`, async () => {
      step.apply();
      const summary = await live.sync();
      expect(summary.upToDate).toBe(false);
      expect(summary.resolvedInPart, step.name).toBe(step.inPart);
      await expectSameAsColdBuild(repo, database, step.name);
    });
  }
});
