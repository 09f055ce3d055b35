import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { scratchDirectory } from '../helpers/paths.js';

const CONTRACTS =
  'export type Runner = { run(): void };\n' +
  'export interface Named { label(): string }\n' +
  'export type Both = Runner & Named;\n' +
  'export type Extra = (Runner) & { extra(): void };\n' +
  'export type Either = Runner | Named;\n';
const CLASSES =
  "import type { Both, Extra, Runner } from './contracts';\n" +
  'export class Fast implements Runner { run(): void {} }\n' +
  "export class Slow implements Both { run(): void {} label(): string { return 's'; } }\n" +
  'export class More implements Extra { run(): void {} extra(): void {} }\n';
const CALLERS =
  "import type { Both, Either, Extra, Runner } from './contracts';\n" +
  'export function viaRunner(r: Runner): void { r.run(); }\n' +
  'export function viaBoth(b: Both): string { return b.label(); }\n' +
  'export function viaExtra(e: Extra): void { e.extra(); }\n' +
  'export function viaEither(e: Either): void { void e; }\n';

function analyzed() {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/contracts.ts'), CONTRACTS);
  writeFileSync(path.join(root, 'src/classes.ts'), CLASSES);
  writeFileSync(path.join(root, 'src/callers.ts'), CALLERS);
  return analyzeRepository(root).graph;
}

const callsFrom = (graph: ReturnType<typeof analyzed>, from: string) =>
  graph.edges.filter((edge) => edge.kind === 'calls' && edge.from === `src/callers.ts#${from}`).map((edge) => `${edge.to} ${edge.via ?? ''}`.trim()).sort();

// A class may implement an alias as it implements an interface; a call through the alias's
// members, or through a type the alias is an intersection of, must reach the class's methods.
describe('a call through a type alias a class implements', () => {
  const graph = analyzed();

  it('dispatches a member of the alias type literal to every class implementing it, directly or through an intersection', () => {
    expect(callsFrom(graph, 'viaRunner')).toEqual(['src/classes.ts#Fast.run dispatch', 'src/classes.ts#More.run dispatch', 'src/classes.ts#Slow.run dispatch']);
  });

  it('dispatches a member of an interface an intersection alias joins to the classes implementing the alias', () => {
    expect(callsFrom(graph, 'viaBoth')).toEqual(['src/classes.ts#Slow.label dispatch']);
  });

  it('dispatches a member of a type literal inside an intersection alias', () => {
    expect(callsFrom(graph, 'viaExtra')).toEqual(['src/classes.ts#More.extra dispatch']);
  });

  it('makes an intersection alias extend each type it joins, and a union alias extend nothing', () => {
    const heritage = graph.edges.filter((edge) => edge.kind === 'extends').map((edge) => `${edge.from} → ${edge.to}`).sort();
    expect(heritage).toEqual(['src/contracts.ts#Both → src/contracts.ts#Named', 'src/contracts.ts#Both → src/contracts.ts#Runner', 'src/contracts.ts#Extra → src/contracts.ts#Runner']);
  });
});
