/**
 * A source file's text as the compiler reads it: UTF-8 without a leading byte-order mark. The
 * compiler's own file reader drops the mark; kept, it moves a `#!` line off the file's first
 * character, where it is a syntax error, and every reader of the same file must agree on its text.
 */
export function decodeSource(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
