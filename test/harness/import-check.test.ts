import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findHallucinatedImports, type ImportProblem } from '../../src/harness/import-check.js';
import { scratchDirectory } from '../helpers/paths.js';

function repository(files: Record<string, string>): string {
  const root = realpathSync(scratchDirectory('handbook-import-check-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function specifiers(problems: ImportProblem[]): string[] {
  return problems.map((problem) => (problem.name === undefined ? problem.specifier : `${problem.specifier}#${problem.name}`));
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

let root: string;

/** Each test's edit mixes what it accepts with one import that must be refused, so accepting everything fails too. */
const check = (file: string, oldText: string | undefined, newText: string, pendingFiles?: ReadonlySet<string>): string[] =>
  specifiers(findHallucinatedImports(root, file, oldText, newText, pendingFiles ? { pendingFiles } : {}));

beforeAll(() => {
  root = repository({
    'package.json': json({ name: 'app', dependencies: { '@scope/lib': '1.0.0', zod: '4.0.0' }, devDependencies: { vitest: '4.0.0', '@types/estree': '1.0.0', '@types/babel__core': '7.0.0' }, imports: { '#internal/*': './src/internal/*.js' } }),
    'tsconfig.json': '{\n  // comments are allowed here\n  "compilerOptions": { "paths": { "~/*": ["src/*"], "config": ["src/config.ts"] } },\n}\n',
    'packages/core/package.json': json({ name: '@app/core', dependencies: { chalk: '5.0.0' } }),
    'packages/core/src/index.ts': 'export const core = 1;\n',
    'src/a.ts': [
      'export function fn(): number { return 1; }',
      'export const c = 1, { d1, nested: [d2] } = { d1: 2, nested: [3] };',
      'export type T = string;',
      'export interface I { x: number }',
      'export enum E { A }',
      'export class K {}',
      'export namespace N { export const n = 1; }',
      'const local = 1;',
      'export { local as renamed };',
      'export default fn;',
    ].join('\n'),
    'src/b.ts': "export { fn as again } from './a.js';\nexport * as all from './a.js';\n",
    'src/star.ts': "export * from './a.js';\n",
    'src/no-default.ts': 'export const x = 1;\n',
    'src/equals.ts': 'const value = 1;\nexport = value;\n',
    'src/legacy.cjs': 'module.exports = { anything: 1 };\n',
    'src/esm.mjs': 'export const m = 1;\n',
    'src/view.tsx': 'export const View = 1;\n',
    'src/util/index.ts': 'export const util = 1;\n',
    'src/data.json': '{}\n',
    '.cache/pkg/package.json': json({ name: 'cached-package' }),
  });
});

describe('bare specifiers', () => {
  it('refuses a package no package.json lists, saying where it looked', () => {
    const problems = findHallucinatedImports(root, 'src/x.ts', '', "import _ from 'lodash/fp';\n");
    expect(problems).toEqual([{ specifier: 'lodash/fp', reason: 'package "lodash" is not a dependency in package.json' }]);
  });

  it("names the nearest package.json when it is not the root one, and accepts its and the root's dependencies", () => {
    const problems = findHallucinatedImports(root, 'packages/core/src/x.ts', '', "import chalk from 'chalk';\nimport { z } from 'zod';\nimport _ from 'lodash';\n");
    expect(problems).toEqual([{ specifier: 'lodash', reason: 'package "lodash" is not a dependency in package.json (nearest: packages/core/package.json)' }]);
  });

  it('accepts dependencies and devDependencies', () => {
    expect(check('src/x.ts', '', "import { z } from 'zod';\nimport { it } from 'vitest';\nimport 'left-pad';\n")).toEqual(['left-pad']);
  });

  it('accepts a package whose DefinitelyTyped declarations are listed, for type-only imports', () => {
    expect(check('src/x.ts', '', "import type { Node } from 'estree';\nimport type { PluginObj } from '@babel/core';\nimport type { Tree } from 'estree-walker';\n")).toEqual(['estree-walker']);
  });

  it('accepts Node builtins with and without the node: prefix', () => {
    const text = "import fs from 'fs';\nimport { readFile } from 'fs/promises';\nimport path from 'node:path';\nimport test from 'node:test';\nimport extra from 'fs-extra';\n";
    expect(check('src/x.ts', '', text)).toEqual(['fs-extra']);
  });

  it('accepts a subpath of a listed scoped package, but not another package of the scope', () => {
    expect(check('src/x.ts', '', "import { a } from '@scope/lib/sub/path';\nimport { b } from '@scope/other';\n")).toEqual(['@scope/other']);
  });

  it('accepts a workspace package by its name, but not one only a dot folder holds', () => {
    expect(check('src/x.ts', '', "import { core } from '@app/core';\nimport cached from 'cached-package';\n")).toEqual(['cached-package']);
  });

  it("accepts the nearest package's own name, not the root package's from inside another", () => {
    expect(check('src/x.ts', '', "import { self } from 'app/sub';\n")).toEqual([]);
    expect(check('packages/core/src/x.ts', '', "import { core } from '@app/core/extra';\nimport { app } from 'app';\n")).toEqual(['app']);
  });

  it('accepts tsconfig paths aliases, exact and wildcard', () => {
    expect(check('src/x.ts', '', "import { fn } from '~/a';\nimport config from 'config';\nimport other from 'configs';\n")).toEqual(['configs']);
  });

  it('follows a relative extends to the paths and baseUrl it inherits', () => {
    const nested = repository({
      'package.json': json({ name: 'nested' }),
      'tsconfig.base.json': json({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['lib/*'] } } }),
      'app/tsconfig.json': json({ extends: '../tsconfig.base' }),
      'lib/tool.ts': 'export const tool = 1;\n',
    });
    const problems = findHallucinatedImports(nested, 'app/x.ts', '', "import { a } from '@lib/a';\nimport { tool } from 'lib/tool';\nimport { gone } from 'lib/gone';\n");
    expect(specifiers(problems)).toEqual(['lib/gone']);
  });

  it("accepts a # specifier the package's imports map and refuses one it does not", () => {
    expect(check('src/x.ts', '', "import { i } from '#internal/thing';\nimport { j } from '#other';\n")).toEqual(['#other']);
  });

  it('says so when no package.json is found', () => {
    const bare = repository({ 'src/x.ts': '' });
    expect(findHallucinatedImports(bare, 'src/x.ts', '', "import 'zod';\n")).toEqual([
      { specifier: 'zod', reason: 'package "zod" is not a dependency: there is no package.json from src up to the repository root' },
    ]);
  });
});

describe('what counts as added', () => {
  it('never judges an import the file already had, however broken', () => {
    const old = "import _ from 'lodash';\nimport { gone } from './gone.js';\nimport { nope } from './a.js';\n";
    expect(check('src/x.ts', old, `${old}import 'left-pad';\nexport const y = 1;\n`)).toEqual(['left-pad']);
  });

  it('judges a new name from a module the file already imported', () => {
    expect(check('src/x.ts', "import { fn } from './a.js';\n", "import { fn, c, nope } from './a.js';\n")).toEqual(['./a.js#nope']);
  });

  it('judges every import of a created file', () => {
    expect(findHallucinatedImports(root, 'src/created.ts', undefined, "import { z } from 'zod';\nimport _ from 'lodash';\n")).toEqual([
      { specifier: 'lodash', reason: 'package "lodash" is not a dependency in package.json' },
    ]);
  });

  it('reports a module once however many names and imports use it', () => {
    expect(check('src/x.ts', '', "import { p, q } from './gone.js';\nexport { r } from './gone.js';\nconst s = require('./gone.js');\n")).toEqual(['./gone.js']);
  });

  it('leaves files that are not source alone', () => {
    expect(findHallucinatedImports(root, 'README.md', '', "import _ from 'lodash';\n")).toEqual([]);
    expect(check('src/x.mts', '', "import _ from 'lodash';\n")).toEqual(['lodash']);
  });
});

describe('relative specifiers', () => {
  it('refuses a missing file, naming where it looked', () => {
    const problems = findHallucinatedImports(root, 'src/x.ts', '', "import { m } from './missing.js';\n");
    expect(problems).toEqual([{ specifier: './missing.js', reason: 'module "./missing.js" does not exist: looked for src/missing.js, with source extensions and as src/missing.js/index' }]);
  });

  it('resolves ./a.js to a.ts and the other emitted extensions to their sources', () => {
    expect(check('src/x.ts', '', "import { fn } from './a.js';\nimport { View } from './view.jsx';\nimport { m } from './esm.mjs';\nimport { g } from './gone.js';\n")).toEqual(['./gone.js']);
  });

  it('resolves a folder to its index file, and a path without extension', () => {
    expect(check('src/x.ts', '', "import { util } from './util';\nimport { util as u } from './util/index.js';\nimport { fn } from './a';\nimport { v } from './vanished';\n")).toEqual(['./vanished']);
  });

  it('resolves from the edited file\'s folder', () => {
    expect(check('src/util/x.ts', '', "import { fn } from '../a.js';\nimport { util } from './a.js';\n")).toEqual(['./a.js']);
  });

  it('counts pending files as existing, without judging their names', () => {
    const text = "import { planned } from './planned.js';\n";
    expect(check('src/x.ts', '', text, new Set(['src/planned.ts']))).toEqual([]);
    expect(check('src/x.ts', '', text)).toEqual(['./planned.js']);
  });

  it('refuses a module outside the repository', () => {
    const problems = findHallucinatedImports(root, 'src/x.ts', '', "import { a } from '../../outside.js';\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/outside the repository/);
  });

  it('checks only existence for files that are not source', () => {
    expect(check('src/x.ts', '', "import data from './data.json';\nimport './styles.css';\n")).toEqual(['./styles.css']);
  });

  it('reads through the injected readFile', () => {
    const virtual = path.join(root, 'src', 'virtual.ts');
    const readFile = (file: string): string | undefined => (file === virtual ? 'export const v = 1;\n' : undefined);
    const problems = findHallucinatedImports(root, 'src/x.ts', '', "import { v, w } from './virtual.js';\nimport { fn } from './a.js';\n", { readFile });
    expect(specifiers(problems)).toEqual(['./virtual.js#w', './a.js']);
  });
});

describe('named imports from the repository', () => {
  it('refuses a name the module does not export, naming it', () => {
    expect(findHallucinatedImports(root, 'src/x.ts', '', "import { fn, nope } from './a.js';\n")).toEqual([
      { specifier: './a.js', name: 'nope', reason: 'module "./a.js" (src/a.ts) does not export "nope"' },
    ]);
  });

  it('accepts every kind of export declaration, type-only imports and re-exports', () => {
    const text = [
      "import { fn, c, d1, d2, E, K, N, renamed, type T } from './a.js';",
      "import type { I } from './a.js';",
      "import { again, all } from './b.js';",
      "export { fn as f2, renamed as r2 } from './a.js';",
      "import { local } from './a.js';",
      "export { hidden } from './b.js';",
    ].join('\n');
    expect(check('src/x.ts', '', text)).toEqual(['./a.js#local', './b.js#hidden']);
  });

  it('does not judge names from a module with export *, export = or module.exports', () => {
    const text = "import { anything } from './star.js';\nimport { whatever } from './equals.js';\nimport { some } from './legacy.cjs';\nimport { anything as a } from './a.js';\n";
    expect(check('src/x.ts', '', text)).toEqual(['./a.js#anything']);
  });

  it('refuses a default import of a module without a default export', () => {
    expect(findHallucinatedImports(root, 'src/x.ts', '', "import a from './a.js';\nimport x from './no-default.js';\nimport v from './equals.js';\n")).toEqual([
      { specifier: './no-default.js', name: 'default', reason: 'module "./no-default.js" (src/no-default.ts) has no default export' },
    ]);
  });

  it('is lenient about default imports of CommonJS-looking files, not of ES modules', () => {
    const cjsRoot = repository({ 'package.json': json({ name: 'js' }), 'src/plain.js': 'const x = 1;\n', 'src/esm.mjs': 'export const m = 1;\n' });
    expect(specifiers(findHallucinatedImports(cjsRoot, 'src/x.js', '', "import plain from './plain.js';\nimport esm from './esm.mjs';\n"))).toEqual(['./esm.mjs#default']);
  });
});

describe('other import forms', () => {
  it('judges dynamic import, require and import = require', () => {
    const text = "const a = await import('missing-dynamic');\nconst b = require('missing-required');\nimport c = require('missing-equals');\nconst z = require('zod');\nconst d = await import('./a.js');\n";
    expect(check('src/x.ts', '', text)).toEqual(['missing-dynamic', 'missing-required', 'missing-equals']);
  });

  it('judges export-from declarations', () => {
    expect(check('src/x.ts', '', "export * from 'missing-star';\nexport { z } from 'zod';\n")).toEqual(['missing-star']);
  });

  it('reads JavaScript and JSX edits', () => {
    expect(check('src/x.cjs', '', "const z = require('zod');\nconst m = require('missing-cjs');\n")).toEqual(['missing-cjs']);
    expect(check('src/x.tsx', '', "import { View } from './view.js';\nconst el = <div />;\nimport 'missing-tsx';\n")).toEqual(['missing-tsx']);
  });
});
