import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import type { Edge } from '../../src/graph/model.js';
import { scratchDirectory } from '../helpers/paths.js';

const DESTRUCTURING = `export type Config = {
  a: number;
  nested: { deep: string };
};

export class Holder {
  a = 0;
  b = '';
  config: Config = { a: 1, nested: { deep: '' } };
  run(): void {}
  get g(): number {
    return 1;
  }

  fromThis(): number {
    const { a, b = 'none' } = this;
    return a + b.length;
  }
  fromField(): number {
    const { a: renamed } = this.config;
    return renamed;
  }
  nested(): string {
    const {
      config: { nested: { deep } },
    } = this;
    return deep;
  }
  nestedByDot(): string {
    return this.config.nested.deep;
  }
  membersThatAreNoState(): number {
    const { run, g, ...rest } = this;
    return g + (run ? 1 : 0) + Object.keys(rest).length;
  }
}

export function fromParameter({ a }: Config): number {
  return a;
}
`;

const NAMESPACE = `import * as shared from './shared.js';
import * as barrel from './barrel.js';

export function fromNamespace(): number {
  const { counter, helper: renamed } = shared;
  renamed();
  return counter;
}
export function throughBarrel(): number {
  const { counter } = barrel;
  return counter;
}
`;

let edges: Edge[];

beforeAll(() => {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/destructuring.ts'), DESTRUCTURING);
  writeFileSync(path.join(root, 'src/shared.ts'), 'export let counter = 0;\nexport function helper(): void {}\n');
  writeFileSync(path.join(root, 'src/barrel.ts'), "export { counter } from './shared.js';\n");
  writeFileSync(path.join(root, 'src/namespace.ts'), NAMESPACE);
  edges = analyzeRepository(root).graph.edges;
});

/** What one unit of a file calls, references, reads and writes, as `kind target@lines`, the target's file named when it is another. */
function usesOf(file: string, symbol: string): string[] {
  const prefix = `src/${file}#`;
  return edges
    .filter((edge) => edge.from === `${prefix}${symbol}` && ['calls', 'references', 'reads', 'writes'].includes(edge.kind))
    .map((edge) => `${edge.kind} ${edge.to.startsWith(prefix) ? edge.to.slice(prefix.length) : edge.to}@${edge.lines.join(',')}`)
    .sort();
}

describe('destructuring a field or a shared object', () => {
  it.each([
    ['Holder.fromThis', ['reads Holder.a@16', 'reads Holder.b@16']],
    ['Holder.fromField', ['reads Config.a@20', 'reads Holder.config@20']],
    ['Holder.nested', ['reads Config.nested.deep@25', 'reads Config.nested@25', 'reads Holder.config@25']],
    // A method is referenced and a getter run, as by `this.run` and `this.g`; the rest element names no one member.
    ['Holder.nestedByDot', ['reads Config.nested.deep@30', 'reads Config.nested@30', 'reads Holder.config@30']],
    ['Holder.membersThatAreNoState', ['calls Holder.g@33', 'references Holder.run@33']],
    ['fromParameter', ['reads Config.a@38']],
  ])('%s reads the slots its pattern names', (unit, expected) => {
    expect(usesOf('destructuring.ts', unit)).toEqual(expected);
  });

  it('reads a module variable and references a function destructured from a module namespace, as their bare names would', () => {
    expect(usesOf('namespace.ts', 'fromNamespace')).toEqual(['reads src/shared.ts#counter@5', 'references src/shared.ts#helper@5']);
    expect(usesOf('namespace.ts', 'throughBarrel')).toEqual(['reads src/shared.ts#counter@10']);
  });
});
