import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli, runCliAsync } from '../helpers/cli-run.js';

const handbook = (args: string[]) => runCli(args);

// The refusals are one concurrent test each: one after another, their CLI starts added up under
// one timeout on a loaded machine. They only read the handbook built once below.
describe('the read commands as a user meets them', () => {
  let repo: string;
  beforeAll(() => {
    repo = copyOfFixture();
    expect(handbook(['build', repo, '--no-progress']).code).toBe(0);
  });

  it('graph stats names the repository and database it read, not where the handbook was built, once the folder is copied or moved', () => {
    const copy = path.join(scratchDirectory(), 'moved-harness');
    cpSync(repo, copy, { recursive: true });
    const json = handbook(['graph', 'stats', '--repo', copy, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ root: copy, database: path.join(copy, '.handbook', 'handbook.db') });
    const text = handbook(['graph', 'stats', '--repo', copy]);
    expect(text.stdout.split('\n')[0]).toBe(`handbook for ${copy}`);
  });

  const unwritableOuts: Array<[string, () => string, RegExp]> = [
    ['empty', () => '', /^handbook: invalid option --out/],
    ['a folder', () => scratchDirectory(), /^handbook: --out .*: a folder, not a file/],
    ['in a missing folder', () => path.join(scratchDirectory(), 'missing', 'graph.json'), /^handbook: --out .*: there is no folder/],
  ];
  it.concurrent.for(unwritableOuts)('graph export refuses an --out that is %s in one line, instead of printing the graph to stdout', async ([, out, pattern]) => {
    expectOneLineError(await runCliAsync(['graph', 'export', '--repo', repo, '--out', out()]), 2, pattern);
  });

  it('graph export writes --out as the graph it prints, and nothing to stdout', () => {
    const folder = scratchDirectory();
    const written = handbook(['graph', 'export', '--repo', repo, '--out', path.join(folder, 'graph.json')]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(readFileSync(path.join(folder, 'graph.json'), 'utf8')).toBe(handbook(['graph', 'export', '--repo', repo]).stdout);
  });

  it('register SLOT says why a slot it knows is not in the register, instead of "no shared state", and refuses an empty SLOT', () => {
    // Only AgentLoop.isApproved reads the field: the register holds state shared across units.
    const lone = handbook(['register', 'AgentLoop.approvals', '--repo', repo]);
    expect(lone.code, lone.stderr).toBe(0);
    expect(lone.stdout).toBe(
      'src/agent/agentLoop.ts#AgentLoop.approvals is read or written by one unit at most, so it is not in the register (`handbook graph state src/agent/agentLoop.ts#AgentLoop.approvals` shows who does)\n',
    );
    expect(JSON.parse(handbook(['register', 'AgentLoop.approvals', '--repo', repo, '--json']).stdout).slots).toEqual([]);
    expect(handbook(['register', 'ToolCall.name', '--repo', repo]).stdout).toMatch(/^ToolCall\.name {2}src\/providers\/provider\.ts:\d+ {2}stages: /);
    expectOneLineError(handbook(['register', '', '--repo', repo]), 2, /^handbook: no state slot named ""/);
  });

  const closeNames: Array<[string[], RegExp]> = [
    [['graph', 'show', 'AgentLop.run'], /^handbook: no unit named "AgentLop\.run" \(did you mean src\/agent\/agentLoop\.ts#AgentLoop\.run\? pass a unit id/],
    [['graph', 'callers', 'masksecret'], /\(did you mean src\/security\/secrets\.ts#maskSecrets\? /],
    [['graph', 'state', 'toolcall.name'], /^handbook: no state slot named "toolcall\.name" \(did you mean src\/providers\/provider\.ts#ToolCall\.name\? pass a slot id/],
    [['register', 'ToolCal.name'], /did you mean src\/providers\/provider\.ts#ToolCall\.name\?/],
    // Nothing close: no guess, and no pointer to graph stats, which lists counts, not units.
    [['graph', 'show', 'nothingLikeThis'], /^handbook: no unit named "nothingLikeThis" \(pass a unit id \(path\/to\/file\.ts#Class\.method\) or a symbol name; ask finds units by what they do\)$/m],
  ];
  it.concurrent.for(closeNames)('offers the close names of a UNIT or SLOT that names nothing: a slip of case or of a letter: %s', async ([args, pattern]) => {
    expectOneLineError(await runCliAsync([...args, '--repo', repo]), 2, pattern);
  });

  it('ask --explain shows how a request was routed when nothing was found, as --json does: the words searched are the reason', () => {
    const text = handbook(['ask', 'zebra giraffe', '--explain', '--repo', repo]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^no location found for "zebra giraffe": no unit of the handbook matches the words of the request\n\nhow it was routed\n {2}request words {5}zebra, giraffe\n/);
    expect(handbook(['ask', 'zebra giraffe', '--repo', repo]).stdout).toBe('no location found for "zebra giraffe": no unit of the handbook matches the words of the request\n');
  });

  // status, which takes the repository as its argument, was told to pass --repo, which it refuses; sync and watch were told only to build.
  it.concurrent.for([['overview'], ['ask', 'retry'], ['graph', 'stats'], ['status'], ['sync'], ['watch']])('run from a folder inside the repository, points at the handbook above instead of only asking for a build, which would make a second handbook of the folder: %s', async (args) => {
    const result = await runCliAsync(args, { cwd: path.join(repo, 'src', 'tools') });
    expectOneLineError(result, 3, /^handbook: no handbook (database )?at .*src\/tools\/\.handbook\/handbook\.db \(/);
    expect(result.stderr).toContain(`(${repo} has one: run there or pass ${repo} as the repository, or \`handbook build\` to build one for this folder alone)`);
  });

  it.concurrent('run from a folder with no handbook above, asks for a build', async () => {
    expectOneLineError(await runCliAsync(['overview', '--repo', scratchDirectory()]), 3, /\(run `handbook build` in the repository first\)$/m);
  });

  it('ask says the matches are gone since the build when every one is frozen, not only "no location found"', () => {
    const copy = path.join(scratchDirectory(), 'emptied');
    cpSync(repo, copy, { recursive: true });
    rmSync(path.join(copy, 'src'), { recursive: true });
    const text = handbook(['ask', 'retry backoff', '--repo', copy]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^no location found for "retry backoff": the code of every match is gone since the build \(\d+ frozen\); run `handbook sync` and ask again\n$/);
    const json = JSON.parse(handbook(['ask', 'retry backoff', '--repo', copy, '--json']).stdout);
    expect(json).toMatchObject({ locations: [], note: expect.stringMatching(/gone since the build/) });
    expect(json.frozen).toBeGreaterThan(0);
  });

  it.concurrent.for(['abc', '0', '-1', '1.5', '501', ''])('ask --limit out of range or not a number says what it takes, not zod\'s "expected number, received NaN": "%s"', async (limit) => {
    expectOneLineError(await runCliAsync(['ask', 'retry', '--limit', limit, '--repo', repo]), 2, /^handbook: invalid option --limit: a whole number from 1 to 500 \(see `handbook --help`\)$/m);
  });

  it.concurrent('ask takes --limit 500, the most it allows', async () => {
    expect((await runCliAsync(['ask', 'retry', '--limit', '500', '--repo', repo])).code).toBe(0);
  });

  const mistakenKinds: Array<[string[], RegExp]> = [
    [['graph', 'show', 'src/providers/provider.ts#ToolCall.name'], /^handbook: "src\/providers\/provider\.ts#ToolCall\.name" is a state slot, not a unit \(its writers and readers are under `graph state` and in the register\)$/m],
    [['graph', 'callers', 'ToolCall.name'], /is a state slot, not a unit/],
    [['graph', 'state', 'AgentLoop.run'], /^handbook: "AgentLoop\.run" is a unit, not a state slot \(graph show, callers and callees take units/m],
    [['register', 'maskSecrets'], /is a unit, not a state slot/],
  ];
  it.concurrent.for(mistakenKinds)('says a slot passed for a unit is a slot, and a unit passed for a slot is a unit, with the commands that take each: %s', async ([args, pattern]) => {
    expectOneLineError(await runCliAsync([...args, '--repo', repo]), 2, pattern);
  });

  const handbookOuts: Array<[string, (database: string) => string[], RegExp]> = [
    ['graph export to the database', (database) => ['graph', 'export', '--repo', repo, '--out', database], /^handbook: --out .*handbook\.db: a file of the handbook itself/],
    ['graph export to its write-ahead log', (database) => ['graph', 'export', '--repo', repo, '--out', `${database}-wal`], /a file of the handbook itself/],
    ['plan into its folder', () => ['plan', 'mask secrets in every capture path', '--repo', repo, '--out', path.join(repo, '.handbook', 'plan.json')], /a file of the handbook itself/],
  ];
  it.concurrent.for(handbookOuts)('graph export and plan refuse an --out that is the handbook itself or its folder, and the handbook still reads: %s', async ([, args, pattern]) => {
    expectOneLineError(await runCliAsync(args(path.join(repo, '.handbook', 'handbook.db'))), 2, pattern);
    expect((await runCliAsync(['graph', 'stats', '--repo', repo])).code).toBe(0);
  });

  it('graph export refuses an --out that is the database --db puts elsewhere, and that handbook still reads', () => {
    const elsewhere = path.join(scratchDirectory(), 'elsewhere.db');
    expect(handbook(['build', repo, '--db', elsewhere, '--no-progress']).code).toBe(0);
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--db', elsewhere, '--out', elsewhere]), 2, /a file of the handbook itself/);
    expect(handbook(['graph', 'stats', '--repo', repo, '--db', elsewhere]).code).toBe(0);
  });

  const notDigits: Array<[string, () => string[], RegExp]> = [
    ...['1e2', '0x10', '', ' ', '5.0'].map((limit): [string, () => string[], RegExp] => [`ask --limit "${limit}"`, () => ['ask', 'mask secrets', '--repo', repo, '--limit', limit], /--limit.*a whole number from 1 to 500/]),
    ['build --max-file-size 1e6', () => ['build', repo, '--max-file-size', '1e6'], /invalid option --max-file-size/],
  ];
  it.concurrent.for(notDigits)('takes a number option only as digits: 1e2, 0x10 and an empty value are refused, not read as 100, 16 and 0: %s', async ([, args, pattern]) => {
    expectOneLineError(await runCliAsync(args()), 2, pattern);
  });

  it.concurrent('takes a number option written as digits', async () => {
    expect(JSON.parse((await runCliAsync(['ask', 'mask secrets', '--repo', repo, '--limit', '2', '--json'])).stdout).locations).toHaveLength(2);
  });

  const huge = 'a'.repeat(100_000);
  const echoed: Array<[string, string[], string]> = [
    ['graph show', ['graph', 'show', huge], 'no unit named'],
    ['register', ['register', huge], 'no state slot named'],
    ['stage', ['stage', huge], 'no stage'],
  ];
  it.concurrent.for(echoed)('cuts a huge name it echoes back, so the refusal stays a line to read: %s', async ([, args, what]) => {
    const result = await runCliAsync([...args, '--repo', repo]);
    expectOneLineError(result, 2, new RegExp(`^handbook: ${what} "a{120}…" \\(100000 characters\\) \\(`));
    expect(result.stderr.length).toBeLessThan(1000);
  });
});
