import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepository } from '../../src/analyze/analyze-repository.js';
import type { Edge, UnresolvedCall } from '../../src/graph/model.js';
import { ProgramGraph } from '../../src/graph/program-graph.js';
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

const LITERAL_KEYS = `export type Config = {
  a: number;
};

export class Keyed {
  p = 0;
  q = '';
  config: Config = { a: 1 };
  counts: Record<string, number> = {};
  items: number[] = [];

  byLiteral(): void {
    this['p'] = 2;
    const read = this["q"];
    this.config[\`a\`] += 1;
    this['items'].push(read.length);
  }
  byDot(): void {
    this.p = 2;
    const read = this.q;
    this.config.a += 1;
    this.items.push(read.length);
  }
  byKey(key: string): void {
    this.counts['total'] = 1;
    this.counts[key] = 2;
  }
}

export const typed: Config = { a: 0 };
export const plain = { count: 0 };

export function literalShared(): void {
  typed['a'] = 2;
  plain['count'] = 1;
}
export class Gauge {
  private level = 0;
  get n(): number { return this.level; }
  set n(value: number) { this.level = value; }
}
export class Panel {
  gauge = new Gauge();
  turnUp(): void { this.gauge['n'] = 1; }
}
`;

const OVERRIDES = `export class Base {
  x = 0;
  static count = 0;
  readBase(): number {
    return this.x + Base.count;
  }
}
export class Derived extends Base {
  override x = 1;
  static count = 1;
  writeDerived(): void {
    this.x = 2;
    Derived.count = 2;
  }
}
export class Narrowed extends Derived {
  declare x: 1 | 2;
  readNarrowed(): number {
    return this.x;
  }
}
export class ByParameter extends Base {
  constructor(public override x: number) {
    super();
  }
}
export class Other extends Base {
  readOther(): number {
    return this.x;
  }
}
export function fromOutside(derived: Derived, narrowed: Narrowed, byParameter: ByParameter): number {
  return derived.x + narrowed.x + byParameter.x;
}
`;

const ENTRIES = `export const plain = { count: 0 };
export class Tally {
  counts: Record<string, number> = {};
  byDot(): void {
    this.counts.total = 1;
    plain.count += 1;
    delete this.counts.gone;
  }
  byKey(): void {
    this.counts['total'] = 1;
    plain['count'] += 1;
  }
}
`;

// Circular heritage is an error the checker reports, not a chain to follow; a base outside the repository has no slot to share.
const OVERRIDES_WITHOUT_BASE_SLOT = `export class A extends B { x = 1; readA(): number { return this.x; } }
export class B extends A { x = 2; readB(): number { return this.x; } }
export class Failure extends Error { override message = 'failed'; show(): string { return this.message; } }
export interface P extends Q { y: number }
export interface Q extends P { y: number }
export function readP(p: P): number { return p.y; }
export interface Wrapped extends Error { message: string }
export function readWrapped(w: Wrapped): string { return w.message; }
export class Left implements Right { z = 1; }
export class Right implements Left { z = 2; }
export function readLoop(left: Left, right: Right): number { return left.z + right.z; }
`;

// The interface's nested names appear nowhere else in the repository: a member name declared only there must still be found.
const NESTED_LITERALS = `export interface Settings {
  section: { entry: string; sub: { leaf: number } };
}
export type Aliased = {
  nested: { deep: string; deeper: { deepest: number } };
};

export function writeInterface(settings: Settings): void {
  settings.section.entry = 'x';
}
export function readInterface(settings: Settings): number {
  const { entry } = settings.section;
  return entry.length + settings.section.sub.leaf;
}
export function writeAlias(aliased: Aliased): void {
  aliased.nested.deep = 'x';
}
export function readAlias(aliased: Aliased): number {
  const { deep } = aliased.nested;
  return deep.length + aliased.nested.deeper.deepest;
}
export class Machine {
  knobs: { dial: number; panel: { lamp: boolean } } = { dial: 0, panel: { lamp: false } };
  turn(): void {
    this.knobs.dial = 1;
  }
  look(): boolean {
    const { dial } = this.knobs;
    return dial > 0 && this.knobs.panel.lamp;
  }
}
`;

const KEYED_CALLS = `export interface Runner {
  run(): void;
}
export class Engine implements Runner {
  run(): void {}
  byDot(): void {
    this.run();
  }
  byKey(): void {
    this['run']();
    this[\`run\`]();
  }
}
export class Turbo extends Engine {
  override run(): void {}
}
export function throughInterfaceByDot(runner: Runner): void {
  runner.run();
}
export function throughInterfaceByKey(runner: Runner): void {
  runner['run']();
}
export function externalByDot(list: string[]): string {
  return list.join();
}
export function externalByKey(list: string[]): string {
  return list['join']();
}
`;

