import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { harnessEventSchema, type HarnessEvent } from './events.js';
import { readJsonLines } from './json-lines.js';
import { makeFolder } from '../text/make-folder.js';

/**
 * One JSON line per event, appended as it happens: a run killed at any point leaves every
 * event before the kill on disk, and a half-written last line is the only possible damage.
 */
export class EventLog {
  constructor(readonly file: string) {
    makeFolder(path.dirname(file));
  }

  append(event: HarnessEvent): void {
    appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }
}

/** Reads a log back, checking every line; a torn last line (a crash mid-append) is dropped, any other bad line is an error. */
export function readEventLog(file: string): HarnessEvent[] {
  return readJsonLines(file, harnessEventSchema) as HarnessEvent[];
}
