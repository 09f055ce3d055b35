#!/usr/bin/env node
// How deep in `ask`'s ranking each dev set's gold files lie: builds the handbook of each present
// checkout (see scripts/bench-sets.mjs) with the built CLI, asks every request for 500 locations,
// and prints the share of gold files among the first K distinct files, macro-averaged over requests.
// fileR@10 of `npm run bench:ask` is the K = 10 column; a column K says how far a perfect
// re-ordering of ask's first K files could lift it, so what a better ranker of the same candidates
// can reach, and what needs candidates the words of the request do not find.
// Usage: npm run build && npm run bench:depth [-- --set gemini-cli]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { benchArguments, root } from './bench-sets.mjs';

const DEPTHS = [5, 10, 20, 30, 50, 100];
const LOCATIONS = 500;
const bench = path.join(root, '..', 'shared', 'bench');
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';
const cli = path.join(root, 'dist', 'cli', 'main.js');
if (!existsSync(cli)) {
  console.error(`no ${path.relative(root, cli)}: run \`npm run build\` first`);
  process.exit(2);
}

const { only } = benchArguments();
const run = (args) => execFileSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const rows = [];
for (const name of ['gemini-cli', 'deepagentsjs']) {
  if (only && name !== only) continue;
  const repo = path.join(reposDirectory, name);
  if (!existsSync(repo)) {
    console.log(`- ${name}: skipped, no checkout at ${repo}`);
    continue;
  }
  const set = JSON.parse(readFileSync(path.join(bench, `${name}.json`), 'utf8'));
  console.log(`$ node dist/cli/main.js build ${repo}`);
  run(['build', repo]);
  const recall = DEPTHS.map(() => 0);
  for (const request of set.requests) {
    const answer = JSON.parse(run(['ask', request.request, '--repo', repo, '--json', '--limit', String(LOCATIONS)]));
    const files = [...new Set(answer.locations.map((location) => location.file))];
    const gold = [...new Set(request.gold.filter((place) => (place.role ?? 'primary') === 'primary').map((place) => place.file))];
    DEPTHS.forEach((depth, column) => {
      const first = new Set(files.slice(0, depth));
      recall[column] += gold.filter((file) => first.has(file)).length / gold.length;
    });
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  rows.push({ name, requests: set.requests.length, recall: recall.map((sum) => sum / set.requests.length) });
}

console.log(`\n| set | requests | ${DEPTHS.map((depth) => `fileR@${depth}`).join(' | ')} |`);
console.log(`|---|---|${DEPTHS.map(() => '---').join('|')}|`);
for (const { name, requests, recall } of rows) console.log(`| ${name} | ${requests} | ${recall.map((value) => value.toFixed(2)).join(' | ')} |`);
