import { runLab, type LabReport } from './ablation.js';

/**
 * `npm run lab`: the ablation lab. Prints the full harness's result and one leave-one-out pair
 * per component; `--failures` names the unhandled condition of every failed task; `--json`
 * prints the report. Exits 1 unless the full harness passes every task and every component
 * shows a positive delta.
 */
function format(report: LabReport): string {
  const lines = [
    `ablation lab: ${report.tasks} tasks on fixtures/task-repo, driven by simulated weak models (deterministic programs, not models)`,
    `full harness: ${report.full.passed}/${report.tasks} tasks pass`,
    '',
    `${'component'.padEnd(16)}${'control (off)'.padEnd(15)}${'treatment (full)'.padEnd(18)}${'delta'.padEnd(7)}tasks lost without it`,
    ...report.pairs.map(
      (pair) =>
        `${pair.component.padEnd(16)}${`${pair.control.passed}/${report.tasks}`.padEnd(15)}${`${pair.treatment.passed}/${report.tasks}`.padEnd(18)}${`${pair.delta > 0 ? '+' : ''}${pair.delta}`.padEnd(7)}${pair.lostWithout.join(', ') || '-'}`,
    ),
  ];
  return lines.join('\n');
}

function formatFailures(report: LabReport): string {
  if (report.failures.length === 0) return 'no task failed in any configuration';
  return report.failures.map((failure) => `${failure.config.padEnd(24)} ${failure.task.padEnd(26)} unhandled: ${failure.condition} (${failure.state}; ${failure.reason})`).join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const report = await runLab({ onOutcome: (outcome) => process.stderr.write(`${outcome.pass ? '✓' : '✗'} ${outcome.config.padEnd(24)} ${outcome.task}\n`) });
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    process.stdout.write(`${format(report)}\n`);
    if (argv.includes('--failures')) process.stdout.write(`\nfailures:\n${formatFailures(report)}\n`);
  }
  const sound = report.full.passed === report.tasks && report.pairs.every((pair) => pair.delta > 0);
  return sound ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`lab: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
