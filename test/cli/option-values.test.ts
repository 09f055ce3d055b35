import { describe, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli-run.js';

describe('option values the CLI refuses', () => {
  it('says an empty option value is empty, in words about the option rather than about string lengths', () => {
    const empties: Array<[string, string[]]> = [
      ['--repo', ['overview', '--repo', '']],
      ['--db', ['render', '--db', '']],
      ['--host', ['serve', '--host', '']],
      ['--include', ['build', '.', '--include', '']],
      ['--model', ['ask', 'x', '--model', '']],
      ['--task', ['run', '--task', '  ', '--model', 'offline']],
    ];
    for (const [option, args] of empties) expectOneLineError(runCli(args), 2, new RegExp(`^handbook: invalid option ${option}: it is empty \\(`));
  });
});
