import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callFingerprint, type CallOutcome, type LoopFinding, LoopGuards, type LoopLimits } from '../../src/harness/loop-guards.js';

const LIMITS: LoopLimits = { repeatLimit: 3, breakerLimit: 3, effectsWithoutProgress: 10, callsPerTool: 60 };

const READ: CallOutcome = { ok: true, effect: 'read' };
const WRITE: CallOutcome = { ok: true, effect: 'write' };

function guards(limits: Partial<LoopLimits> = {}, options?: ConstructorParameters<typeof LoopGuards>[1]): LoopGuards {
  return new LoopGuards({ ...LIMITS, ...limits }, options);
}

function failure(error: string): CallOutcome {
  return { ok: false, effect: 'exec', error };
}

/** Records the calls in order and returns the kinds of findings each raised. */
function kindsPerCall(loop: LoopGuards, calls: Array<[tool: string, args: unknown]>, outcome = READ): string[][] {
  return calls.map(([tool, args]) => loop.record(tool, args, outcome).map((finding) => finding.kind));
}

/** Rebuilds a JSON value with every object's keys in reverse insertion order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
}

const A: [string, unknown] = ['read_file', { path: 'src/a.ts' }];
const B: [string, unknown] = ['edit_file', { path: 'src/a.ts', old: 'x', new: 'y' }];
const C: [string, unknown] = ['run_check', { name: 'tests' }];

describe('callFingerprint', () => {
  it('writes the tool name and stable JSON of the normalized arguments', () => {
    expect(callFingerprint('read_file', { path: './src/a.ts', limit: 10 })).toBe('read_file {"limit":10,"path":"src/a.ts"}');
  });

  it('ignores key order, in nested objects too', () => {
    expect(callFingerprint('t', { b: 1, a: { d: 2, c: [{ f: 3, e: 4 }] } })).toBe(callFingerprint('t', { a: { c: [{ e: 4, f: 3 }], d: 2 }, b: 1 }));
  });

  it('trims strings and collapses inner whitespace runs to one space', () => {
    expect(callFingerprint('grep', { pattern: '  foo \t\n  bar  ' })).toBe('grep {"pattern":"foo bar"}');
  });

  it('normalizes path and file values: ./, backslashes, . and .. segments', () => {
    const canonical = callFingerprint('read_file', { path: 'src/a.ts' });
    for (const variant of ['./src/a.ts', 'src\\a.ts', '.\\src\\a.ts', 'src/./lib/../a.ts', ' src//a.ts ']) {
      expect(callFingerprint('read_file', { path: variant })).toBe(canonical);
    }
    expect(callFingerprint('edit', { edits: [{ file: './src/b.ts' }] })).toBe(callFingerprint('edit', { edits: [{ file: 'src/b.ts' }] }));
    expect(callFingerprint('read_files', { path: ['./a.ts', 'lib\\b.ts'] })).toBe('read_files {"path":["a.ts","lib/b.ts"]}');
  });

  it('leaves strings under other keys as paths unnormalized', () => {
    expect(callFingerprint('grep', { pattern: './src/a.ts' })).not.toBe(callFingerprint('grep', { pattern: 'src/a.ts' }));
  });

  it('keeps array order and tells tools and value types apart', () => {
    expect(callFingerprint('t', { items: [1, 2] })).not.toBe(callFingerprint('t', { items: [2, 1] }));
    expect(callFingerprint('read_file', A[1])).not.toBe(callFingerprint('list_dir', A[1]));
    expect(callFingerprint('t', { n: 1 })).not.toBe(callFingerprint('t', { n: '1' }));
  });

  it('is invariant under key reordering (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (tool, args) => {
        expect(callFingerprint(tool, reversedKeys(args))).toBe(callFingerprint(tool, args));
      }),
      { seed: 20_240_611, numRuns: 300 },
    );
  });
});

describe('LoopGuards: repeat', () => {
  it('allows repeatLimit identical calls and refuses the next one, naming it', () => {
    const loop = guards({ repeatLimit: 3 });
    for (let run = 0; run < 3; run++) {
      expect(loop.check('read_file', { path: 'src/a.ts' })).toBeUndefined();
      loop.record('read_file', { path: 'src/a.ts' }, READ);
    }
    const finding = loop.check('read_file', { path: './src/a.ts' });
    expect(finding).toEqual<LoopFinding>({
      kind: 'repeat',
      message:
        'read_file {"path":"src/a.ts"} already ran 3 times with the same arguments since the workspace last changed: use what it returned, or try something else',
      fingerprint: 'read_file {"path":"src/a.ts"}',
    });
    expect(loop.check('read_file', { path: 'src/b.ts' })).toBeUndefined();
  });

  it('allows the call again after the workspace changed', () => {
    const loop = guards({ repeatLimit: 3 });
    for (let run = 0; run < 3; run++) loop.record(...A, READ);
    expect(loop.check(...A)?.kind).toBe('repeat');
    loop.noteWorkspaceChanged();
    expect(loop.check(...A)).toBeUndefined();
  });

  it('does not record anything when checking', () => {
    const loop = guards({ repeatLimit: 2, callsPerTool: 2 });
    for (let run = 0; run < 5; run++) expect(loop.check(...A)).toBeUndefined();
  });
});

describe('LoopGuards: cycle', () => {
  it('finds A,B,A,B on the fourth call and names the tools in order', () => {
    const loop = guards();
    expect(kindsPerCall(loop, [A, B, A])).toEqual([[], [], []]);
    const findings = loop.record(...B, WRITE);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.kind).toBe('cycle');
    expect(findings[0]!.message).toMatch(/^the calls read_file → edit_file repeat in a cycle/);
    expect(findings[0]!.fingerprint).toBe(callFingerprint(...B));
  });

  it('finds A,B,C,A,B,C on the sixth call', () => {
    expect(kindsPerCall(guards(), [A, B, C, A, B, C])).toEqual([[], [], [], [], [], ['cycle']]);
  });

  it('leaves A,A,A,A to the repeat guard', () => {
    expect(kindsPerCall(guards({ repeatLimit: 10 }), [A, A, A, A, A, A])).toEqual([[], [], [], [], [], []]);
  });

  it('does not take A,B,A,C for a cycle', () => {
    expect(kindsPerCall(guards(), [A, B, A, C])).toEqual([[], [], [], []]);
  });

  it('reports a cycle once, then again only when it recurs in full', () => {
    expect(kindsPerCall(guards({ repeatLimit: 10 }), [A, B, A, B, A, B, A, B])).toEqual([[], [], [], ['cycle'], [], [], [], ['cycle']]);
  });

  it('restarts the window on progress', () => {
    const loop = guards();
    kindsPerCall(loop, [A, B, A]);
    loop.recordProgress();
    expect(kindsPerCall(loop, [B, A])).toEqual([[], []]);
  });

  it('looks only within cycleWindow calls and up to maxCyclePeriod', () => {
    expect(kindsPerCall(guards({}, { cycleWindow: 3 }), [A, B, A, B])).toEqual([[], [], [], []]);
    expect(kindsPerCall(guards({}, { maxCyclePeriod: 2 }), [A, B, C, A, B, C])).toEqual([[], [], [], [], [], []]);
  });
});

describe('LoopGuards: breaker', () => {
  const test: [string, unknown] = ['run_command', { command: 'npm test' }];

  it('trips on the breakerLimit-th failure with the same error, digits aside, and then refuses the call', () => {
    const loop = guards({ breakerLimit: 3 });
    expect(loop.record(...test, failure('3 tests failed in 1.2s\n  at a.test.ts'))).toEqual([]);
    expect(loop.record(...test, failure('5 tests failed in 0.8s\n  at b.test.ts'))).toEqual([]);
    loop.noteWorkspaceChanged();
    const findings = loop.record(...test, failure('12 tests failed in 3.4s'));
    expect(findings.map((finding) => finding.kind)).toEqual(['breaker']);
    expect(findings[0]!.message).toContain('run_command {"command":"npm test"} failed 3 times with the same error ("12 tests failed in 3.4s")');
    const refusal = loop.check('run_command', { command: ' npm  test ' });
    expect(refusal?.kind).toBe('breaker');
    expect(refusal?.message).toContain('forbidden for the rest of this task');
    expect(loop.check('run_command', { command: 'npm run build' })).toBeUndefined();
  });

  it('does not trip on different errors', () => {
    const loop = guards({ breakerLimit: 3, repeatLimit: 10 });
    const findings = ['missing module', 'type error', 'timeout'].flatMap((error) => loop.record(...test, failure(error)));
    expect(findings).toEqual([]);
    expect(loop.check(...test)).toBeUndefined();
  });

  it('does not count successes', () => {
    const loop = guards({ breakerLimit: 3 });
    loop.record(...test, failure('tests failed'));
    loop.record(...test, failure('tests failed'));
    expect(loop.record(...test, { ok: true, effect: 'exec' })).toEqual([]);
    loop.noteWorkspaceChanged();
    expect(loop.check(...test)).toBeUndefined();
    expect(loop.record(...test, failure('tests failed')).map((finding) => finding.kind)).toEqual(['breaker']);
  });
});

describe('LoopGuards: progress budget', () => {
  it('breaks on the Nth write, exec or external effect, not counting reads', () => {
    const loop = guards({ effectsWithoutProgress: 3, repeatLimit: 100 });
    expect(loop.record(...B, WRITE)).toEqual([]);
    expect(loop.record(...A, READ)).toEqual([]);
    expect(loop.record(...C, { ok: false, effect: 'exec', error: 'failed' })).toEqual([]);
    expect(loop.record(...A, READ)).toEqual([]);
    const findings = loop.record('fetch_url', { url: 'https://example.com' }, { ok: true, effect: 'external' });
    expect(findings.map((finding) => finding.kind)).toEqual(['progress_budget']);
    expect(findings[0]!.message).toContain('fetch_url {"url":"https://example.com"}');
  });

  it('restarts on progress', () => {
    const loop = guards({ effectsWithoutProgress: 3, repeatLimit: 100 });
    loop.record(...B, WRITE);
    loop.record(...C, WRITE);
    loop.recordProgress();
    expect(loop.record(...B, WRITE)).toEqual([]);
    expect(loop.record(...C, WRITE)).toEqual([]);
    expect(loop.record(...B, WRITE).map((finding) => finding.kind)).toEqual(['progress_budget']);
  });
});

describe('LoopGuards: tool cap', () => {
  it('refuses a tool that already ran callsPerTool times, whatever the arguments, and only that tool', () => {
    const loop = guards({ callsPerTool: 2 });
    loop.record('read_file', { path: 'a.ts' }, READ);
    expect(loop.check('read_file', { path: 'b.ts' })).toBeUndefined();
    loop.record('read_file', { path: 'b.ts' }, READ);
    const finding = loop.check('read_file', { path: 'c.ts' });
    expect(finding?.kind).toBe('tool_cap');
    expect(finding?.message).toMatch(/^read_file already ran 2 times in this task/);
    expect(loop.check('list_dir', { path: '.' })).toBeUndefined();
  });
});
