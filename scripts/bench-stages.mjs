#!/usr/bin/env node
// Stages on the dev-set repos: share of units placed, stage sizes, stager time.
// Usage: npm run bench:stages   (checkouts from $BENCH_REPOS, default /tmp/repos; see ../shared/bench/README.md)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { buildHandbook } = await import(path.join(root, 'dist', 'index.js'));
const reposDirectory = process.env.BENCH_REPOS ?? '/tmp/repos';
const sets = ['gemini-cli', 'deepagentsjs'];

for (const name of sets) {
  const setFile = path.join(root, '..', 'shared', 'bench', `${name}.json`);
  const repo = path.join(reposDirectory, name);
  if (!existsSync(repo) || !existsSync(setFile)) {
    console.log(`- ${name}: skipped, no checkout at ${repo}`);
    continue;
  }
  const scope = JSON.parse(readFileSync(setFile, 'utf8')).scope;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-stages-'));
  const summary = await buildHandbook(repo, { database: path.join(scratch, 'handbook.db'), ...(scope ? { include: scope } : {}) });
  rmSync(scratch, { recursive: true, force: true });
  const total = summary.assigned + summary.unassigned;
  console.log(`- ${name} (${scope ? scope.join(', ') : 'whole repository'}): ${summary.files} files, ${total} units to place; ${summary.assigned} placed (${((summary.assigned / total) * 100).toFixed(1)}%), ${summary.unassigned} unassigned; stager ${summary.stagerMs} ms of a ${summary.durationMs} ms build; ${summary.registerSlots} register slots`);
  console.log(`  stages: ${summary.stages.map((stage) => `${stage.id} ${stage.members}`).join(' · ')}`);
}
