import { describe, expect, it } from 'vitest';
import { buildHandbook, openHandbook } from '../../src/index.js';
import type { ToolContext } from '../../src/harness/tool-context.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { liveResolverOf, liveSourceOf } from '../../src/api/live-resolution.js';
import type { LiveResolver } from '../../src/locate/live-resolver.js';
import { calleesTool, callersTool, entryTool, stageTool, stateTool } from '../../src/harness/tools/handbook-tools.js';
import { editNeighbours, editStateAccessors, SCHEMA_FILE } from '../helpers/neighbour-edits.js';
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
    const handbook = openHandbook(repo);
    // The declaration and each listed reader are placed live; the twenty not shown cost no resolution, and one resolver serves the answer.
    const resolvers: LiveResolver[] = [];
    const resolved: string[] = [];
    const liveResolver = (): LiveResolver => {
      const resolver = liveResolverOf(handbook);
      const resolve = resolver.resolve.bind(resolver);
      resolver.resolve = (unit) => {
        resolved.push(unit.id);
        return resolve(unit);
      };
      resolvers.push(resolver);
      return resolver;
    };
    const context = { handbook: { ...handbook, readSource: liveSourceOf(handbook), liveResolver } } as unknown as ToolContext;
    const answer = await stateTool.run({ slot: 'counter' }, context, new AbortController().signal);
    expect(answer).toMatchObject({ ok: true, data: { readers: 60 } });
    expect(answer.content).toMatch(/\nreaders: 60\n/);
    const listed = answer.content.split('\n').filter((line) => line.startsWith('- src/readers.ts#read'));
    expect(listed).toHaveLength(40);
    expect(resolvers).toHaveLength(1);
    expect(answer.content).toMatch(/^src\/state\.ts#counter \(module-variable\), declared at src\/state\.ts:1\n/);
    expect(resolved).toEqual(['src/state.ts#counter', 'src/state.ts#bump', ...listed.map((line) => line.slice(2, line.indexOf(' (')))]);
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
    expect(answer.content).toContain('\nat src/security/mask.ts:3-13\n');
  });

  it('place callers and callees where their code stands now: shifted lines, a new file, or gone', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo, {});
    // The handbook is not rebuilt after the edits.
    editNeighbours(repo);

    const handbook = openHandbook(repo, { withUnresolved: false });
    const context = { handbook: { ...handbook, readSource: liveSourceOf(handbook), liveResolver: () => liveResolverOf(handbook) } } as unknown as ToolContext;
    const signal = new AbortController().signal;

    const callers = await callersTool.run({ unit: 'maskSecrets' }, context, signal);
    expect(callers.content).toMatch(/^- src\/observability\/logger\.ts#Logger\.write \(src\/observability\/logger\.ts:40-46, changed since the build, stage [^)]*\): calls it \(at lines not known now: the code they were in changed since the build\)$/m);
    expect(callers.content).toMatch(/^- src\/tools\/shell\.ts#runShellTool \(src\/tools\/shell\.ts:29-41, stage [^)]*\): calls it at line 39$/m);

    const callees = await calleesTool.run({ unit: 'runShellTool' }, context, signal);
    expect(callees.content).toMatch(/^- src\/tools\/shell\.ts#capture \(src\/tools\/shell\.ts:43-57, stage /m);
    expect(callees.content).toMatch(/^- src\/security\/secrets\.ts#maskSecrets \(moved to src\/security\/mask\.ts:3-13, stage /m);
    expect(callees.content).toMatch(/^- src\/tools\/truncate\.ts#truncateOutput \(gone: truncateOutput is no longer in src\/tools\/truncate\.ts, stage /m);

    // maskSecrets' own calls and reads now stand in mask.ts, 24 lines up from where the build saw them.
    const movedCallees = await calleesTool.run({ unit: 'maskSecrets' }, context, signal);
    expect(movedCallees.content).toMatch(/^callees of src\/security\/secrets\.ts#maskSecrets \(moved to src\/security\/mask\.ts:3-13\): 1\n.*#redactValue .*: called at lines 6, 11$/);
    const state = await stateTool.run({ slot: 'SECRET_PATTERNS' }, context, signal);
    expect(state.content).toMatch(/^- src\/security\/secrets\.ts#maskSecrets \(moved to src\/security\/mask\.ts:3-13, stage [^)]*\) at line 5$/m);

    const entry = await entryTool.run({ unit: 'runShellTool' }, context, signal);
    expect(entry.content).toContain('\nat src/tools/shell.ts:29-41\n');
    expect(entry.content).toContain('src/security/secrets.ts#maskSecrets (moved to src/security/mask.ts#maskSecrets)');
    expect(entry.content).toContain('src/tools/truncate.ts#truncateOutput (gone)');
  });

  it('place a piece of state\'s declaration and its writers where their code stands now, and say when the declaration cannot be placed', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo, {});
    // The handbook is not rebuilt after the edits.
    editStateAccessors(repo);

    const handbook = openHandbook(repo, { withUnresolved: false });
    const context = { handbook: { ...handbook, readSource: liveSourceOf(handbook), liveResolver: () => liveResolverOf(handbook) } } as unknown as ToolContext;
    const signal = new AbortController().signal;
    const state = await stateTool.run({ slot: 'ToolSchema.description' }, context, signal);
    // ToolSchema is the build's code, two lines down.
    expect(state.content).toMatch(/^src\/tools\/validate\.ts#ToolSchema\.description \(property: string\), declared at src\/tools\/validate\.ts:8\n/);
    expect(state.content).toMatch(/^- src\/tools\/shell\.ts#shellSchema \(src\/tools\/shell\.ts:8-17, stage [^)]*\) at line 10$/m);
    expect(state.content).toContain(`- src/tools/webFetch.ts#webFetchSchema (moved to ${SCHEMA_FILE}:3-11, stage `);
    expect(state.content).toMatch(/^- src\/tools\/files\.ts#readFileSchema \(gone: readFileSchema is no longer in src\/tools\/files\.ts, stage [^)]*\) \(at lines not known now/m);

    // An edit inside ToolSchema may have moved any of its properties: no line of the build's is given for one.
    const validate = path.join(repo, 'src/tools/validate.ts');
    writeFileSync(validate, readFileSync(validate, 'utf8').replace("  type: 'object';\n", "  type: 'object';\n  title?: string;\n"));
    const changed = await stateTool.run({ slot: 'ToolSchema.description' }, context, signal);
    expect(changed.content).toMatch(/^src\/tools\/validate\.ts#ToolSchema\.description \(property: string\), declared in src\/tools\/validate\.ts, at a line not known now \(ToolSchema changed since the build\)\n/);

    // A module variable starts where its own unit does, edited or not: EMPTY_SCHEMA (registry.ts:19) one line down and edited.
    const registry = path.join(repo, 'src/tools/registry.ts');
    writeFileSync(registry, readFileSync(registry, 'utf8').replace("const EMPTY_SCHEMA: ToolSchema = { type: 'object', description: ''", "// No arguments.\nconst EMPTY_SCHEMA: ToolSchema = { type: 'object', description: 'none'"));
    const variable = await stateTool.run({ slot: 'EMPTY_SCHEMA' }, context, signal);
    expect(variable.content).toMatch(/^src\/tools\/registry\.ts#EMPTY_SCHEMA \(module-variable\), declared at src\/tools\/registry\.ts:20, changed since the build\n/);
  });
});
