import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { buildHandbook } from '../../src/api/build-handbook.js';
import { handbookStatus } from '../../src/api/handbook-status.js';
import { scratchDirectory } from '../helpers/paths.js';

const BOM = '\uFEFF';

function repoWithMarkedScript(): string {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  // A UTF-8 byte-order mark before a `#!` line: editors on Windows write such files, and the compiler reads them cleanly.
  writeFileSync(path.join(root, 'scripts/report.ts'), `${BOM}#!/usr/bin/env tsx\nimport { helper } from './helper';\nexport function report(): number {\n  return helper();\n}\n`);
  writeFileSync(path.join(root, 'scripts/helper.ts'), `${BOM}export function helper(): number {\n  return 1;\n}\n`);
  return root;
}

describe('a source file that starts with a byte-order mark', () => {
  it('is analyzed as the compiler reads it: no syntax warning, its units and calls intact', () => {
    const result = analyzeRepository(repoWithMarkedScript());
    expect(result.statistics.parseWarnings).toEqual([]);
    expect(result.graph.files.map((file) => file.parseErrors)).toEqual([0, 0]);
    const report = result.graph.units.find((unit) => unit.id === 'scripts/report.ts#report');
    expect(report).toMatchObject({ startLine: 3, endLine: 5 });
    expect(result.graph.edges).toContainEqual(expect.objectContaining({ kind: 'calls', from: 'scripts/report.ts#report', to: 'scripts/helper.ts#helper' }));
  });

  it('reads the same to the live resolver once edited: its entries fresh, only the added unit new', async () => {
    const root = repoWithMarkedScript();
    const database = path.join(scratchDirectory(), 'handbook.db');
    await buildHandbook(root, { database });
    expect(await handbookStatus(root, { database })).toMatchObject({ fresh: true, newUnits: [] });
    appendFileSync(path.join(root, 'scripts/report.ts'), 'export function summary(): string {\n  return "ok";\n}\n');
    expect(await handbookStatus(root, { database })).toMatchObject({ counts: { changed: 0, frozen: 0 }, newUnits: ['scripts/report.ts#summary'] });
  });
});
