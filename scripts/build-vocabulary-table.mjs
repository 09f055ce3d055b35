// Builds the code-vocabulary association table (#32's bet): which identifier words the code that
// npm delivers names a thing with, given the words its doc comment describes it in. Reads every
// declaration with a doc comment in the installed packages' declaration and JavaScript files (node_modules), counts how
// often a doc word and a word of the declared name occur together, and keeps, per doc word, the
// name words it lifts most, when the pair is seen in at least three packages. No model weights,
// nothing fetched: the table is rebuilt from what `npm install` put in node_modules.
//
// Usage: npm run build && node scripts/build-vocabulary-table.mjs [--out src/route/vocabulary-table.json]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { splitWords, stem, isStopWord } = await import(path.join(root, 'dist', 'text', 'identifier-words.js'));
const args = process.argv.slice(2);
const out = path.resolve(root, args.includes('--out') ? args[args.indexOf('--out') + 1] : 'src/route/vocabulary-table.json');

/** A pair must be seen in this many packages and declarations, and lift the name word this much over its base rate. */
const MIN_PACKAGES = 3;
const MIN_DECLARATIONS = 5;
const MIN_LIFT = 3;
/** Name words kept per doc word, strongest first. */
const PER_WORD = 3;

function* declarationFiles(directory) {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* declarationFiles(full);
    else if (/\.(d\.ts|d\.mts|d\.cts|js|mjs|cjs)$/.test(entry.name) && !/\.min\.js$/.test(entry.name) && statSync(full).size < 8_000_000) yield full;
  }
}

/** The package a file belongs to: the last node_modules segment's package name. */
function packageOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  return parts[at + 1]?.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
}

const words = (text) => [...new Set(splitWords(text).filter((word) => !isStopWord(word)).map(stem).filter((word) => word.length > 2))];
// A doc comment, then the name it documents (modifiers and a declaration keyword skipped).
const DOCUMENTED = /\/\*\*((?:[^*]|\*(?!\/))*)\*\/\s*(?:(?:export|declare|default|public|private|protected|static|readonly|abstract|async|get|set|function|class|interface|type|const|let|var|enum|namespace)\s+)*([A-Za-z_$][\w$]*)/g;

const pairs = new Map(); // doc word → name word → { declarations, packages:Set }
const docCount = new Map();
const nameCount = new Map();
let declarations = 0;
const packages = new Set();
for (const file of declarationFiles(path.join(root, 'node_modules'))) {
  const owner = packageOf(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(DOCUMENTED)) {
    // The description only: tags, code spans and links say how to call, not what the thing is.
    const doc = match[1].split(/\n\s*\*?\s*@/)[0].replace(/`[^`]*`|\{@[^}]*\}|https?:\S+/g, ' ');
    const docWords = words(doc);
    const nameWords = words(match[2]);
    if (docWords.length === 0 || nameWords.length === 0) continue;
    declarations += 1;
    packages.add(owner);
    for (const word of docWords) docCount.set(word, (docCount.get(word) ?? 0) + 1);
    for (const word of nameWords) nameCount.set(word, (nameCount.get(word) ?? 0) + 1);
    for (const docWord of docWords) {
      let row = pairs.get(docWord);
      if (!row) pairs.set(docWord, (row = new Map()));
      for (const nameWord of nameWords) {
        if (nameWord === docWord) continue;
        let cell = row.get(nameWord);
        if (!cell) row.set(nameWord, (cell = { declarations: 0, packages: new Set() }));
        cell.declarations += 1;
        cell.packages.add(owner);
      }
    }
  }
}

const table = {};
for (const docWord of [...pairs.keys()].sort()) {
  const seen = docCount.get(docWord);
  const kept = [...pairs.get(docWord)]
    .filter(([, cell]) => cell.packages.size >= MIN_PACKAGES && cell.declarations >= MIN_DECLARATIONS)
    .map(([nameWord, cell]) => ({ nameWord, lift: cell.declarations / seen / (nameCount.get(nameWord) / declarations) }))
    .filter(({ lift }) => lift >= MIN_LIFT)
    .sort((a, b) => b.lift - a.lift || (a.nameWord < b.nameWord ? -1 : 1))
    .slice(0, PER_WORD)
    .map(({ nameWord }) => nameWord);
  if (kept.length > 0) table[docWord] = kept;
}
writeFileSync(out, `${JSON.stringify({ built: { packages: packages.size, declarations, minPackages: MIN_PACKAGES, minDeclarations: MIN_DECLARATIONS, minLift: MIN_LIFT }, table }, null, 0)}\n`);
console.log(`${Object.keys(table).length} doc words from ${declarations} documented declarations in ${packages.size} packages → ${path.relative(root, out)}`);
