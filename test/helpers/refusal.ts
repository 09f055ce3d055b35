import { HandbookError } from '../../src/index.js';

/** The HandbookError an action refuses with; anything else it throws, or nothing thrown, fails the test. */
export async function refusal(action: () => unknown): Promise<HandbookError> {
  try {
    await action();
  } catch (error) {
    if (HandbookError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a HandbookError');
}
