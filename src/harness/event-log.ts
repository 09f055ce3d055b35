import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { harnessEventSchema, type HarnessEvent } from './events.js';

/**
 * One JSON line per event, appended as it happens: a run killed at any point leaves every
 * event before the kill on disk, and a half-written last line is the only possible damage.
 */
export class EventLog {
  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
  }

  append(event: HarnessEvent): void {
    appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }
}

/** Reads a log back, checking every line; a torn last line (a crash mid-append) is dropped, any other bad line is an error. */
export function readEventLog(file: string): HarnessEvent[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const events: HarnessEvent[] = [];
  for (const [index, line] of lines.entries()) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      if (index === lines.length - 1) break;
      throw new Error(`${file} line ${index + 1} is not JSON: ${(error as Error).message}`);
    }
    events.push(harnessEventSchema.parse(raw) as HarnessEvent);
  }
  return events;
}
