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

/** Asks a yes/no question on the terminal; false when there is no terminal to ask on. */
export async function confirmOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}
