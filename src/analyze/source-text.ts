import { TextDecoder } from 'node:util';

/**
 * A source file's text as the compiler reads it: UTF-8 without a leading byte-order mark. The
 * compiler's own file reader drops the mark; kept, it moves a `#!` line off the file's first
 * character, where it is a syntax error, and every reader of the same file must agree on its text.
 * A Python file may declare another encoding in its first two lines (PEP 263: `# -*- coding:
 * latin-1 -*-`), and Python reads it so: so does every reader here, given the file's path.
 */
export function decodeSource(bytes: Buffer, path?: string): string {
  const declared = path?.endsWith('.py') ? pythonEncodingOf(bytes) : undefined;
  if (declared) return declared.decode(bytes);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** PEP 263's pattern, on either of the first two lines (each a comment). */
const CODING_LINE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

/** Python's names that the WHATWG Encoding Standard (TextDecoder) spells otherwise. */
const PYTHON_ALIASES: Record<string, string> = { 'latin-1': 'latin1', l1: 'latin1', 'iso-8859-1': 'latin1', 'latin': 'latin1', cp932: 'shift_jis', sjis: 'shift_jis', 'euc-kr': 'euc-kr', cp936: 'gbk', 'ascii': 'utf-8', 'us-ascii': 'utf-8' };

/** The decoder of a declared encoding other than UTF-8 that TextDecoder knows; undefined for UTF-8, no declaration or an unknown name (read as UTF-8, as before). */
function pythonEncodingOf(bytes: Buffer): TextDecoder | undefined {
  // A declaration sits on the first two lines, in ASCII: their bytes read as latin1 are their characters.
  const head = bytes.subarray(0, 512).toString('latin1').split(/\r\n|\n|\r/, 2);
  for (const line of head) {
    const match = CODING_LINE.exec(line);
    if (!match) {
      // The second line counts only after a first line that is a comment or blank (a shebang, say).
      if (!/^[ \t\f]*(#.*)?$/.test(line)) return undefined;
      continue;
    }
    const name = match[1]!.toLowerCase().replace(/_/g, '-');
    const label = PYTHON_ALIASES[name] ?? name;
    if (label === 'utf-8' || label === 'utf8' || label.startsWith('utf-8-')) return undefined;
    try {
      return new TextDecoder(label);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
