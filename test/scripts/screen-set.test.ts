import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHandbook } from '../../src/index.js';
import { runCliAsync } from '../helpers/cli-run.js';
import { copyOfFixture, PROJECT_ROOT } from '../helpers/paths.js';

/** What the test reads of scripts/screen-set.mjs (plain JavaScript, as the bench scripts are). */
interface Located {
  file: string;
  symbol: string;
}
interface Request {
  id: string;
  type: string;
  kind: 'locate' | 'change';
  request: string;
  gold: Array<{ file: string; symbol: string; role?: string }>;
}
interface ScreenSet {
  ASK_LIMIT: number;
  askFigures(request: Request, locations: Located[]): Record<string, number>;
  planFigures(request: Request, targets: Located[]): Record<string, number>;
  loadRanking(dist: string): Promise<unknown>;
  screenRequests(ranking: unknown, repo: string, requests: Request[], options: { plan: boolean }): Array<{ request: Request; locations: Located[]; targets?: Located[] }>;
}

// A specifier TypeScript does not follow: the script is JavaScript without declarations, and vitest loads it as node does.
const modulePath = '../../scripts/screen-set.mjs';
let screen: ScreenSet;
beforeAll(async () => {
  screen = (await import(/* @vite-ignore */ modulePath)) as ScreenSet;
});

const request = (gold: Request['gold'], kind: Request['kind'] = 'locate', text = 'x'): Request => ({ id: 'r', type: 'Q', kind, request: text, gold });

describe('the screen scores as score.mjs does', () => {
  it('counts distinct files for hit@5 and file recall, and the first ten locations for symbol recall', () => {
    const gold = [
      { file: 'g.ts', symbol: 'Mask.apply' },
      { file: 'h.ts', symbol: 'redact' },
      { file: 'extra.ts', symbol: 'noted', role: 'secondary' },
    ];
    // Ten locations of one file, then the two gold files: the files are 2nd and 3rd distinct, the symbols 11th and 12th.
    const locations = [...Array.from({ length: 10 }, (_, n) => ({ file: 'a.ts', symbol: `f${n}` })), { file: 'g.ts', symbol: 'other.apply' }, { file: 'h.ts', symbol: 'redact' }];
    expect(screen.askFigures(request(gold), locations)).toEqual({ hit5: 1, fileR10: 1, symR10: 0, all10: 1 });
    // A symbol matches by its last part, as score.mjs matches `Class.method` against `method`.
    expect(screen.askFigures(request(gold), [{ file: 'g.ts', symbol: 'apply' }]).symR10).toBe(0.5);
    expect(screen.askFigures(request(gold), [{ file: 'x.ts', symbol: 'redact' }])).toEqual({ hit5: 0, fileR10: 0, symR10: 0, all10: 0 });
  });

  it('scores plan targets by file and by file and last symbol part', () => {
    const gold = [
      { file: 'g.ts', symbol: 'Mask.apply' },
      { file: 'h.ts', symbol: 'redact' },
    ];
    const figures = screen.planFigures(request(gold, 'change'), [
      { file: 'g.ts', symbol: 'apply' },
      { file: 'g.ts', symbol: 'other' },
      { file: 'z.ts', symbol: 'redact' },
    ]);
    expect(figures.fileP).toBeCloseTo(1 / 2);
    expect(figures.fileR).toBeCloseTo(1 / 2);
    expect(figures.symP).toBeCloseTo(1 / 3);
    expect(figures.symR).toBeCloseTo(1 / 2);
    expect(figures.symF1).toBeCloseTo(0.4);
  });
});

describe('the screen ranks as the CLI does', () => {
  it('gives the locations of `ask --json` and the targets of `plan --json` for the same requests', async () => {
    const repo = copyOfFixture();
    await buildHandbook(repo, {});
    const requests = [
      request([], 'locate', 'where are secrets masked before output is captured?'),
      request([], 'change', 'mask secrets in every capture path'),
      request([], 'change', 'retry a failed model call with backoff'),
    ];
    const ranking = await screen.loadRanking(path.join(PROJECT_ROOT, 'dist'));
    const screened = screen.screenRequests(ranking, repo, requests, { plan: true });
    for (const { request: asked, locations, targets } of screened) {
      const ask = await runCliAsync(['ask', asked.request, '--repo', repo, '--json', '--limit', String(screen.ASK_LIMIT)]);
      expect(ask.code).toBe(0);
      const cliLocations = (JSON.parse(ask.stdout) as { locations: Located[] }).locations.map(({ file, symbol }) => ({ file, symbol }));
      expect(cliLocations.length).toBeGreaterThan(0);
      expect(locations).toEqual(cliLocations);
      if (asked.kind !== 'change') continue;
      const plan = await runCliAsync(['plan', asked.request, '--repo', repo, '--json']);
      expect(plan.code).toBe(0);
      const cliTargets = (JSON.parse(plan.stdout) as { targets: Located[] }).targets.map(({ file, symbol }) => ({ file, symbol }));
      expect(cliTargets.length).toBeGreaterThan(0);
      expect(targets).toEqual(cliTargets);
    }
  }, 120_000);
});
