import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook } from '../../src/index.js';
import type { ToolContext } from '../../src/harness/tool-context.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { liveResolverOf, liveSourceOf } from '../../src/api/live-resolution.js';
import { entryTool, stageTool, stateTool } from '../../src/harness/tools/handbook-tools.js';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
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

  it('list the first readers of a much-read piece of state, with the whole count, not every one', async () => {
    const repo = scratchDirectory();
    mkdirSync(path.join(repo, 'src'));
    writeFileSync(path.join(repo, 'src/state.ts'), 'export let counter = 0;\nexport function bump(): void {\n  counter += 1;\n}\n');
    const readers = Array.from({ length: 60 }, (_, index) => `export function read${index}(): number {\n  return counter;\n}\n`).join('');
    writeFileSync(path.join(repo, 'src/readers.ts'), `import { counter } from './state';\n${readers}`);
    await buildHandbook(repo, {});
    const { graph, organized, register } = openHandbook(repo);
    const context = { handbook: { graph, organized, register, readSource: undefined } } as unknown as ToolContext;
    const answer = await stateTool.run({ slot: 'counter' }, context, new AbortController().signal);
    expect(answer).toMatchObject({ ok: true, data: { readers: 60 } });
    expect(answer.content).toMatch(/\nreaders: 60\n/);
    expect(answer.content.split('\n').filter((line) => line.startsWith('- src/readers.ts#read'))).toHaveLength(40);
    expect(answer.content).toMatch(/\(20 more not shown\)$/);
  });

  it('give a moved unit\'s locator at the place its code stands now, with its live hash, not call it gone', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo, {});
    // maskSecrets (lines 27-37) moves unchanged into a new file, two lines down, and the handbook is not rebuilt.
    const secrets = path.join(repo, 'src/security/secrets.ts');
    const lines = readFileSync(secrets, 'utf8').split('\n');
    const moved = lines.splice(26, 11);
    writeFileSync(secrets, lines.join('\n'));
    writeFileSync(path.join(repo, 'src/security/mask.ts'), ['// Moved out of secrets.ts.', '', ...moved, ''].join('\n'));

    const handbook = openHandbook(repo, { withUnresolved: false });
    const context = { handbook: { ...handbook, readSource: liveSourceOf(handbook), liveResolver: () => liveResolverOf(handbook) } } as unknown as ToolContext;
    const answer = await entryTool.run({ unit: 'maskSecrets' }, context, new AbortController().signal);
    const locator = { file: 'src/security/mask.ts', symbol: 'maskSecrets', line: 3, endLine: 13, hash: handbook.graph.getUnitOrThrow('src/security/secrets.ts#maskSecrets').hash };
    expect(answer).toMatchObject({ ok: true, data: { locator } });
    expect(answer.content).toContain('the same code is now src/security/mask.ts#maskSecrets: the locator below is the live one');
    expect(answer.content).toContain(`locator (cite it exactly): ${JSON.stringify(locator)}`);
  });
});
