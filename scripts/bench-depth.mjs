#!/usr/bin/env node
// How deep in `ask`'s ranking each dev set's gold files lie: builds the handbook of each present
// checkout (see scripts/bench-sets.mjs) with the built CLI, asks every request for 500 locations,
// and prints the share of gold files among the first K distinct files, macro-averaged over requests.
// fileR@10 of `npm run bench:ask` is the K = 10 column; a column K says how far a perfect
// re-ordering of ask's first K files could lift it, so what a better ranker of the same candidates
// can reach, and what needs candidates the words of the request do not find. For the change
// requests it also prints the best file F1 and symbol F1 (score.mjs --plan's measures) that any
// prefix of ask's files, or of its locations, gives each request: a plan that takes the first
// files of ask's order and knew where to stop could do no better.
// Usage: npm run build && npm run bench:depth [-- --set gemini-cli]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { benchArguments, builtCli, presentSets, root } from './bench-sets.mjs';

const DEPTHS = [5, 10, 20, 30, 50, 100];
const LOCATIONS = 500;
const last = (symbol) => String(symbol ?? '').split('.').pop();

/** The best F1 against `gold` of any prefix of `ranked` (distinct keys, best first). */
function bestPrefixF1(ranked, gold) {
  const wanted = new Set(gold);
  let found = 0;
  let best = 0;
  ranked.forEach((key, index) => {
    if (wanted.has(key)) found += 1;
    const precision = found / (index + 1);
    const recall = found / wanted.size;
    if (found > 0) best = Math.max(best, (2 * precision * recall) / (precision + recall));
  });
  return best;
}

const { only } = benchArguments();
const cli = builtCli();
const run = (args) => execFileSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const rows = [];
for (const { name, repo, file } of presentSets(only)) {
  const set = JSON.parse(readFileSync(file, 'utf8'));
  console.log(`$ node dist/cli/main.js build ${repo}`);
  run(['build', repo]);
  const recall = DEPTHS.map(() => 0);
  const prefix = { changes: 0, file: 0, symbol: 0 };
  for (const request of set.requests) {
    const answer = JSON.parse(run(['ask', request.request, '--repo', repo, '--json', '--limit', String(LOCATIONS)]));
    const files = [...new Set(answer.locations.map((location) => location.file))];
    const gold = [...new Set(request.gold.filter((place) => (place.role ?? 'primary') === 'primary').map((place) => place.file))];
    DEPTHS.forEach((depth, column) => {
      const first = new Set(files.slice(0, depth));
      recall[column] += gold.filter((file) => first.has(file)).length / gold.length;
    });
    if (request.kind === 'change') {
      const primary = request.gold.filter((place) => (place.role ?? 'primary') === 'primary');
      const symbols = [...new Set(answer.locations.map((location) => `${location.file}#${last(location.symbol)}`))];
      prefix.changes += 1;
      prefix.file += bestPrefixF1(files, gold);
      prefix.symbol += bestPrefixF1(symbols, primary.map((place) => `${place.file}#${last(place.symbol)}`));
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  rows.push({ name, requests: set.requests.length, recall: recall.map((sum) => sum / set.requests.length), prefix });
}

console.log(`\n| set | requests | ${DEPTHS.map((depth) => `fileR@${depth}`).join(' | ')} |`);
console.log(`|---|---|${DEPTHS.map(() => '---').join('|')}|`);
for (const { name, requests, recall } of rows) console.log(`| ${name} | ${requests} | ${recall.map((value) => value.toFixed(2)).join(' | ')} |`);

console.log('\n| set | change requests | best-prefix file F1 | best-prefix symbol F1 |');
console.log('|---|---|---|---|');
for (const { name, prefix } of rows) {
  const mean = (sum) => (prefix.changes ? sum / prefix.changes : 0).toFixed(2);
  console.log(`| ${name} | ${prefix.changes} | ${mean(prefix.file)} | ${mean(prefix.symbol)} |`);
}
