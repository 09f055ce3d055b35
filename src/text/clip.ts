/** Runs of whitespace as one space, ends trimmed: a declaration's head or a doc as one line. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `limit` characters, an ellipsis marking a cut. */
export function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
