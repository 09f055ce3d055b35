import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { collectUnits, createUnitIndex } from '../../src/analyze/typescript/collect-units.js';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import { declarationDigest } from '../../src/analyze/typescript/declaration-digest.js';
import { scratchDirectory } from '../helpers/paths.js';

function digestOf(text: string, file = 'src/keeper.js'): { members: string[]; digest: Record<string, string> } {
  const sourceFile = ts.createSourceFile(`/repo/${file}`, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const index = createUnitIndex();
  collectUnits(sourceFile, file, 'hash', index);
  return { members: [...index.memberNames].sort(), digest: declarationDigest(index, sourceFile) };
}

const keeper = (value: string): string => `export class Keeper {
  constructor() {
    this.dot = ${value};
  }
  adopt() {
    this['quoted'] = ${value};
    this[\`templated\`] = ${value};
  }
}
`;

// JavaScript declares a field by assigning it, through a literal key as through a dot: what the
// assignment holds is what other files' uses of the field see.
describe('a JavaScript field declared by assignment', () => {
  it('is a member named by a dot or by a literal key', () => {
    expect(digestOf(keeper('new Dog()')).members).toEqual(['adopt', 'dot', 'quoted', 'templated']);
  });

  it('has a digest entry that moves with what is assigned, by a dot or by a literal key', () => {
    const before = digestOf(keeper('new Dog()')).digest;
    const after = digestOf(keeper('new Cat()')).digest;
    for (const name of ['dot', 'quoted', 'templated']) {
      expect(before[name], name).toBeDefined();
      expect(after[name], name).not.toBe(before[name]);
    }
  });
});

const ASSIGNED_IN_CONSTRUCTOR = (key: (name: string) => string): string => `export class Chat {
  constructor() {
    ${key('history')} = [];
  }
  add(message) {
    ${key('history')}.push(message);
  }
  last() {
    return ${key('history')}[${key('history')}.length - 1];
  }
}
`;

// tsc emits a TypeScript class field as such an assignment: compiled packages declare most of their fields this way.
describe('a JavaScript field declared only by assignment in the constructor', () => {
  it.each([
    ['a dot', (name: string) => `this.${name}`],
    ['a literal key', (name: string) => `this['${name}']`],
  ])('is a slot written and read through %s', (_label, key) => {
    const root = scratchDirectory();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/chat.js'), ASSIGNED_IN_CONSTRUCTOR(key));
    const graph = analyzeRepository(root).graph;
    const slot = graph.slots.find((candidate) => candidate.id === 'src/chat.js#Chat.history');
    expect(slot).toMatchObject({ kind: 'field', owner: 'src/chat.js#Chat', name: 'history', line: 3 });
    const uses = graph.edges
      .filter((edge) => edge.to === 'src/chat.js#Chat.history')
      .map((edge) => `${edge.kind} ${edge.from}@${edge.lines.join(',')}`)
      .sort();
    expect(uses).toEqual(['reads src/chat.js#Chat.last@9', 'writes src/chat.js#Chat.add@6', 'writes src/chat.js#Chat.constructor@3']);
  });
});

describe('a JavaScript subclass assigning a field its base declares by assignment', () => {
  it("uses the base's slot, none when the base is not the repository's (Error), and a function's own `this` declares no field", () => {
    const root = scratchDirectory();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/chat.js'), `${ASSIGNED_IN_CONSTRUCTOR((name) => `this.${name}`)}export class Thread extends Chat {
  constructor() {
    super();
    this.history = [1];
    this.title = '';
  }
  later() {
    return function () {
      this.draft = 1;
    };
  }
}
export class ChatError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ChatError';
  }
}
`);
    const graph = analyzeRepository(root).graph;
    expect(graph.slots.map((slot) => `${slot.id}@${slot.line}`).sort()).toEqual(['src/chat.js#Chat.history@3', 'src/chat.js#Thread.title@16']);
    expect(graph.edges.filter((edge) => edge.from === 'src/chat.js#Thread.constructor' && edge.kind === 'writes').map((edge) => edge.to).sort())
      .toEqual(['src/chat.js#Chat.history', 'src/chat.js#Thread.title']);
  });
});

describe('a JavaScript field assigned in a static member', () => {
  // `this` in a static member is the class itself: its `this.x = v` declares a property of the constructor, not of each instance.
  it('is a static slot of its own beside an instance field of that name', () => {
    const root = scratchDirectory();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/registry.js'), `export class Registry {
  static setup() {
    this.entries = [];
  }
  constructor() {
    this.entries = new Map();
  }
  add(key) {
    this.entries.set(key, 1);
  }
  static reset() {
    this.entries.length = 0;
  }
}
`);
    const graph = analyzeRepository(root).graph;
    expect(graph.slots.map((slot) => `${slot.id}@${slot.line}`).sort()).toEqual(['src/registry.js#Registry.entries@6', 'src/registry.js#static Registry.entries@3']);
    expect(graph.edges.filter((edge) => edge.kind === 'writes').map((edge) => `${edge.from} ${edge.to}`).sort()).toEqual([
      'src/registry.js#Registry.add src/registry.js#Registry.entries',
      'src/registry.js#Registry.constructor src/registry.js#Registry.entries',
      'src/registry.js#Registry.reset src/registry.js#static Registry.entries',
      'src/registry.js#Registry.setup src/registry.js#static Registry.entries',
    ]);
  });
});
