/**
 * The file name of a unit's JSON in a static site, and back. Lowercase letters, digits, `.` and
 * `-` stand for themselves; every other UTF-8 byte, uppercase letters included, becomes `_` and
 * two lowercase hex digits. Escaping uppercase keeps two units whose names differ only in case
 * apart on case-insensitive file systems; the result is also safe in a URL as it is. A name that
 * would pass MAX_NAME (file systems stop at 255 bytes, and an id with many capitals triples in
 * length) keeps its start and ends in `~` and a hash of the whole id; no escaped name holds a
 * `~`, so the two kinds never meet. No Node API is used, so the browser app can import these.
 */
const MAX_NAME = 200;
const HASH_CHARACTERS = 16;

export function unitFileName(id: string): string {
  const bytes = new TextEncoder().encode(id);
  let name = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    name += /[a-z0-9.-]/.test(char) ? char : `_${byte.toString(16).padStart(2, '0')}`;
  }
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME - HASH_CHARACTERS - 1)}~${hashOf(bytes)}`;
}

/** The id a file name stands for; undefined for a shortened name, which only its id can produce again. */
export function unitIdOfFileName(name: string): string | undefined {
  if (name.includes('~')) return undefined;
  const bytes: number[] = [];
  for (let index = 0; index < name.length; index += 1) {
    if (name[index] === '_') {
      bytes.push(Number.parseInt(name.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(name.charCodeAt(index));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Two 32-bit FNV-1a hashes with different starting points, as 16 hex digits: enough to tell apart the few ids that need it. */
function hashOf(bytes: Uint8Array): string {
  let first = 0x811c9dc5;
  let second = 0x050c5d1f;
  for (const byte of bytes) {
    first = Math.imul(first ^ byte, 0x01000193) >>> 0;
    second = Math.imul(second ^ byte, 0x01000193) >>> 0;
  }
  return first.toString(16).padStart(8, '0') + second.toString(16).padStart(8, '0');
}
