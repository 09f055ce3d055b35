import { type LiveUnit, liveUnitsOf } from '../locate/live-file-units.js';
import type { LiveSourceReader } from '../locate/live-source.js';
import type { PlanDraft } from './edit-plan.js';

interface Located {
  file: string;
  symbol: string;
  line: number;
  endLine: number;
  hash: string;
}

/**
 * A draft whose locators are read from the live files, as the llm planner's entry tool gives
 * them: a handbook older than the files (edited since the build, not synced) holds the lines and
 * hashes of code that is no longer there, and a plan citing those would be rejected by its own
 * gate as changed since it was planned. A symbol gone from its file keeps its locator, which the
 * gate then reports as gone.
 */
export async function withLiveLocators(draft: PlanDraft, read: LiveSourceReader): Promise<PlanDraft> {
  const files = new Map<string, Promise<Map<string, LiveUnit> | undefined>>();
  const unitsOf = (file: string): Promise<Map<string, LiveUnit> | undefined> => {
    let units = files.get(file);
    if (!units) {
      // A file that cannot be read is the gate's to report, with the reason.
      units = liveUnitsOf(read, file).then(
        (live) => ('units' in live ? live.units : undefined),
        () => undefined,
      );
      files.set(file, units);
    }
    return units;
  };
  const live = async <T extends Located>(locator: T): Promise<T> => {
    const unit = (await unitsOf(locator.file))?.get(locator.symbol);
    return unit ? { ...locator, line: unit.startLine, endLine: unit.endLine, hash: unit.hash } : locator;
  };
  return { ...draft, targets: await Promise.all(draft.targets.map(live)), context: await Promise.all(draft.context.map(live)) };
}
