#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/main.js) into one module plus lazily loaded chunks, in place.
// Why: Node 20 spends about 200 ms resolving, compiling and linking the hundreds of small modules
// the CLI imports (zod alone is 100 ms), which is a third of an `ask`; one bundled module loads in
// a fraction of that. The library entry (dist/index.js) stays unbundled for importers.
// Native, large or rarely loaded packages stay outside the bundle and load from node_modules.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'cli');
/** Pure JavaScript packages the CLI loads on every run. */
const BUNDLED = new Set(['zod', 'commander', 'graphology', 'jsonrepair', 'picomatch', 'tinyglobby', 'cli-progress']);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !BUNDLED.has(name));

const entry = path.join(out, 'main.js');
const MARK = '// Bundled by scripts/bundle-cli.mjs from the compiled CLI.';
// tsc writes main.js afresh on every build; a main.js that is already a bundle (the mark follows its #! line) is this script's own output of that build.
if (readFileSync(entry, 'utf8').slice(0, 500).includes(MARK)) {
  console.log(`${path.relative(root, entry)} is already bundled`);
  process.exit(0);
}
// Chunks keep the folder depth of the modules they hold (dist/<folder>/), so `new URL('../../x', import.meta.url)` still finds x.
const result = await build({
  entryPoints: [entry],
  outdir: out,
  allowOverwrite: true,
  entryNames: '[name]',
  chunkNames: 'bundle-[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  metafile: true,
  external,
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: { js: `${MARK}\nimport { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);` },
  logLevel: 'warning',
});
// A running `watch`, `serve` or `mcp` may still load a chunk of the build it started from: chunks
// this build no longer names are removed only once they are a day old.
const current = new Set(Object.keys(result.metafile.outputs).map((file) => path.basename(file)));
const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
for (const file of readdirSync(out)) {
  if (!file.startsWith('bundle-') || current.has(file)) continue;
  if (statSync(path.join(out, file)).mtimeMs < dayAgo) rmSync(path.join(out, file));
}
console.log(`bundled ${path.relative(root, out)}/main.js (external: ${external.length} packages)`);