const ASSIGNED = `import * as shared from './shared.js';

export type Options = {
  a: number;
  nested: { deep: string };
};

export class Target {
  a = 0;
  b = '';
  options: Options = { a: 1, nested: { deep: '' } };
  get g(): number {
    return 1;
  }

  fromThis(): number {
    let a = 0, b = '', g = 0;
    ({ a, b, g } = this);
    return a + b.length + g;
  }
  renamed(): number {
    let renamed = 0;
    ({ a: renamed } = this.options);
    return renamed;
  }
  nested(): string {
    let deep = '';
    ({ options: { nested: { deep } } } = this);
    return deep;
  }
  intoFields(other: Target): void {
    ({ a: this.a, b: this.b } = other);
  }
  inArray(list: Options[]): number {
    let a = 0;
    [{ a }] = list;
    for ({ a } of list);
    return a;
  }
  fromNamespace(): number {
    let counter = 0;
    ({ counter } = shared);
    return counter;
  }
}
`;

// A static and an instance member of one name are two properties: one of the constructor, one of each instance.
const STATICS = `export class Counter {
  static total = 0;
  total = 0;
  static limits: { max: number } = { max: 1 };
  limits: { max: number } = { max: 2 };
  bump(): void {
    this.total += 1;
    Counter.total += 1;
  }
  cap(): number {
    return this.limits.max + Counter.limits.max;
  }
}
`;

// A field a class declares for an interface it implements, and an interface's redeclaration of a property it extends.
const IMPLEMENTED = `export interface Named {
  label: string;
}
export interface Titled extends Named {
  label: 'title';
  title: string;
}
export interface Tally {
  count: number;
}
export class Card implements Named {
  label = '';
  rename(): void {
    this.label = 'card';
  }
}
export class Page implements Titled, Tally {
  label = 'title' as const;
  title = '';
  constructor(public count: number) {}
  retitle(): void {
    this.title = 'page';
    this.count += 1;
  }
}
export function show(named: Named): string {
  return named.label;
}
export function showTitled(titled: Titled, tally: Tally): string {
  return titled.label + titled.title + tally.count;
}
export function showPage(page: Page): string {
  return page.label + page.title;
}
`;

// One property of an instance declared by several supertypes: by two interfaces a class implements, by a base class and an
// interface the subclass inherits it from without redeclaring it, by two interfaces an interface extends.
const JOINED = `export interface Second {
  x: number;
}
export interface First {
  x: number;
}
export class Both implements Second, First {
  x = 0;
  bump(): void {
    this.x += 1;
  }
}
export function viaFirst(first: First): number {
  return first.x;
}
export function viaSecond(second: Second): number {
  return second.x;
}
export function castToSecond(both: Both): void {
  (both as Second).x = 2;
}
export class Base {
  y = 0;
}
export interface HasY {
  y: number;
}
export class Sub extends Base implements HasY {}
export function viaHasY(has: HasY): number {
  return has.y;
}
export interface P {
  z: string;
}
export interface Q {
  z: string;
}
export interface PQ extends P, Q {}
export function viaQ(q: Q, pq: PQ): string {
  return q.z + pq.z;
}
`;

// A value of an intersection has one property of a name, whichever constituent declares it: as for a type with several
// supertypes, one slot, the smallest id of theirs, for an alias of one, a parameter, a variable, and a literal typed by one.
const INTERSECTED = `export interface Second {
  x: number;
}
export interface First {
  x: number;
}
export type Both = Second & First;
export function viaBoth(both: Both): number {
  return both.x;
}
export function viaSecond(second: Second): number {
  return second.x;
}
export const made: Second & First = { x: 1 };
export interface Right {
  y: number;
}
export interface Left {
  y: number;
}
export function setPair(pair: Right & Left): void {
  pair.y = 2;
}
export function viaRight(right: Right): number {
  return right.y;
}
export interface Outer {
  z: number;
}
export interface Inner {
  z: number;
  only: number;
}
export function local(): number {
  const value: Outer & Inner = { z: 3, only: 4 };
  return value.z;
}
export function viaOuter(outer: Outer): number {
  return outer.z;
}
export type Sized = { size: number };
export interface Box extends Sized {}
`;

