import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHandbook, LiveHandbook, syncHandbook } from '../../src/index.js';
import { expectSameAsColdBuild } from '../helpers/handbook-snapshot.js';
import { PROJECT_ROOT, scratchDirectory } from '../helpers/paths.js';
import { applyPythonEdit, PYTHON_EDIT_KINDS, pythonEditPlan, type PythonRunState } from '../helpers/python-edits.js';

/**
 * The sync invariant on a Python repository: after any sequence of edits, `sync` (kept open, as
 * watch keeps it, or opened from the store) gives the same graph, stages and register as a cold
 * build of the same tree. A fixed seed, so CI sees the same sequences every time; set
 * HANDBOOK_PROPERTY_SEED and HANDBOOK_PROPERTY_RUNS to explore.
 */

const seed = Number(process.env.HANDBOOK_PROPERTY_SEED ?? 20_261_207);
const numRuns = Number(process.env.HANDBOOK_PROPERTY_RUNS ?? 20);
const SEARCH_LIMIT_MS = Math.max(90_000, numRuns * 5_000);

function copyOfPythonFixture(): string {
  const target = path.join(scratchDirectory(), 'py-harness');
  cpSync(path.join(PROJECT_ROOT, 'fixtures', 'py-harness'), target, { recursive: true, filter: (source) => !source.split(path.sep).some((part) => part === '.handbook' || part === '__pycache__') });
  return target;
}

describe('sync equals a cold build after any sequence of edits to a Python repository', () => {
  it(`holds for ${numRuns} generated sequences of 2-5 edits (seed ${seed})`, async () => {
    expect(PYTHON_EDIT_KINDS.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(pythonEditPlan, { minLength: 2, maxLength: 5 }), async (keepOpen, plans) => {
        const repo = copyOfPythonFixture();
        const scratch = scratchDirectory();
        const database = path.join(scratch, 'handbook.db');
        const state: PythonRunState = { repo, database, counter: 0 };
        const done: string[] = [];
        let live: LiveHandbook | undefined;
        try {
          await buildHandbook(repo, { database });
          if (keepOpen) {
            live = await LiveHandbook.open(repo, { database });
            await live.sync();
          }
          for (const [position, plan] of plans.entries()) {
            done.push(`${position + 1}. ${applyPythonEdit(state, plan)}`);
            const summary = live ? await live.sync() : await syncHandbook(repo, { database });
            if (summary.fullRebuild) done.push(`   (sync rebuilt from scratch: ${summary.fullRebuild})`);
            try {
              await expectSameAsColdBuild(repo, database, `edit ${position + 1}`);
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              throw new Error(`${keepOpen ? 'kept-open LiveHandbook' : 'syncHandbook from the store'}, after:\n${done.join('\n')}\n${message}`, { cause: error });
            }
          }
        } finally {
          live?.close();
          rmSync(path.dirname(repo), { recursive: true, force: true });
          rmSync(scratch, { recursive: true, force: true });
        }
      }),
      { seed, numRuns, plugins: [fc.interruptAfterTimeLimit(SEARCH_LIMIT_MS)] },
    );
  }, SEARCH_LIMIT_MS + 60_000);
});
