import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stampedId } from './time-stamp.js';
import { makeFolder } from '../text/make-folder.js';

/** Where runs are logged: the caller's folder, or <repo>/.handbook/runs. */
export function runsFolder(root: string, options: { runsDirectory?: string }): string {
  return options.runsDirectory ?? path.join(root, '.handbook', 'runs');
}

/** A new run folder, made exclusively: the folder a run that never started removes is always its own. */
export function newRunFolder(runs: string, id: string = stampedId()): string {
  makeFolder(runs);
  const folder = path.join(runs, id);
  mkdirSync(folder);
  return folder;
}

/**
 * Removes the folder of a run that failed before its first event: it records nothing, and its
 * caller saw it fail, so no one means to resume it. A run that logged anything keeps its folder: it may have
 * acted, and what it wrote down is what resume and rollback need.
 */
export function discardIfNeverStarted(folder: string): void {
  if (!existsSync(eventsFile(folder))) rmSync(folder, { recursive: true, force: true });
}

export function eventsFile(folder: string): string {
  return path.join(folder, 'events.jsonl');
}

/** Where a run's commands write down their process groups while they run (see ProcessGroupLog). */
export function processGroupsFolder(folder: string): string {
  return path.join(folder, 'process-groups');
}
