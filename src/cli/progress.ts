import cliProgress from 'cli-progress';
import type { BuildProgress } from '../index.js';

const LABELS: Record<BuildProgress['phase'], string> = {
  discover: 'finding files',
  parse: 'parsing',
  index: 'indexing units',
  resolve: 'resolving calls',
  organize: 'placing stages',
  write: 'writing handbook',
};

/**
 * A progress bar on stderr when it is a terminal; silent otherwise, so pipes and CI logs stay clean.
 * The cursor stays visible: Ctrl-C ends a build by Node's default action, which could not show it again.
 */
export function createProgressReporter(enabled: boolean): { update: (progress: BuildProgress) => void; stop: () => void } {
  if (!enabled || !process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: ' {phase} [{bar}] {value}/{total}', hideCursor: false, clearOnComplete: true, barsize: 30 },
    cliProgress.Presets.shades_classic,
  );
  let phase: BuildProgress['phase'] | undefined;
  return {
    update(progress) {
      if (progress.phase !== phase) {
        if (phase) bar.stop();
        phase = progress.phase;
        bar.start(Math.max(progress.total, 1), progress.done, { phase: LABELS[progress.phase].padEnd(16) });
      } else bar.update(progress.done);
    },
    stop() {
      if (phase) bar.stop();
    },
  };
}
