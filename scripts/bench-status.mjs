#!/usr/bin/env node
// `handbook status --json` on a repository with a built handbook, each run a new process: median wall
// and CPU (user + system) time. With --against <other main.js>, runs the two CLIs in turn (A, B, A,
// B, ...) so both see the same machine, and checks they print the same report.
// Usage: npm run bench:status -- <repo> [--runs 7] [--db <path>] [--against <dist/cli/main.js>]
// Status only reads, but SQLite may leave -shm/-wal files beside the database: bench a copy of a shared checkout.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const valued = new Set(['--runs', '--db', '--against']);
const repo = args.find((arg, index) => !arg.startsWith('--') && !valued.has(args[index - 1]));
if (!repo) {
  console.error('usage: npm run bench:status -- <repo> [--runs 7] [--db <path>] [--against <dist/cli/main.js>]');
  process.exit(2);
}
const runs = Number(option('runs', '7'));
const database = option('db');
const clis = [{ name: 'this build', main: path.join(root, 'dist', 'cli', 'main.js') }];
const against = option('against');
if (against) clis.push({ name: path.resolve(against), main: path.resolve(against) });
for (const cli of clis) if (!existsSync(cli.main)) throw new Error(`no CLI at ${cli.main} (run npm run build)`);

const CLOCK_TICKS = 100;
/** CPU seconds of this process's waited-for children, from /proc (Linux): Node reports no child's resource use. */
function childrenCpu() {
  if (!existsSync('/proc/self/stat')) return Number.NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // cutime and cstime are fields 16 and 17 of the line, 14 and 15 after the command name.
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

function runStatus(main) {
  const cpuBefore = childrenCpu();
  const started = performance.now();
  const run = spawnSync(process.execPath, [main, 'status', repo, '--json', ...(database ? ['--db', database] : [])], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0 && run.status !== 5) throw new Error(`status exited ${run.status}: ${run.stderr}`);
  return { wall, cpu: childrenCpu() - cpuBefore, stdout: run.stdout };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = clis.map(() => ({ wall: [], cpu: [], outputs: new Set() }));
for (let round = 0; round < runs; round += 1) {
  clis.forEach((cli, index) => {
    const { wall, cpu, stdout } = runStatus(cli.main);
    results[index].wall.push(wall);
    results[index].cpu.push(cpu);
    results[index].outputs.add(stdout);
  });
}

const report = JSON.parse([...results[0].outputs][0]);
console.log(`status of ${repo}: ${Object.entries(report.counts).map(([status, count]) => `${count} ${status}`).join(', ')}; ${runs} runs each`);
clis.forEach((cli, index) => {
  const { wall, cpu } = results[index];
  console.log(`- ${cli.name}: median wall ${median(wall).toFixed(2)} s, CPU ${median(cpu).toFixed(2)} s (wall ${wall.map((value) => value.toFixed(2)).join(' ')})`);
});
const outputs = new Set(results.flatMap((result) => [...result.outputs]));
console.log(outputs.size === 1 ? '- every run printed the same report' : `- the runs printed ${outputs.size} different reports`);
if (outputs.size !== 1) process.exitCode = 1;
