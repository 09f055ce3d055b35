// Drives the built journal from a process of its own, for tests that kill it or race it.
//   crash-loop DIST ROOT FILE...  prints "ready", then forever: journal a write of each file in turn, make it, print "step"
//   record DIST ROOT LABEL COUNT  journals COUNT creates of LABEL-<i>.txt, then exits
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import writeFileAtomic from 'write-file-atomic';

const [mode, dist, root, ...rest] = process.argv.slice(2);
const { Journal } = await import(pathToFileURL(path.join(dist, 'harness', 'journal.js')).href);
const journal = Journal.open(root, { env: {} });
const FULL = { A: Buffer.from('A'.repeat(100_000)), B: Buffer.from('B'.repeat(100_000)) };

if (mode === 'crash-loop') {
  process.stdout.write('ready\n');
  for (let step = 0; ; step++) {
    const file = rest[step % rest.length];
    const absolute = path.join(root, file);
    const before = readFileSync(absolute);
    const fileMode = statSync(absolute).mode & 0o777;
    const after = before[0] === 0x41 ? FULL.B : FULL.A;
    await journal.record({ runId: `crash-${process.pid}`, opId: String(step), kind: 'write', path: file, before, beforeMode: fileMode, after });
    await writeFileAtomic(absolute, after, { mode: fileMode });
    process.stdout.write('step\n');
  }
} else if (mode === 'record') {
  const [label, count] = rest;
  for (let index = 0; index < Number(count); index++) {
    await journal.record({ runId: label, kind: 'create', path: `${label}-${index}.txt`, before: null, after: `${label} ${index}` });
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
