import { describe, it } from 'vitest';
import { expectOneLineError, runCliAsync } from '../helpers/cli-run.js';

describe('option values the CLI refuses', () => {
  // One concurrent test an option: one after another, their CLI starts added up under one timeout on a loaded machine.
  const empties: Array<[string, string[]]> = [
    ['--repo', ['overview', '--repo', '']],
    ['--db', ['render', '--db', '']],
    ['--host', ['serve', '--host', '']],
    ['--include', ['build', '.', '--include', '']],
    ['--model', ['ask', 'x', '--model', '']],
    ['--task', ['run', '--task', '  ', '--model', 'offline']],
  ];
  it.concurrent.for(empties)('says an empty option value is empty, in words about the option rather than about string lengths: %s', async ([option, args]) => {
    expectOneLineError(await runCliAsync(args), 2, new RegExp(`^handbook: invalid option ${option}: it is empty \\(`));
  });
});
