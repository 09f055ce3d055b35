/**
 * The file name of a unit's JSON in a static site, and back. Lowercase letters, digits, `.` and
 * `-` stand for themselves; every other UTF-8 byte, uppercase letters included, becomes `_` and
 * two lowercase hex digits. Escaping uppercase keeps two units whose names differ only in case
 * apart on case-insensitive file systems; the result is also safe in a URL as it is. No Node
 * API is used, so the browser app can import these two functions.
 */
export function unitFileName(id: string): string {
  let name = '';
  for (const byte of new TextEncoder().encode(id)) {
    const char = String.fromCharCode(byte);
    name += /[a-z0-9.-]/.test(char) ? char : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return name;
}

export function unitIdOfFileName(name: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < name.length; index += 1) {
    if (name[index] === '_') {
      bytes.push(Number.parseInt(name.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(name.charCodeAt(index));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
