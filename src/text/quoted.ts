/** Past this, a name echoed in a message is cut: no unit or stage id is this long. */
const LONGEST_ECHO = 120;

/**
 * A name the user typed, in quotes, for a one-line message. A pasted file or a runaway shell
 * expansion came back whole, and a refusal of 100,000 characters is no longer one line to read.
 */
export function quoted(text: string): string {
  return text.length <= LONGEST_ECHO ? `"${text}"` : `"${text.slice(0, LONGEST_ECHO)}…" (${text.length} characters)`;
}