// An object literal typed by a declaration sets the declared properties, as a constructor sets its fields.
const LITERALS = `export interface Settings {
  x: number;
  nested: { deep: string };
}
export interface Extra {
  w: number;
}
export const cfg: Settings = { x: 1, nested: { deep: '' } };
export function declared(): Settings {
  return { x: 2, nested: { deep: 'a' } };
}
export function satisfying() {
  return { x: 3, nested: { deep: 'b' } } satisfies Settings;
}
export function shorthand(x: number): Settings | undefined {
  const nested = { deep: '' };
  return { x, nested };
}
export function untyped() {
  return { x: 4 };
}
export function intersected(both: Settings & Extra): number {
  return both.x + both.w;
}
`;

// A default in a pattern is an expression evaluated where the pattern stands: what it calls and reads is the unit's.
const DEFAULTS = `export let fallback = 0;
export function make(): number {
  return 1;
}
export class Source {
  a = 0;
  b = 0;
  c = 0;
}
export function assignObject(source: Source): number {
  let a = 0;
  ({ a = make() } = source);
  return a;
}
export function assignArray(list: number[]): number {
  let x = 0;
  [x = make()] = list;
  return x;
}
export function declare(source: Source): number {
  const { b = fallback } = source;
  return b;
}
export function nested(outer: { inner: Source }): number {
  let c = 0;
  ({ inner: { c = make() + fallback } } = outer);
  return c;
}
`;

let edges: Edge[];
let slots: string[];
let unresolved: UnresolvedCall[];
let graphOfTree: ProgramGraph;

