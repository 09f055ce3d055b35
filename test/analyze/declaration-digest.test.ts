import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { collectUnits, createUnitIndex } from '../../src/analyze/typescript/collect-units.js';
import { declarationDigest, EXPORTS_ENTRY } from '../../src/analyze/typescript/declaration-digest.js';

function digestOf(text: string, file = 'src/shapes.ts'): Record<string, string> {
  const sourceFile = ts.createSourceFile(`/repo/${file}`, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const index = createUnitIndex();
  collectUnits(sourceFile, file, 'hash', index);
  return declarationDigest(index, sourceFile);
}

// A literal type's text is the type: `'a  b'` and `'a b'` accept different strings, so files
// that pass one to the other must be resolved and checked again.
describe('a declaration digest, where a literal in a declaration changes', () => {
  it.each([
    ['a parameter', 'f', (value: string) => `export function f(x: ${value}): void {\n  console.log(x);\n}\n`],
    ['a return type', 'f', (value: string) => `export function f(): ${value} {\n  return 'a';\n}\n`],
    ['a variable annotation', 'mode', (value: string) => `export const mode: ${value} | undefined = undefined;\n`],
    ['an interface property', 'label', (value: string) => `export interface Shape {\n  label: ${value};\n}\n`],
    ['a type alias', 'Label', (value: string) => `export type Label = ${value} | 'c';\n`],
    ['a type alias member', 'label', (value: string) => `export type Shape = {\n  label: ${value};\n};\n`],
    ['a class heading', 'Box', (value: string) => `export class Box implements Holder<${value}> {\n  held = 1;\n}\n`],
    ['a method signature', 'draw', (value: string) => `export class Box {\n  draw(mode: ${value}): void {\n    console.log(mode);\n  }\n}\n`],
  ])('moves with whitespace inside a string literal type in %s', (_where, name, source) => {
    const before = digestOf(source("'a  b'"))[name];
    expect(before).toBeDefined();
    expect(digestOf(source("'a b'"))[name]).not.toBe(before);
  });

  it('moves with whitespace inside a template literal type', () => {
    const source = (head: string): string => `export type Key = \`${head}\${string}\`;\n`;
    expect(digestOf(source('a  b-'))['Key']).not.toBe(digestOf(source('a b-'))['Key']);
  });

  it('moves with whitespace inside the module an export statement names', () => {
    expect(digestOf("export * from './a  b.js';\n")[EXPORTS_ENTRY]).not.toBe(digestOf("export * from './a b.js';\n")[EXPORTS_ENTRY]);
  });
});

const LAID_OUT = `export interface Shape {
  label: 'a  b';
  size: { width: number; height: number };
}

export type Label = 'a  b' | \`c \${string}\`;

export class Box<T extends 'x  y'> implements Holder<'a  b'> {
  held: 'a  b' = 'a  b';
  [key: string]: unknown;
  draw(mode: 'a  b', scale = 1): 'a  b' {
    return mode;
  }
}

export function f(x: 'a  b', y: number): void {
  console.log(x, y);
}

export const g = (x: 'a  b'): 'a  b' => x;
export { f as h };
`;

const RELAID_OUT = `export interface Shape {
    label:   'a  b';
    size: {
        width: number;
        height: number
    };
}

export type Label =
    'a  b'
    | \`c \${string}\`;

export class Box<
    T extends 'x  y'
> implements Holder<'a  b'>
{
    held: 'a  b' =
        'a  b';
    [key: string]:
        unknown;
    draw(
        mode: 'a  b',
        scale = 1
    ): 'a  b' {
        return mode;
    }
}

export function f(
    x: 'a  b',
    y: number
): void {
    console.log(x, y);
}

export const g = (x: 'a  b'): 'a  b' =>
    x;
export {
    f as h
};
`;

describe('a declaration digest, where only the layout of declarations changes', () => {
  it('is the same after re-indenting and reflowing every declaration', () => {
    expect(digestOf(RELAID_OUT)).toEqual(digestOf(LAID_OUT));
  });
});
