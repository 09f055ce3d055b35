#!/usr/bin/env node
// Builds the web viewer into dist/web/: type-checks web/ (its own tsconfig, DOM lib, no emit),
// bundles web/src/main.ts with esbuild into dist/web/app.js and copies index.html and app.css.
// `handbook serve` and `handbook render --html` ship these three files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const out = path.join(root, 'dist', 'web');
const require = createRequire(import.meta.url);

if (!process.argv.includes('--no-typecheck')) {
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(web, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(web, 'src', 'main.ts')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
for (const file of ['index.html', 'app.css']) copyFileSync(path.join(web, file), path.join(out, file));
console.log(`built ${path.relative(root, out)}/ (index.html, app.css, app.js)`);
