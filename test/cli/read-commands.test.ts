import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, copyOfFixture, scratchDirectory } from '../helpers/paths.js';
import { expectOneLineError, runCli } from '../helpers/cli-run.js';

const handbook = (args: string[]) => runCli(args);


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

  it('graph export refuses an empty --out, a folder or a missing folder in one line, instead of printing the graph to stdout', () => {
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--out', '']), 2, /^handbook: invalid option --out/);
    const folder = scratchDirectory();
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--out', folder]), 2, /^handbook: --out .*: a folder, not a file/);
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--out', path.join(folder, 'missing', 'graph.json')]), 2, /^handbook: --out .*: there is no folder/);
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

  it('offers the close names of a UNIT or SLOT that names nothing: a slip of case or of a letter', () => {
    expectOneLineError(handbook(['graph', 'show', 'AgentLop.run', '--repo', repo]), 2, /^handbook: no unit named "AgentLop\.run" \(did you mean src\/agent\/agentLoop\.ts#AgentLoop\.run\? pass a unit id/);
    expectOneLineError(handbook(['graph', 'callers', 'masksecret', '--repo', repo]), 2, /\(did you mean src\/security\/secrets\.ts#maskSecrets\? /);
    expectOneLineError(handbook(['graph', 'state', 'toolcall.name', '--repo', repo]), 2, /^handbook: no state slot named "toolcall\.name" \(did you mean src\/providers\/provider\.ts#ToolCall\.name\? pass a slot id/);
    expectOneLineError(handbook(['register', 'ToolCal.name', '--repo', repo]), 2, /did you mean src\/providers\/provider\.ts#ToolCall\.name\?/);
    // Nothing close: no guess, and no pointer to graph stats, which lists counts, not units.
    const none = handbook(['graph', 'show', 'nothingLikeThis', '--repo', repo]);
    expectOneLineError(none, 2, /^handbook: no unit named "nothingLikeThis" \(pass a unit id \(path\/to\/file\.ts#Class\.method\) or a symbol name; ask finds units by what they do\)$/m);
  });

  it('ask --explain shows how a request was routed when nothing was found, as --json does: the words searched are the reason', () => {
    const text = handbook(['ask', 'zebra giraffe', '--explain', '--repo', repo]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^no location found for "zebra giraffe": no unit of the handbook matches the words of the request\n\nhow it was routed\n {2}request words {5}zebra, giraffe\n/);
    expect(handbook(['ask', 'zebra giraffe', '--repo', repo]).stdout).toBe('no location found for "zebra giraffe": no unit of the handbook matches the words of the request\n');
  });

  it('run from a folder inside the repository, points at the handbook above instead of only asking for a build, which would make a second handbook of the folder', () => {
    for (const args of [['overview'], ['ask', 'retry'], ['graph', 'stats']]) {
      const result = spawnSync(process.execPath, [CLI, ...args], { cwd: path.join(repo, 'src', 'tools'), encoding: 'utf8', timeout: 60_000 });
      expectOneLineError({ code: result.status, stdout: result.stdout, stderr: result.stderr }, 3, /^handbook: no handbook database at .*src\/tools\/\.handbook\/handbook\.db \(/);
      expect(result.stderr).toContain(`(${repo} has one: pass --repo ${repo} or run there, or \`handbook build\` to build one for this folder alone)`);
    }
    // Nothing above: the plain hint.
    expectOneLineError(handbook(['overview', '--repo', scratchDirectory()]), 3, /\(run `handbook build` in the repository first\)$/m);
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

  it('ask --limit out of range or not a number says what it takes, not zod\'s "expected number, received NaN"', () => {
    for (const limit of ['abc', '0', '-1', '1.5', '501', '']) {
      expectOneLineError(handbook(['ask', 'retry', '--limit', limit, '--repo', repo]), 2, /^handbook: invalid option --limit: a whole number from 1 to 500 \(see `handbook --help`\)$/m);
    }
    expect(handbook(['ask', 'retry', '--limit', '500', '--repo', repo]).code).toBe(0);
  });

  it('says a slot passed for a unit is a slot, and a unit passed for a slot is a unit, with the commands that take each', () => {
    expectOneLineError(handbook(['graph', 'show', 'src/providers/provider.ts#ToolCall.name', '--repo', repo]), 2, /^handbook: "src\/providers\/provider\.ts#ToolCall\.name" is a state slot, not a unit \(its writers and readers are under `graph state` and in the register\)$/m);
    expectOneLineError(handbook(['graph', 'callers', 'ToolCall.name', '--repo', repo]), 2, /is a state slot, not a unit/);
    expectOneLineError(handbook(['graph', 'state', 'AgentLoop.run', '--repo', repo]), 2, /^handbook: "AgentLoop\.run" is a unit, not a state slot \(graph show, callers and callees take units/m);
    expectOneLineError(handbook(['register', 'maskSecrets', '--repo', repo]), 2, /is a unit, not a state slot/);
  });

  it('graph export and plan refuse an --out that is the handbook itself, its database (wherever --db puts it) or its folder, and the handbook still reads', () => {
    const database = path.join(repo, '.handbook', 'handbook.db');
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--out', database]), 2, /^handbook: --out .*handbook\.db: a file of the handbook itself/);
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--out', `${database}-wal`]), 2, /a file of the handbook itself/);
    expectOneLineError(handbook(['plan', 'mask secrets in every capture path', '--repo', repo, '--out', path.join(repo, '.handbook', 'plan.json')]), 2, /a file of the handbook itself/);
    expect(handbook(['graph', 'stats', '--repo', repo]).code).toBe(0);
    const elsewhere = path.join(scratchDirectory(), 'elsewhere.db');
    expect(handbook(['build', repo, '--db', elsewhere, '--no-progress']).code).toBe(0);
    expectOneLineError(handbook(['graph', 'export', '--repo', repo, '--db', elsewhere, '--out', elsewhere]), 2, /a file of the handbook itself/);
    expect(handbook(['graph', 'stats', '--repo', repo, '--db', elsewhere]).code).toBe(0);
  });

  it('takes a number option only as digits: 1e2, 0x10 and an empty value are refused, not read as 100, 16 and 0', () => {
    for (const limit of ['1e2', '0x10', '', ' ', '5.0']) expectOneLineError(handbook(['ask', 'mask secrets', '--repo', repo, '--limit', limit]), 2, /--limit.*a whole number from 1 to 500/);
    expectOneLineError(handbook(['build', repo, '--max-file-size', '1e6']), 2, /invalid option --max-file-size/);
    expect(JSON.parse(handbook(['ask', 'mask secrets', '--repo', repo, '--limit', '2', '--json']).stdout).locations).toHaveLength(2);
  });

  it('cuts a huge name it echoes back, so the refusal stays a line to read', () => {
    const huge = 'a'.repeat(100_000);
    for (const [args, what] of [
      [['graph', 'show', huge], 'no unit named'],
      [['register', huge], 'no state slot named'],
      [['stage', huge], 'no stage'],
    ] as const) {
      const result = handbook([...args, '--repo', repo]);
      expectOneLineError(result, 2, new RegExp(`^handbook: ${what} "a{120}…" \\(100000 characters\\) \\(`));
      expect(result.stderr.length).toBeLessThan(1000);
    }
  });
});
