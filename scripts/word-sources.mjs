#!/usr/bin/env node
// Where each word of the project's word lists (src/api/word-lists.ts) is found: in the code of
// which harnesses. A word list must describe harnesses, not the ones it was measured on, so each
// word must be found in at least three (test/text/word-lists.test.ts holds the lists to that,
// against the file this script writes). A word counts as found in a harness when one of its
// source files (TypeScript, JavaScript, Python, Go, Rust: identifiers split, comments, strings)
// holds it or a word of the same stem; a folder name, when the repository has a folder of that
// name or of the same stem (`example`, `examples`); a file name, likewise for a file's name
// without its extension.
// Usage: npm run word-sources [-- --check]   (reads checkouts in $BENCH_REPOS, default /tmp/repos,
// each as ../shared/bench/extract.py writes a commit;
// --check compares with bench/vocabulary/word-sources.json instead of writing it)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { allSets, root } from './bench-sets.mjs';

const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';
const out = path.join(root, 'bench', 'vocabulary', 'word-sources.json');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'api', 'word-lists.js'))) {
  console.error('no dist/api/word-lists.js: run `npm run build` first');
  process.exit(2);
}
const { WORD_LISTS } = await import(path.join(dist, 'api', 'word-lists.js'));
const { stem } = await import(path.join(dist, 'text', 'identifier-words.js'));

/** Harnesses without a request set, read at these commits. */
const OTHER_HARNESSES = [
  { name: 'cline', repo: 'cline/cline', commit: '21cb8d2525bcedf1f4b6890b27a74a14fe7451e4' },
  { name: 'crush', repo: 'charmbracelet/crush', commit: '37f36e93824e5c4f892e4a817f7f628e2682fe14' },
  { name: 'openhands', repo: 'All-Hands-AI/OpenHands', commit: '156d0686c46aafb0fa9d291da6421fb6f64dddc0' },
  { name: 'swe-agent', repo: 'SWE-agent/SWE-agent', commit: '3ea751c087f32b16e039a2233dd6eefecef325d5' },
];

/** The harnesses read: every request set's repository at its pinned commit, and the others above. */
function harnesses() {
  const listed = allSets().filter(({ file }) => existsSync(file)).map(({ name, file }) => {
    const set = JSON.parse(readFileSync(file, 'utf8'));
    return { name, repo: set.repo, commit: set.commit };
  });
  listed.push(...OTHER_HARNESSES);
  return listed.sort((a, b) => (a.name < b.name ? -1 : 1));
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs)$/;
const SKIPPED = new Set(['node_modules', '.git', '.handbook', 'dist', 'build', 'target', 'vendor']);

/** Every file of the checkout (its folders are the repository's), outside dependency and build folders. */
function* filesOf(directory, relative = '') {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* filesOf(path.join(directory, entry.name), relative ? `${relative}/${entry.name}` : entry.name);
    } else if (entry.isFile()) yield relative ? `${relative}/${entry.name}` : entry.name;
  }
}

/** Lowercase words of a text, identifiers split (`maxRetryCount` → max, retry, count); one-letter words and digits too (`e2e`), unlike splitWords. */
function wordsOf(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const found = { words: new Map(), folders: new Map(), files: new Map() };
const wanted = { words: new Set(), folders: new Set(), files: new Set() };
for (const list of WORD_LISTS) for (const word of list.words) wanted[{ word: 'words', folder: 'folders', file: 'files' }[list.kind]].add(word);

const read = [];
for (const harness of harnesses()) {
  const checkout = path.join(reposDirectory, harness.name);
  if (!existsSync(checkout)) {
    console.log(`- ${harness.name}: skipped, no checkout at ${checkout}`);
    continue;
  }
  const words = new Set();
  const folders = new Set();
  const fileNames = new Set();
  let files = 0;
  for (const file of filesOf(checkout)) {
    for (const folder of file.split('/').slice(0, -1)) folders.add(folder);
    fileNames.add(file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''));
    if (!SOURCE.test(file)) continue;
    files += 1;
    for (const word of wordsOf(readFileSync(path.join(checkout, file), 'utf8'))) words.add(word);
  }
  // A name is found when the harness has it, or a name of the same stem (`example` for `examples`).
  const note = (kind, names) => {
    const stems = new Set([...names].map((name) => stem(name.toLowerCase())));
    for (const name of wanted[kind]) if (names.has(name) || stems.has(stem(name))) found[kind].set(name, [...(found[kind].get(name) ?? []), harness.name]);
  };
  note('words', words);
  note('folders', folders);
  note('files', fileNames);
  read.push(harness);
  console.log(`${harness.name}: ${files} source files, ${words.size} distinct words`);
}

const sorted = (map, keys) => Object.fromEntries([...keys].sort().map((key) => [key, map.get(key) ?? []]));
const result = {
  note: 'Which harnesses each word of the word lists (src/api/word-lists.ts) is found in. Rebuilt by `npm run word-sources` from checkouts of these harnesses at these commits.',
  harnesses: read,
  words: sorted(found.words, wanted.words),
  folders: sorted(found.folders, wanted.folders),
  files: sorted(found.files, wanted.files),
};
const text = `${JSON.stringify(result, null, 1)}\n`;
if (process.argv.includes('--check')) {
  const same = existsSync(out) && readFileSync(out, 'utf8') === text;
  console.log(same ? `${path.relative(root, out)} is up to date` : `${path.relative(root, out)} differs from what the checkouts give: run \`npm run word-sources\``);
  process.exit(same ? 0 : 1);
}
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, text);
const few = Object.keys(wanted).flatMap((kind) => [...wanted[kind]].filter((word) => (found[kind].get(word) ?? []).length < 3).map((word) => (kind === 'words' ? word : `${word} (${kind.slice(0, -1)})`)));
console.log(`wrote ${path.relative(root, out)}: ${read.length} harnesses; in fewer than three: ${few.length === 0 ? 'none' : few.sort().join(', ')}`);
