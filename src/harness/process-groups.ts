import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { makeFolder } from '../text/make-folder.js';
import { readJsonIfValid } from '../text/read-json-input.js';

/** The variable every command of a run carries: its processes are told by it from others that took the same ids since. */
export const GROUP_MARKER_VARIABLE = 'HANDBOOK_PROCESS_GROUP';

const recordSchema = z.object({ pgid: z.number().int().positive(), marker: z.string().min(1) });

/** Where commands write down the process groups they run in; runShellCommand calls it around each command. */
export interface ProcessGroupRecorder {
  /** This session's value of GROUP_MARKER_VARIABLE. */
  readonly marker: string;
  started(pgid: number): void;
  ended(pgid: number): void;
}

/**
 * The process groups a run's commands (checks, run_command) run in, one file each in the run
 * folder while they run. A harness killed outright (SIGKILL) cannot stop them, and a test suite
 * left running would go on acting on the repository under the next session, so whoever claims
 * the run next kills them first (killLeftoverGroups). Not fsynced: the record must outlive the
 * process, not the machine, whose crash takes the groups with it.
 */
export class ProcessGroupLog implements ProcessGroupRecorder {
  readonly marker = randomUUID();

  constructor(private readonly folder: string) {}

  started(pgid: number): void {
    makeFolder(this.folder);
    writeFileSync(this.fileOf(pgid), JSON.stringify({ pgid, marker: this.marker }));
  }

  ended(pgid: number): void {
    rmSync(this.fileOf(pgid), { force: true });
  }

  private fileOf(pgid: number): string {
    return path.join(this.folder, `${pgid}.json`);
  }
}

/**
 * Kills the groups a dead session left in `folder`; only its claimant may call it, as a live
 * session's groups are recorded there too. A recorded id may name someone else's group by now
 * (ids are reused), so a group is killed only while one of its processes carries the session's
 * marker; that is read from /proc, and where there is none nothing is killed. Returns the
 * groups killed.
 */
export function killLeftoverGroups(folder: string): number[] {
  if (!existsSync(folder)) return [];
  const killed: number[] = [];
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    const record = readRecord(file);
    if (record && groupCarries(record.pgid, record.marker) && killGroup(record.pgid)) killed.push(record.pgid);
    rmSync(file, { force: true });
  }
  return killed;
}

/** A record a kill cut off as it was written names no group that can be checked. */
function readRecord(file: string): z.output<typeof recordSchema> | undefined {
  return readJsonIfValid(file, recordSchema);
}

function groupCarries(pgid: number, marker: string): boolean {
  const wanted = `${GROUP_MARKER_VARIABLE}=${marker}`;
  return membersOf(pgid).some((pid) => environmentOf(pid).includes(wanted));
}

/** The processes of a group, from /proc/<pid>/stat, whose fifth field is the group (after the name in parentheses, which may hold anything). */
function membersOf(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A process's environment variables; none readable for another user's process or one gone meanwhile. */
function environmentOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 'SIGKILL');
    return true;
  } catch {
    // Ended between the look and the kill.
    return false;
  }
}
