import { createInterface } from 'node:readline/promises';
import type { Approver } from '../index.js';

/** Asks on the terminal; undefined when there is no terminal, so that `ask` means no in scripts and CI. */
export function terminalApprover(): Approver | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (request) => {
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await prompt.question(`approve ${request.tool} ${JSON.stringify(request.arguments)}? [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      prompt.close();
    }
  };
}
