import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { scratchDirectory } from '../helpers/paths.js';

const TYPES =
  "export type Waiting = { status: 'waiting'; request: string };\n" +
  "export type Done = { status: 'done'; request: string; result: string };\n" +
  'export type Call = Waiting | Done;\n' +
  'export type Left = { left: number; shared: string };\n' +
  'export type Right = { right: number; shared: string };\n' +
  'export type Other = { other: number };\n' +
  'export type Joined = (Left & Right) | Other;\n' +
  'export type One = { twin: number };\n' +
  'export type Two = { twin: number; extra?: string };\n' +
  'export type Twin = One | Two;\n' +
  'export type Single = One | Other;\n';
const MAKERS =
  "import type { Call, Joined, Single, Twin } from './types';\n" +
  "export function done(): Call { return { status: 'done', request: 'r', result: 'x' }; }\n" +
  "export function waiting(): Call | undefined { return { status: 'waiting', request: 'r' }; }\n" +
  "export function joined(): Joined { return { left: 1, right: 2, shared: 's' }; }\n" +
  'export function other(): Joined { return { other: 3 }; }\n' +
  'export function twin(): Twin { return { twin: 1 }; }\n' +
  'export function single(): Single { return { twin: 1 }; }\n' +
  'export function passed(take: (call: Call) => void): void { take({ status: "done", request: "q", result: "y" }); }\n';

function writesOf(): Record<string, string[]> {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/types.ts'), TYPES);
  writeFileSync(path.join(root, 'src/makers.ts'), MAKERS);
  const writes: Record<string, string[]> = {};
  for (const edge of analyzeRepository(root).graph.edges) {
    if (edge.kind !== 'writes') continue;
    (writes[edge.from.split('#')[1]!] ??= []).push(edge.to.split('#')[1]!);
  }
  for (const list of Object.values(writes)) list.sort();
  return writes;
}

// A literal written for a union makes one member of it; which one, the properties it spells tell.
describe('an object literal written for a union of object types', () => {
  const writes = writesOf();

  it('writes the member its properties fit, told apart by a literal value where the keys are the same', () => {
    expect(writes.done).toEqual(['Done.request', 'Done.result', 'Done.status']);
    expect(writes.waiting).toEqual(['Waiting.request', 'Waiting.status']);
    expect(writes.passed).toEqual(['Done.request', 'Done.result', 'Done.status']);
  });

  it('writes the joined slots of an intersection that is a member of the union', () => {
    expect(writes.joined).toEqual(['Left.left', 'Left.shared', 'Right.right']);
    expect(writes.other).toEqual(['Other.other']);
  });

  it('writes nothing when several members fit', () => {
    expect(writes.twin).toBeUndefined();
    expect(writes.single).toEqual(['One.twin']);
  });
});