beforeAll(() => {
  const root = scratchDirectory();
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src/destructuring.ts'), DESTRUCTURING);
  writeFileSync(path.join(root, 'src/shared.ts'), 'export let counter = 0;\nexport function helper(): void {}\n');
  writeFileSync(path.join(root, 'src/barrel.ts'), "export { counter } from './shared.js';\n");
  writeFileSync(path.join(root, 'src/namespace.ts'), NAMESPACE);
  writeFileSync(path.join(root, 'src/literal-keys.ts'), LITERAL_KEYS);
  writeFileSync(path.join(root, 'src/entries.ts'), ENTRIES);
  writeFileSync(path.join(root, 'src/overrides.ts'), OVERRIDES);
  writeFileSync(path.join(root, 'src/no-base-slot.ts'), OVERRIDES_WITHOUT_BASE_SLOT);
  writeFileSync(path.join(root, 'src/nested-literals.ts'), NESTED_LITERALS);
  writeFileSync(path.join(root, 'src/keyed-calls.ts'), KEYED_CALLS);
  writeFileSync(path.join(root, 'src/assigned.ts'), ASSIGNED);
  writeFileSync(path.join(root, 'src/statics.ts'), STATICS);
  writeFileSync(path.join(root, 'src/implemented.ts'), IMPLEMENTED);
  writeFileSync(path.join(root, 'src/defaults.ts'), DEFAULTS);
  writeFileSync(path.join(root, 'src/joined.ts'), JOINED);
  writeFileSync(path.join(root, 'src/literals.ts'), LITERALS);
  writeFileSync(path.join(root, 'src/intersected.ts'), INTERSECTED);
  const graph = analyzeRepository(root).graph;
  edges = graph.edges;
  slots = graph.slots.map((slot) => slot.id);
  unresolved = graph.unresolved;
  graphOfTree = new ProgramGraph(graph);
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

describe('a member named by a string literal key', () => {
  it('is read and written as the same member reached with a dot', () => {
    expect(usesOf('literal-keys.ts', 'Keyed.byLiteral')).toEqual([
      'reads Keyed.config@15', 'reads Keyed.q@14', 'writes Config.a@15', 'writes Keyed.items@16', 'writes Keyed.p@13',
    ]);
    expect(usesOf('literal-keys.ts', 'Keyed.byDot')).toEqual([
      'reads Keyed.config@21', 'reads Keyed.q@20', 'writes Config.a@21', 'writes Keyed.items@22', 'writes Keyed.p@19',
    ]);
  });

  it('on a shared object reaches the property slot of its type', () => {
    expect(usesOf('literal-keys.ts', 'literalShared')).toEqual(['reads typed@34', 'writes Config.a@34', 'writes plain@35']);
  });

  it('runs the setter of an accessor, and only reads the object holding it, as a dot does', () => {
    expect(usesOf('literal-keys.ts', 'Panel.turnUp')).toEqual(['calls Gauge.n~2@44', 'reads Panel.gauge@44']);
  });

  it('naming no slot of its own still stores into the object holding it, as any key does', () => {
    expect(usesOf('literal-keys.ts', 'Keyed.byKey')).toEqual(['writes Keyed.counts@25,26']);
  });
});

describe('a store into a member that is no state of its own', () => {
  // A Record entry or a property of an untyped object literal has no slot: the object holding it is what changes.
  it('writes the object holding it, by a dot as by a key', () => {
    expect(usesOf('entries.ts', 'Tally.byDot')).toEqual(['writes Tally.counts@5,7', 'writes plain@6']);
    expect(usesOf('entries.ts', 'Tally.byKey')).toEqual(['writes Tally.counts@10', 'writes plain@11']);
  });
});

describe('a field a subclass redeclares', () => {
  // Every instance has one property x, whichever class's code reads or writes it and whichever redeclares it.
  it.each([
    ['Base.readBase', ['reads Base.x@5', 'reads static Base.count@5', 'references Base@5']],
    ['Derived.writeDerived', ['references Derived@13', 'writes Base.x@12', 'writes static Derived.count@13']],
    ['Narrowed.readNarrowed', ['reads Base.x@19']],
    ['Other.readOther', ['reads Base.x@29']],
    ['fromOutside', ['reads Base.x@33']],
  ])('%s reaches the slot of the base class that declares it first', (unit, expected) => {
    expect(usesOf('overrides.ts', unit)).toEqual(expected);
  });

  it('is one slot, while a static redeclared is a property of each constructor', () => {
    expect(slots.filter((id) => id.startsWith('src/overrides.ts#')).sort()).toEqual([
      'src/overrides.ts#Base.x', 'src/overrides.ts#static Base.count', 'src/overrides.ts#static Derived.count',
    ]);
  });

  it('keeps its own slot where no base type in the repository declares it, or the bases come round', () => {
    expect(usesOf('no-base-slot.ts', 'A.readA')).toEqual(['reads A.x@1']);
    expect(usesOf('no-base-slot.ts', 'B.readB')).toEqual(['reads B.x@2']);
    expect(usesOf('no-base-slot.ts', 'Failure.show')).toEqual(['reads Failure.message@3']);
    expect(usesOf('no-base-slot.ts', 'readP')).toEqual(['reads P.y@6']);
    expect(usesOf('no-base-slot.ts', 'readWrapped')).toEqual(['reads Wrapped.message@8']);
    expect(usesOf('no-base-slot.ts', 'readLoop')).toEqual(['reads Left.z@11', 'reads Right.z@11']);
  });
});

describe('a member of a type literal nested in another type', () => {
  // An interface holds a nested literal as a type alias does: its members are slots under the property that holds it.
  it.each([
    ['writeInterface', ['reads Settings.section@9', 'writes Settings.section.entry@9']],
    ['readInterface', ['reads Settings.section.entry@12', 'reads Settings.section.sub.leaf@13', 'reads Settings.section.sub@13', 'reads Settings.section@12,13']],
    ['writeAlias', ['reads Aliased.nested@16', 'writes Aliased.nested.deep@16']],
    ['readAlias', ['reads Aliased.nested.deep@19', 'reads Aliased.nested.deeper.deepest@20', 'reads Aliased.nested.deeper@20', 'reads Aliased.nested@19,20']],
    // A class field's type holds a nested literal as an interface member's does.
    ['Machine.turn', ['reads Machine.knobs@25', 'writes Machine.knobs.dial@25']],
    ['Machine.look', ['reads Machine.knobs.dial@28', 'reads Machine.knobs.panel.lamp@29', 'reads Machine.knobs.panel@29', 'reads Machine.knobs@28,29']],
  ])('%s reaches the slot of the nested member', (unit, expected) => {
    expect(usesOf('nested-literals.ts', unit)).toEqual(expected);
  });

  it('is a slot whether the outer type is an interface, an alias or a class', () => {
    expect(slots.filter((id) => id.startsWith('src/nested-literals.ts#')).sort()).toEqual([
      'src/nested-literals.ts#Aliased.nested', 'src/nested-literals.ts#Aliased.nested.deep', 'src/nested-literals.ts#Aliased.nested.deeper', 'src/nested-literals.ts#Aliased.nested.deeper.deepest',
      'src/nested-literals.ts#Machine.knobs', 'src/nested-literals.ts#Machine.knobs.dial', 'src/nested-literals.ts#Machine.knobs.panel', 'src/nested-literals.ts#Machine.knobs.panel.lamp',
      'src/nested-literals.ts#Settings.section', 'src/nested-literals.ts#Settings.section.entry', 'src/nested-literals.ts#Settings.section.sub', 'src/nested-literals.ts#Settings.section.sub.leaf',
    ]);
  });
});

describe('a method named by a string literal key', () => {
  /** A unit's call edges as `target@lines via`. */
  const callsOf = (symbol: string): string[] =>
    edges
      .filter((edge) => edge.from === `src/keyed-calls.ts#${symbol}` && edge.kind === 'calls')
      .map((edge) => `${edge.to.slice('src/keyed-calls.ts#'.length)}@${edge.lines.join(',')} ${edge.via}`)
      .sort();

  it('is called as the same method reached with a dot, with dispatch to its overrides', () => {
    expect(callsOf('Engine.byDot')).toEqual(['Engine.run@7 direct', 'Turbo.run@7 dispatch']);
    expect(callsOf('Engine.byKey')).toEqual(['Engine.run@10,11 direct', 'Turbo.run@10,11 dispatch']);
  });

  it('through an interface reaches every implementation', () => {
    expect(callsOf('throughInterfaceByDot')).toEqual(['Engine.run@18 dispatch', 'Turbo.run@18 dispatch']);
    expect(callsOf('throughInterfaceByKey')).toEqual(['Engine.run@21 dispatch', 'Turbo.run@21 dispatch']);
  });

  it('declared nowhere in the repository is an external call', () => {
    expect(unresolved.filter((call) => call.from.startsWith('src/keyed-calls.ts#'))).toEqual([
      { from: 'src/keyed-calls.ts#externalByDot', text: 'list.join', line: 24, reason: 'external' },
      { from: 'src/keyed-calls.ts#externalByKey', text: "list['join']", line: 27, reason: 'external' },
    ]);
  });
});

describe('a destructuring assignment to existing variables', () => {
  // `({ a } = source)` reads what `const { a } = source` reads; what it stores into is written as before.
  it.each([
    ['Target.fromThis', ['calls Target.g@18', 'reads Target.a@18', 'reads Target.b@18']],
    ['Target.renamed', ['reads Options.a@23', 'reads Target.options@23']],
    ['Target.nested', ['reads Options.nested.deep@28', 'reads Options.nested@28', 'reads Target.options@28']],
    ['Target.intoFields', ['reads Target.a@32', 'reads Target.b@32', 'writes Target.a@32', 'writes Target.b@32']],
    ['Target.inArray', ['reads Options.a@36,37']],
    ['Target.fromNamespace', ['reads src/shared.ts#counter@42']],
  ])('%s reads the members its pattern names from the source', (unit, expected) => {
    expect(usesOf('assigned.ts', unit)).toEqual(expected);
  });
});

describe('a static and an instance member of one name', () => {
  it('are two slots, the static one marked, down to the members of the type literals they hold', () => {
    expect(slots.filter((id) => id.startsWith('src/statics.ts#')).sort()).toEqual([
      'src/statics.ts#Counter.limits', 'src/statics.ts#Counter.limits.max', 'src/statics.ts#Counter.total',
      'src/statics.ts#static Counter.limits', 'src/statics.ts#static Counter.limits.max', 'src/statics.ts#static Counter.total',
    ]);
  });

  it.each([
    ['Counter.bump', ['references Counter@8', 'writes Counter.total@7', 'writes static Counter.total@8']],
    ['Counter.cap', ['reads Counter.limits.max@11', 'reads Counter.limits@11', 'reads static Counter.limits.max@11', 'reads static Counter.limits@11', 'references Counter@11']],
  ])('%s reaches each through its own slot', (unit, expected) => {
    expect(usesOf('statics.ts', unit)).toEqual(expected);
  });

  it('are both named by Owner.name, and the static one alone by its own name', () => {
    expect(() => graphOfTree.getSlotOrThrow('Counter.total')).toThrow('"Counter.total" names 2 state slots: src/statics.ts#Counter.total, src/statics.ts#static Counter.total');
    expect(graphOfTree.getSlotOrThrow('static Counter.total').id).toBe('src/statics.ts#static Counter.total');
    expect(graphOfTree.getSlotOrThrow('Derived.count').id).toBe('src/overrides.ts#static Derived.count');
  });
});

describe('a field a class declares for an interface it implements', () => {
  // Code typed by the interface and code typed by the class reach one property of the same instances.
  it.each([
    ['Card.rename', ['writes Named.label@14']],
    ['Page.retitle', ['writes Tally.count@23', 'writes Titled.title@22']],
    ['show', ['reads Named.label@27']],
    ['showTitled', ['reads Named.label@30', 'reads Tally.count@30', 'reads Titled.title@30']],
    ['showPage', ['reads Named.label@33', 'reads Titled.title@33']],
  ])('%s reaches the slot of the interface that declares it first', (unit, expected) => {
    expect(usesOf('implemented.ts', unit)).toEqual(expected);
  });

  it('is the slot of the interface property, as a redeclaring interface property is', () => {
    expect(slots.filter((id) => id.startsWith('src/implemented.ts#')).sort()).toEqual([
      'src/implemented.ts#Named.label', 'src/implemented.ts#Tally.count', 'src/implemented.ts#Titled.title',
    ]);
  });
});

describe('a property that several supertypes of one type declare', () => {
  // An instance has one property of the name, whichever supertype code reaches it through: one slot, the smallest id of theirs.
  it.each([
    ['Both.bump', ['writes First.x@10']],
    ['viaFirst', ['reads First.x@14']],
    ['viaSecond', ['reads First.x@17']],
    ['castToSecond', ['writes First.x@20']],
    ['viaHasY', ['reads Base.y@30']],
    ['viaQ', ['reads P.z@40']],
  ])('%s reaches the one slot of the joined declarations', (unit, expected) => {
    expect(usesOf('joined.ts', unit)).toEqual(expected);
  });

  it('is one slot', () => {
    expect(slots.filter((id) => id.startsWith('src/joined.ts#')).sort()).toEqual([
      'src/joined.ts#Base.y', 'src/joined.ts#First.x', 'src/joined.ts#P.z',
    ]);
  });
});

describe('a property that several constituents of an intersection declare', () => {
  it.each([
    ['viaBoth', ['reads First.x@9']],
    ['viaSecond', ['reads First.x@12']],
    ['made', ['writes First.x@14']],
    ['setPair', ['writes Left.y@22']],
    ['viaRight', ['reads Left.y@25']],
    ['local', ['reads Inner.z@36', 'writes Inner.only@35', 'writes Inner.z@35']],
    ['viaOuter', ['reads Inner.z@39']],
  ])('%s reaches the one slot of the joined declarations', (unit, expected) => {
    expect(usesOf('intersected.ts', unit)).toEqual(expected);
  });

  it('is one slot', () => {
    expect(slots.filter((id) => id.startsWith('src/intersected.ts#')).sort()).toEqual([
      'src/intersected.ts#First.x', 'src/intersected.ts#Inner.only', 'src/intersected.ts#Inner.z', 'src/intersected.ts#Left.y',
    ]);
  });
});

describe('a heritage clause naming an alias', () => {
  // A sync follows joins through heritage edges: the one to an alias counts as the one to an interface does.
  it('is an edge to the alias', () => {
    expect(edges.filter((edge) => edge.from === 'src/intersected.ts#Box' && edge.kind === 'extends').map((edge) => edge.to)).toEqual(['src/intersected.ts#Sized']);
  });
});

describe('an object literal typed by a declaration', () => {
  it.each([
    ['cfg', ['writes Settings.nested.deep@8', 'writes Settings.nested@8', 'writes Settings.x@8']],
    ['declared', ['writes Settings.nested.deep@10', 'writes Settings.nested@10', 'writes Settings.x@10']],
    ['satisfying', ['writes Settings.nested.deep@13', 'writes Settings.nested@13', 'writes Settings.x@13']],
    ['shorthand', ['writes Settings.nested@17', 'writes Settings.x@17']],
    ['untyped', []],
  ])('%s writes the properties it sets', (unit, expected) => {
    expect(usesOf('literals.ts', unit)).toEqual(expected);
  });

  it('is read through an intersection as through the type that declares the member', () => {
    expect(usesOf('literals.ts', 'intersected')).toEqual(['reads Extra.w@23', 'reads Settings.x@23']);
  });
});

describe('a default in a destructuring pattern', () => {
  it.each([
    ['assignObject', ['calls make@12', 'reads Source.a@12']],
    ['assignArray', ['calls make@17']],
    ['declare', ['reads Source.b@21', 'reads fallback@21']],
    ['nested', ['calls make@26', 'reads Source.c@26', 'reads fallback@26']],
  ])('%s calls and reads what its defaults do', (unit, expected) => {
    expect(usesOf('defaults.ts', unit)).toEqual(expected);
  });
});
