import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook } from '../../src/index.js';
import type { ToolContext } from '../../src/harness/tool-context.js';
import { stageTool } from '../../src/harness/tools/handbook-tools.js';
import { copyOfTaskFixture } from '../helpers/harness-run.js';

describe('the planner navigation tools', () => {
  it('cut a huge stage id the model sent when they refuse it, and name the stages there are', async () => {
    const repo = copyOfTaskFixture();
    await buildHandbook(repo, {});
    const { graph, organized, register } = openHandbook(repo);
    // The stage tool reads no file, so the live reader is never called.
    const context = { handbook: { graph, organized, register, readSource: undefined } } as unknown as ToolContext;
    const answer = await stageTool.run({ id: 'x'.repeat(50_000) }, context, new AbortController().signal);
    expect(answer).toMatchObject({ ok: false, rule: 'not-found' });
    expect(answer.content).toMatch(/^no stage "x{120}…" \(50000 characters\) \(stages: agent-loop, results, security, /);
    expect(answer.content.length).toBeLessThan(1000);
  });
});
