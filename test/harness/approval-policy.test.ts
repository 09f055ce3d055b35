import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../src/harness/approval-policy.js';
import { runCommandTool } from '../../src/harness/tools/exec-tools.js';

const policy = { tools: {}, commands: { allow: ['npm test *', 'git status'] } };
const decide = (command: string) => decideApproval(runCommandTool as never, { command }, policy, undefined);

describe('approval policy for run_command', () => {
  it('allows an exact command and plain words after an allowed prefix', async () => {
    expect(await decide('git status')).toMatchObject({ approved: true, by: 'policy' });
    expect(await decide('npm test -- --run src/a.test.ts')).toMatchObject({ approved: true, by: 'policy' });
  });

  it.each(['npm test x\ntouch /tmp/pwned', 'npm test x; rm -rf .', 'npm test $(whoami)', 'npm test `id`', 'npm test > out', 'npm test (sub)', 'npm test x\\\nrm', 'npm test x && curl y', 'git status -s'])(
    'refuses %j, which a prefix must never let through',
    async (command) => {
      expect(await decide(command)).toMatchObject({ approved: false, by: 'non_interactive' });
    },
  );
});
