#!/usr/bin/env node
// Placement precision: does a unit land in the stage a maintainer would look in? A fixed random
// sample of 100 code units a repository (seeded by the repository's name, so the same sample every
// run), judged by two readers who never saw the stager's answer; the labels live in
// bench/placement/NAME.json. This script writes the blind sheet the readers work from, and scores
// the handbook's primary stages against the labels.
// Usage:
//   node scripts/bench-placement.mjs --sheet NAME [--out FILE]   the blind sheet (stages, and the sampled units with their code)
//   npm run bench:placement [-- --set NAME] [-- --json out.json]  score every labelled repository whose checkout is present
// Reads $BENCH_REPOS (default /tmp/repos); builds or syncs the handbook first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtCli, root } from './bench-sets.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';
const SAMPLE = 100;
/** The readers' answer for a unit that belongs to no running stage: build and release scripts, CI, examples, evaluation data, test helpers. */
const OUTSIDE = 'outside';

const cli = builtCli();
const { openHandbook } = await import(path.join(root, 'dist', 'index.js'));
const { SEED_SKELETON } = await import(path.join(root, 'dist', 'organize', 'skeleton.js'));

/** A small seeded generator (mulberry32): the sample is a function of the repository's name and its units. */
function generator(seedText) {
  let seed = 0;
  for (const char of seedText) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function freshHandbook(repo) {
  const built = existsSync(path.join(repo, '.handbook', 'handbook.db'));
  execFileSync(process.execPath, [cli, built ? 'sync' : 'build', repo, '--no-progress'], { stdio: 'ignore' });
  return openHandbook(repo);
}

/** The sampled unit ids: code units (declarations outside test files) in id order, drawn without replacement. */
function sample(name, graph) {
  const ids = graph.codeUnits().map((unit) => unit.id).sort();
  const random = generator(name);
  const chosen = [];
  const pool = [...ids];
  while (chosen.length < SAMPLE && pool.length > 0) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return chosen.sort();
}

function writeSheet(name) {
  const repo = path.join(reposDirectory, name);
  const handbook = freshHandbook(repo);
  const lines = [
    `# Placement sheet: ${name}`,
    '',
    `Checkout: ${repo}. For each unit, answer the id of the stage a maintainer of this harness would look in`,
    `to find or change it, or \`${OUTSIDE}\` when it belongs to no running stage of the harness (build, release or CI`,
    'scripts, examples, evaluation datasets and harnesses, test helpers, documentation tooling).',
    '',
    '## Stages',
    '',
    ...SEED_SKELETON.map((stage) => `- \`${stage.id}\`: ${stage.name}. ${stage.description}.`),
    `- \`${OUTSIDE}\`: not part of the running harness.`,
    '',
    '## Units',
    '',
  ];
  for (const id of sample(name, handbook.graph)) {
    const unit = handbook.graph.getUnit(id);
    const source = readFileSync(path.join(repo, unit.file), 'utf8').split('\n');
    const end = Math.min(unit.endLine, unit.startLine + 14);
    lines.push(`### ${id}`, '', `${unit.kind}, ${unit.file}:${unit.startLine}-${unit.endLine}${unit.parent && unit.parent !== unit.file ? `, inside ${unit.parent}` : ''}`, '');
    lines.push('```', ...source.slice(unit.startLine - 1, end), ...(end < unit.endLine ? ['…'] : []), '```', '');
  }
  handbook.close?.();
  const out = option('out') ?? `placement-sheet-${name}.md`;
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`wrote ${out}`);
}

/** Labels: { repo, commit, readers: [names], units: [{ id, answers: [stage of reader 1, stage of reader 2] }] }. */
function labelledSets(only) {
  const folder = path.join(root, 'bench', 'placement');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((file) => file.endsWith('.json')).map((file) => ({ name: file.replace(/\.json$/, ''), labels: JSON.parse(readFileSync(path.join(folder, file), 'utf8')) })).filter(({ name }) => !only || name === only);
}

function score(only) {
  const rows = [];
  for (const { name, labels } of labelledSets(only)) {
    const repo = path.join(reposDirectory, name);
    if (!existsSync(repo)) {
      console.log(`- ${name}: skipped, no checkout at ${repo}`);
      continue;
    }
    const handbook = freshHandbook(repo);
    const stageOf = new Map();
    for (const stage of handbook.organized.stages) for (const member of stage.members) if (member.primary) stageOf.set(member.unit, stage.id);
    const answerOf = (id) => stageOf.get(id) ?? OUTSIDE;
    const present = labels.units.filter((unit) => handbook.graph.getUnit(unit.id));
    const share = (predicate, units) => (units.length === 0 ? 0 : units.filter(predicate).length / units.length);
    const agreed = present.filter((unit) => unit.answers[0] === unit.answers[1]);
    rows.push({
      set: name,
      units: present.length,
      readersAgree: agreed.length / Math.max(1, present.length),
      perReader: [0, 1].map((reader) => share((unit) => answerOf(unit.id) === unit.answers[reader], present)),
      eitherReader: share((unit) => unit.answers.includes(answerOf(unit.id)), present),
      whereReadersAgree: share((unit) => answerOf(unit.id) === unit.answers[0], agreed),
      agreedUnits: agreed.length,
      outsidePlacedInStages: present.filter((unit) => unit.answers.every((answer) => answer === OUTSIDE) && answerOf(unit.id) !== OUTSIDE).length,
      outsideByBoth: present.filter((unit) => unit.answers.every((answer) => answer === OUTSIDE)).length,
    });
    handbook.close?.();
  }
  console.log('| repository | units | readers agree | stager = reader 1 | stager = reader 2 | stager = either | stager where readers agree | outside (both readers) placed in a stage |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.set} | ${row.units} | ${row.readersAgree.toFixed(2)} | ${row.perReader[0].toFixed(2)} | ${row.perReader[1].toFixed(2)} | ${row.eitherReader.toFixed(2)} | ${row.whereReadersAgree.toFixed(2)} (${row.agreedUnits}) | ${row.outsidePlacedInStages} of ${row.outsideByBoth} |`);
  }
  const json = option('json');
  if (json) writeFileSync(json, `${JSON.stringify(rows, null, 2)}\n`);
}

if (option('sheet')) writeSheet(option('sheet'));
else score(option('set'));
