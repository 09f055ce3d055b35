#!/usr/bin/env node
// How well behaviours gather what a request is about: for each request of every set whose checkout
// is present, the share of its primary gold units that fall in the three behaviours holding most
// of them, and the units those three behaviours hold in all; beside the same figures for a plain
// grouping by folder inside each stage (each folder a behaviour, cut to the same 60-unit cap).
// And one figure that weighs both at once: the share of the gold a reader finds within a budget of
// 60 and of 120 units (one and two behaviours at the cap), taking whole groups densest in gold first.
// Also the time grouping takes on each repository (what it adds to a cold build, and to a sync that
// places units again).
// Usage: npm run bench:behaviors [-- --set gemini-cli] [-- --json out.json]
// Builds a handbook for a checkout that has none (`handbook build`); reads $BENCH_REPOS (default /tmp/repos).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtCli, presentSets, root } from './bench-sets.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const cli = builtCli();
const { openHandbook } = await import(path.join(root, 'dist', 'index.js'));
const { groupBehaviors, MAX_BEHAVIOR_UNITS } = await import(path.join(root, 'dist', 'organize', 'behaviors.js'));

const last = (symbol) => String(symbol ?? '').split('.').pop().replace(/^#/, '');
const mean = (values) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Each primary member's group under folder grouping: its stage, its folder, and a chunk of at most the cap in file and line order. */
function folderGroups(handbook) {
  const groupOf = new Map();
  const sizeOf = new Map();
  for (const stage of handbook.organized.stages) {
    const byFolder = new Map();
    for (const member of stage.members.filter((each) => each.primary)) {
      const unit = handbook.graph.getUnit(member.unit);
      if (!unit) continue;
      const folder = path.posix.dirname(unit.file);
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), unit]);
    }
    for (const [folder, units] of byFolder) {
      units.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.startLine - b.startLine));
      units.forEach((unit, index) => {
        const group = `${stage.id}/${folder}#${Math.floor(index / MAX_BEHAVIOR_UNITS)}`;
        groupOf.set(unit.id, group);
        sizeOf.set(group, (sizeOf.get(group) ?? 0) + 1);
      });
    }
  }
  return { groupOf, sizeOf };
}

function behaviorGroups(handbook) {
  const groupOf = new Map();
  const sizeOf = new Map();
  for (const stage of handbook.organized.stages) {
    for (const behavior of stage.behaviors) {
      sizeOf.set(behavior.id, behavior.members.length);
      for (const unit of behavior.members) groupOf.set(unit, behavior.id);
    }
  }
  return { groupOf, sizeOf };
}

/** The request's primary gold as units of the handbook: by file and the last part of the symbol, as score.mjs matches them. */
function goldUnits(handbook, request) {
  const ids = new Set();
  for (const gold of request.gold.filter((each) => (each.role ?? 'primary') === 'primary')) {
    for (const unit of handbook.graph.unitsOfFile(gold.file)) if (unit.symbol && last(unit.symbol) === last(gold.symbol)) ids.add(unit.id);
  }
  return [...ids];
}

const BUDGETS = [60, 120];

/** Share of the gold in the three groups holding most of it, those groups' total size, and the share found within each reading budget. */
function topThree(gold, { groupOf, sizeOf }) {
  const grouped = gold.filter((id) => groupOf.has(id));
  if (grouped.length === 0) return undefined;
  const counts = new Map();
  for (const id of grouped) counts.set(groupOf.get(id), (counts.get(groupOf.get(id)) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
  // Groups by gold per unit, densest first, each read whole while it fits: a grouping is judged at equal reading cost.
  const densest = [...counts].sort((a, b) => b[1] / sizeOf.get(b[0]) - a[1] / sizeOf.get(a[0]) || (a[0] < b[0] ? -1 : 1));
  const withinBudget = BUDGETS.map((budget) => {
    let read = 0;
    let found = 0;
    for (const [group, count] of densest) {
      if (read + sizeOf.get(group) > budget) continue;
      read += sizeOf.get(group);
      found += count;
    }
    return found / grouped.length;
  });
  return { share: top.reduce((sum, [, count]) => sum + count, 0) / grouped.length, size: top.reduce((sum, [group]) => sum + sizeOf.get(group), 0), withinBudget };
}

const summarize = (results) => ({
  share: mean(results.map((each) => each.share)),
  size: mean(results.map((each) => each.size)),
  withinBudget: BUDGETS.map((_, index) => mean(results.map((each) => each.withinBudget[index]))),
});

const rows = [];
for (const { name, repo, file } of presentSets(option('set'))) {
  if (!existsSync(path.join(repo, '.handbook', 'handbook.db'))) execFileSync(process.execPath, [cli, 'build', repo, '--no-progress'], { stdio: 'ignore' });
  else execFileSync(process.execPath, [cli, 'sync', repo, '--no-progress'], { stdio: 'ignore' });
  const handbook = openHandbook(repo);
  const set = JSON.parse(readFileSync(file, 'utf8'));
  const methods = { behaviours: behaviorGroups(handbook), folders: folderGroups(handbook) };
  const results = { behaviours: [], folders: [] };
  for (const request of set.requests) {
    const gold = goldUnits(handbook, request);
    for (const [method, groups] of Object.entries(methods)) {
      const result = topThree(gold, groups);
      if (result) results[method].push(result);
    }
  }
  const started = performance.now();
  for (const stage of handbook.organized.stages) {
    groupBehaviors(stage.id, stage.members.filter((member) => member.primary).map((member) => member.unit), handbook.graph, handbook.register);
  }
  const groupingMs = performance.now() - started;
  const row = {
    set: name,
    requests: results.behaviours.length,
    behaviours: summarize(results.behaviours),
    folders: summarize(results.folders),
    groupingMs: Math.round(groupingMs),
    units: handbook.organized.stages.reduce((sum, stage) => sum + stage.members.filter((member) => member.primary).length, 0),
    behaviourCount: handbook.organized.stages.reduce((sum, stage) => sum + stage.behaviors.length, 0),
  };
  handbook.close?.();
  rows.push(row);
}

console.log('| set | requests scored | behaviours: gold in top 3 | their units | folders: gold in top 3 | their units | beats folders | grouping time | units · behaviours |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const beats = row.behaviours.share >= row.folders.share && row.behaviours.size <= row.folders.size ? 'yes' : row.behaviours.share > row.folders.share ? 'more gold, larger' : 'no';
  console.log(`| ${row.set} | ${row.requests} | ${row.behaviours.share.toFixed(2)} | ${row.behaviours.size.toFixed(0)} | ${row.folders.share.toFixed(2)} | ${row.folders.size.toFixed(0)} | ${beats} | ${row.groupingMs} ms | ${row.units} · ${row.behaviourCount} |`);
}
console.log('');
console.log(`| set | ${BUDGETS.map((budget) => `gold within ${budget} units: behaviours · folders`).join(' | ')} |`);
console.log(`|---|${BUDGETS.map(() => '---').join('|')}|`);
for (const row of rows) {
  console.log(`| ${row.set} | ${BUDGETS.map((_, index) => `${row.behaviours.withinBudget[index].toFixed(3)} · ${row.folders.withinBudget[index].toFixed(3)}`).join(' | ')} |`);
}
const json = option('json');
if (json) writeFileSync(json, `${JSON.stringify(rows, null, 2)}\n`);
