import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { GROUP_MARKER_VARIABLE, killLeftoverGroups, ProcessGroupLog } from '../../src/harness/process-groups.js';
import { runShellCommand } from '../../src/harness/run-shell-command.js';
import { scratchDirectory } from '../helpers/paths.js';
import { alive, deadWithin } from '../helpers/process-life.js';

const spawned: number[] = [];

/** A process group of its own, left running as a killed harness leaves one; once it is sleep, its group and environment are its own. */
async function group(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env });
  child.unref();
  const pid = child.pid!;
  spawned.push(pid);
  for (let waited = 0; waited < 10_000 && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'); waited += 20) await sleep(20);
  return pid;
}

afterEach(() => {
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

describe.runIf(existsSync('/proc/self/stat'))('process groups a killed run left', () => {
  it('are killed when their processes carry the session marker, and only then: a recorded id may be someone else’s by now', async () => {
    const folder = path.join(scratchDirectory(), 'process-groups');
    const log = new ProcessGroupLog(folder);
    const ours = await group({ ...process.env, [GROUP_MARKER_VARIABLE]: log.marker });
    const reused = await group({ ...process.env, [GROUP_MARKER_VARIABLE]: 'another-session' });
    log.started(ours);
    log.started(reused);
    writeFileSync(path.join(folder, 'cut-off.json'), '{"pgid": 1');
    expect(killLeftoverGroups(folder)).toEqual([ours]);
    expect(await deadWithin(ours, 10_000)).toBe(true);
    expect(alive(reused)).toBe(true);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('are written down by runShellCommand while a command runs, and struck off when it ends', async () => {
    const folder = path.join(scratchDirectory(), 'process-groups');
    const log = new ProcessGroupLog(folder);
    // The record is written once the spawn has returned, which the command's first step may beat: it waits for it (10 s at most).
    const waitForRecord = `for i in $(seq 200); do [ -n "$(ls ${folder} 2>/dev/null)" ] && break; sleep 0.05; done`;
    const outcome = await runShellCommand(`${waitForRecord}; ls ${folder}; echo "$${GROUP_MARKER_VARIABLE}"`, { cwd: scratchDirectory(), timeoutMs: 20_000, groups: log });
    expect(outcome.output.trim().split('\n')).toEqual([expect.stringMatching(/^\d+\.json$/), log.marker]);
    expect(readdirSync(folder)).toEqual([]);
  });
});
