/** "line 12" or "lines 12, 40": where a unit calls, reads or writes, for a sentence. */
export function linesPhrase(lines: readonly number[]): string {
  return `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}`;
}
